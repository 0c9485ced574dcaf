// The engine of `bowstring.ipc` (python/bowstring/ipc.py): Arrow IPC streams and files read
// from memory-mapped paths, from any object exposing the buffer protocol (zero-copy) or from
// binary file objects, and written to paths (straight to their descriptor) or file objects. The
// GIL is released while bytes are decoded or encoded and taken back only to call into Python.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/interchange/compression.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/table/table.h"
#include "bowstring/util/error.h"
#include "interchange_bindings.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace bowstring::python {
namespace {

// The first buffer `PythonInputStream::read_buffer` allocates; it doubles from there as bytes
// arrive, so a hostile length cannot reserve memory the stream never delivers.
constexpr int64_t kReadChunk = int64_t{64} * 1024;
// Bytes `PythonOutputStream` gathers before calling the file object's write().
constexpr int64_t kWriteBufferSize = int64_t{64} * 1024;

std::string class_name_of(nb::handle object) { return nb::inst_name(object).c_str(); }

// A Python object's buffer export (PEP 3118), held as long as any Buffer viewing it. The export,
// and with it the reference to the object, is released with the GIL taken on whichever thread
// drops the last Buffer. Once the interpreter is shutting down it is left alone: Python can no
// longer be entered then, and the process is ending.
class PythonBufferExport {
 public:
  explicit PythonBufferExport(nb::handle object) {
    if (PyObject_GetBuffer(object.ptr(), &view_, PyBUF_SIMPLE) != 0) {
      throw nb::python_error();
    }
  }
  ~PythonBufferExport() {
    if (const nb::detail::cleanup_guard guard{}) {
      PyBuffer_Release(&view_);
    }
  }
  PythonBufferExport(const PythonBufferExport&) = delete;
  PythonBufferExport& operator=(const PythonBufferExport&) = delete;

  const Py_buffer& view() const { return view_; }

 private:
  Py_buffer view_{};
};

// The bytes of a buffer-protocol object (bytes, bytearray, memoryview, mmap, a contiguous numpy
// array, a pyarrow Buffer...) as a Buffer, without copying them. Call with the GIL held.
std::shared_ptr<Buffer> buffer_over(nb::handle object) {
  auto owner = std::make_shared<PythonBufferExport>(object);
  const Py_buffer& view = owner->view();
  return Buffer::wrap(view.buf, view.len, std::move(owner));
}

// Copies what a file object's read() returned into `out` (room for `capacity` bytes); returns
// how many bytes it held. Call with the GIL held.
int64_t copy_read_result(nb::handle result, uint8_t* out, int64_t capacity) {
  if (result.is_none()) {
    throw IoError(
        "the file object's read() returned None: it is in non-blocking mode and has no data yet");
  }
  if (!PyObject_CheckBuffer(result.ptr())) {
    throw TypeError("the file object's read() returned " + class_name_of(result) +
                    ", not bytes: open the file in binary mode ('rb')");
  }
  const std::shared_ptr<Buffer> bytes = buffer_over(result);
  if (bytes->size() > capacity) {
    throw IoError("the file object's read(" + std::to_string(capacity) + ") returned " +
                  std::to_string(bytes->size()) + " bytes, more than asked for");
  }
  std::memcpy(out, bytes->data(), static_cast<size_t>(bytes->size()));
  return bytes->size();
}

// Reads a binary file object (anything with read(n)) front to back, taking the GIL for each
// call. The object is borrowed: the Python caller keeps it alive while the stream is read.
class PythonInputStream final : public InputStream {
 public:
  explicit PythonInputStream(nb::handle file) : file_(file) {}

  int64_t read(void* out, int64_t size) override {
    check_size(size);
    auto* bytes = static_cast<uint8_t*>(out);
    int64_t total = 0;
    const nb::gil_scoped_acquire gil;
    // read(n) may return fewer bytes than asked (raw files, sockets); only b"" is the end.
    while (total < size) {
      const nb::object result = file_.attr("read")(size - total);
      const int64_t count = copy_read_result(result, bytes + total, size - total);
      if (count == 0) {
        break;
      }
      total += count;
    }
    position_ += total;
    return total;
  }

  std::shared_ptr<Buffer> read_buffer(int64_t size) override {
    check_size(size);
    MutableBuffer bytes;
    int64_t received = 0;
    while (received < size) {
      if (received == bytes.size()) {
        bytes.resize(std::min(size, std::max(kReadChunk, received * 2)));
      }
      const int64_t count = read(bytes.mutable_data() + received, bytes.size() - received);
      received += count;
      if (received < bytes.size()) {
        break;
      }
    }
    bytes.resize(received);
    if (received < size) {
      // The stream ended early: the room grown for more is not kept.
      bytes.shrink_to_fit();
    }
    return bytes.finish();
  }

  int64_t position() const override { return position_; }

 private:
  static void check_size(int64_t size) {
    if (size < 0) {
      throw InvalidArgument("read of a negative number of bytes: " + std::to_string(size));
    }
  }

  nb::handle file_;
  int64_t position_ = 0;
};

// Writes to a binary file object (anything with write(b)) through a buffer, taking the GIL only
// to hand full buffers (and large writes) to write(). The object is borrowed: the Python caller
// keeps it alive while the stream is written.
class PythonOutputStream final : public OutputStream {
 public:
  explicit PythonOutputStream(nb::handle file) : file_(file) {
    pending_.reserve(static_cast<size_t>(kWriteBufferSize));
  }

  using OutputStream::write;
  void write(const void* data, int64_t size) override {
    if (size < 0) {
      throw InvalidArgument("write of a negative number of bytes: " + std::to_string(size));
    }
    const auto* bytes = static_cast<const uint8_t*>(data);
    if (static_cast<int64_t>(pending_.size()) + size > kWriteBufferSize) {
      send_pending();
    }
    if (size >= kWriteBufferSize) {
      send(bytes, size);
    } else {
      pending_.insert(pending_.end(), bytes, bytes + size);
    }
    position_ += size;
  }

  void flush() override {
    send_pending();
    const nb::gil_scoped_acquire gil;
    if (nb::hasattr(file_, "flush")) {
      file_.attr("flush")();
    }
  }

  int64_t position() const override { return position_; }

 private:
  void send_pending() {
    // Whatever happens to them, the pending bytes are gone: after a failed write, how much of
    // them reached the file is unknown.
    struct Clear {
      std::vector<uint8_t>& bytes;
      ~Clear() { bytes.clear(); }
    } clear{pending_};
    send(pending_.data(), static_cast<int64_t>(pending_.size()));
  }

  // write() receives bytes objects (copies), never views of our memory, which a file object
  // could keep past the call.
  void send(const uint8_t* data, int64_t size) {
    if (size == 0) {
      return;
    }
    const nb::gil_scoped_acquire gil;
    int64_t sent = 0;
    while (sent < size) {
      const nb::bytes chunk(data + sent, static_cast<size_t>(size - sent));
      const nb::object result = file_.attr("write")(chunk);
      // Buffered and in-memory files return the full count, raw files and sockets what they
      // took; many file-like objects return None after taking everything.
      if (result.is_none()) {
        return;
      }
      int64_t count = 0;
      if (!nb::try_cast(result, count)) {
        throw TypeError("the file object's write() returned " + class_name_of(result) +
                        ", not the number of bytes written or None");
      }
      if (count <= 0 || count > size - sent) {
        throw IoError("the file object's write() of " + std::to_string(size - sent) +
                      " bytes returned " + std::to_string(count));
      }
      sent += count;
    }
  }

  nb::handle file_;
  std::vector<uint8_t> pending_;
  int64_t position_ = 0;
};

ipc::ReadOptions read_options(bool validate) {
  ipc::ReadOptions options;
  options.validate_full = validate;
  return options;
}

Table read_stream_from(std::shared_ptr<InputStream> source, bool validate) {
  const nb::gil_scoped_release unlocked;
  return ipc::StreamReader::open(std::move(source), read_options(validate))->read_all();
}

Table read_file_from(std::shared_ptr<const RandomAccessSource> source, bool validate) {
  const nb::gil_scoped_release unlocked;
  return ipc::FileReader::open(std::move(source), read_options(validate))->read_all();
}

std::shared_ptr<const RandomAccessSource> map_file(const std::string& path) {
  const nb::gil_scoped_release unlocked;
  return MemoryMappedFile::open(path);
}

[[noreturn]] void throw_not_a_source(const char* function, nb::handle source) {
  throw nb::type_error((std::string("bowstring.ipc.") + function +
                        "() reads a path, a bytes-like object or a binary file object, got " +
                        class_name_of(source))
                           .c_str());
}

Table read_stream(nb::handle source, bool validate) {
  if (nb::isinstance<nb::str>(source)) {
    return read_stream_from(
        std::make_shared<SourceInputStream>(map_file(nb::cast<std::string>(source))), validate);
  }
  if (PyObject_CheckBuffer(source.ptr())) {
    return read_stream_from(std::make_shared<BufferInputStream>(buffer_over(source)), validate);
  }
  if (nb::hasattr(source, "read")) {
    return read_stream_from(std::make_shared<PythonInputStream>(source), validate);
  }
  throw_not_a_source("read_stream", source);
}

Table read_file(nb::handle source, bool validate) {
  if (nb::isinstance<nb::str>(source)) {
    return read_file_from(map_file(nb::cast<std::string>(source)), validate);
  }
  if (PyObject_CheckBuffer(source.ptr())) {
    return read_file_from(std::make_shared<BufferSource>(buffer_over(source)), validate);
  }
  if (nb::hasattr(source, "read")) {
    // Random access over a file object would mean a Python call per message: read it whole.
    const nb::object whole = source.attr("read")();
    if (!PyObject_CheckBuffer(whole.ptr())) {
      throw TypeError("the file object's read() returned " + class_name_of(whole) +
                      ", not bytes: open the file in binary mode ('rb')");
    }
    return read_file_from(std::make_shared<BufferSource>(buffer_over(whole)), validate);
  }
  throw_not_a_source("read_file", source);
}

// Encodes every batch of `batches` into `sink` with the GIL released (it is taken back to read
// batches from Python producers and to write to Python file objects, by whoever needs it).
template <typename Writer>
void encode(RecordBatchReader& batches, const std::shared_ptr<OutputStream>& sink,
            const ipc::WriteOptions& options) {
  const nb::gil_scoped_release unlocked;
  Writer writer(sink, batches.schema(), options);
  while (const std::optional<RecordBatch> batch = batches.next()) {
    writer.write(*batch);
  }
  writer.close();
}

void write_batches(RecordBatchReader& batches, const std::shared_ptr<OutputStream>& sink,
                   const std::string& compression, bool file_format) {
  ipc::WriteOptions options;
  options.compression = compression_from_name(compression);
  if (file_format) {
    encode<ipc::FileWriter>(batches, sink, options);
  } else {
    encode<ipc::StreamWriter>(batches, sink, options);
  }
}

// Closes a Python file object when the write is over; on the way out of an error, a second
// error from close() would only hide the first, so it is dropped.
class ClosingFile {
 public:
  explicit ClosingFile(nb::object file) : file_(std::move(file)) {}
  ~ClosingFile() {
    if (file_.is_valid()) {
      const nb::error_scope keep_the_first_error;
      try {
        file_.attr("close")();
      } catch (const nb::python_error&) {
        return;
      }
    }
  }
  ClosingFile(const ClosingFile&) = delete;
  ClosingFile& operator=(const ClosingFile&) = delete;

  int fd() const { return nb::cast<int>(file_.attr("fileno")()); }
  void close() { std::exchange(file_, nb::object()).attr("close")(); }

 private:
  nb::object file_;
};

// `sink`: a path (str) or a binary file object. The data is checked before a path is created.
void write(nb::handle data, nb::handle sink, const std::string& compression, bool file_format) {
  const char* function = file_format ? "ipc.write_file" : "ipc.write_stream";
  const std::unique_ptr<RecordBatchReader> batches = record_batches_from(data, function);
  if (!nb::isinstance<nb::str>(sink)) {
    write_batches(*batches, std::make_shared<PythonOutputStream>(sink), compression, file_format);
    return;
  }
  // Python opens the path, so that failures are its own OSError subclasses (FileNotFoundError,
  // PermissionError...) naming the path; the bytes then go straight to the descriptor.
  const std::string path = nb::cast<std::string>(sink);
  ClosingFile file(nb::module_::import_("io").attr("open")(sink, "wb", 0));
  write_batches(
      *batches,
      std::make_shared<FdOutputStream>(file.fd(), false, FdOutputStream::kDefaultBufferSize, path),
      compression, file_format);
  file.close();
}

}  // namespace

void bind_ipc(nb::module_& module) {
  nb::module_ ipc = module.def_submodule(
      "_ipc", "Arrow IPC streams and files; the public interface is bowstring.ipc.");
  ipc.def("read_stream", &read_stream, "source"_a, "validate"_a,
          "Reads an IPC stream from a path (str, mapped), a buffer-protocol object (zero-copy) "
          "or a binary file object.");
  ipc.def("read_file", &read_file, "source"_a, "validate"_a,
          "Reads an IPC file from a path (str, mapped), a buffer-protocol object (zero-copy) or "
          "a binary file object (read whole).");
  ipc.def("write", &write, "data"_a, "sink"_a, "compression"_a, "file_format"_a,
          "Writes the batches of `data` as an IPC stream or file to a path (str) or a binary "
          "file object.");
}

}  // namespace bowstring::python
