#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bowstring/memory/allocator.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/memory/buffer_builder.h"

namespace bowstring {

/// Where serialized bytes go. Writes may be buffered: `flush` hands everything written so far
/// to the destination, `close` flushes and releases it. Failures throw `IoError` naming the
/// destination and the system error.
class OutputStream {
 public:
  virtual ~OutputStream() = default;
  virtual void write(const void* data, int64_t size) = 0;
  /// Writes a buffer's bytes; sinks that keep buffers may keep a reference instead of copying.
  virtual void write(const std::shared_ptr<const Buffer>& buffer) {
    write(buffer->data(), buffer->size());
  }
  virtual void flush() {}
  virtual void close() { flush(); }
  /// Number of bytes written so far (including bytes still buffered).
  virtual int64_t position() const = 0;
};

/// Sequential bytes (a pipe, a socket, a file read front to back, a buffer). Failures throw
/// `IoError`.
class InputStream {
 public:
  virtual ~InputStream() = default;
  /// Reads `size` bytes into `out`, or fewer at the end of the stream; returns how many (0 once
  /// the stream is exhausted). Waits for more data rather than returning a short count early, so
  /// a short count always means the end. A negative size throws `InvalidArgument`.
  virtual int64_t read(void* out, int64_t size) = 0;
  /// The next `size` bytes, or fewer at the end of the stream. Memory-backed streams return a
  /// zero-copy slice. Never allocates much more than the bytes actually received, so a hostile
  /// length cannot make it reserve huge amounts of memory up front. A negative size throws
  /// `InvalidArgument`.
  virtual std::shared_ptr<Buffer> read_buffer(int64_t size) = 0;
  /// Number of bytes consumed so far.
  virtual int64_t position() const = 0;
};

/// Bytes with random access (a buffer, a file, a memory map).
class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;
  virtual int64_t size() const = 0;
  /// `length` bytes from `offset`; throws `IoError` when the range is not inside the source.
  /// Memory-backed sources (buffers, memory maps) return zero-copy buffers that keep the
  /// underlying memory alive.
  virtual std::shared_ptr<Buffer> read_at(int64_t offset, int64_t length) const = 0;
  /// True when `read_at` returns views of memory rather than copies.
  virtual bool zero_copy() const = 0;
};

/// Accumulates everything written in one growing buffer.
class BufferOutputStream final : public OutputStream {
 public:
  explicit BufferOutputStream(Allocator* allocator = default_allocator());
  using OutputStream::write;
  void write(const void* data, int64_t size) override;
  int64_t position() const override;
  /// The bytes written so far; the stream is empty afterwards.
  std::shared_ptr<Buffer> finish();

 private:
  BufferBuilder builder_;
};

/// Writes to a file descriptor (a file, pipe or socket), retrying on EINTR and partial writes,
/// through a write buffer of `buffer_size` bytes (0: unbuffered). Writes at least as large as
/// the buffer bypass it.
///
/// A pipe or socket whose reader has gone fails the write with `IoError` ("Broken pipe") and
/// never kills the process with SIGPIPE: sockets are written with `send(MSG_NOSIGNAL)`, pipes
/// with SIGPIPE blocked in the writing thread for the duration of the write (a SIGPIPE the write
/// raised is then consumed), so the process's signal dispositions are left alone.
///
/// After a failed write the buffered bytes are dropped (how many of them reached the
/// destination is unknown), so the destructor does not fail a second time on them.
class FdOutputStream : public OutputStream {
 public:
  static constexpr int64_t kDefaultBufferSize = int64_t{64} * 1024;

  /// `owns_fd`: close the descriptor in `close()` and in the destructor. `description` names
  /// the destination in error messages ("fd N" when empty). Throws `IoError` when `fd` is not
  /// an open descriptor (closing it first when owned).
  FdOutputStream(int fd, bool owns_fd, int64_t buffer_size = kDefaultBufferSize,
                 std::string description = {});
  /// Flushes and closes as `close()` does, but never throws: errors are lost.
  ~FdOutputStream() override;
  FdOutputStream(const FdOutputStream&) = delete;
  FdOutputStream& operator=(const FdOutputStream&) = delete;

  using OutputStream::write;
  void write(const void* data, int64_t size) override;
  void flush() override;
  /// Flushes, then closes the descriptor when owned; later writes throw `IoError`. Closing
  /// again does nothing.
  void close() override;
  int64_t position() const override { return position_; }
  /// The descriptor, or -1 once closed.
  int fd() const { return fd_; }

 private:
  enum class Kind { kFile, kPipe, kSocket };

  void write_fully(const uint8_t* data, int64_t size);
  void check_open() const;

  int fd_;
  bool owns_fd_;
  Kind kind_ = Kind::kFile;
  std::string description_;
  std::vector<uint8_t> pending_;
  int64_t buffer_size_;
  int64_t position_ = 0;
};

/// Creates (or truncates) `path` and writes to it, buffered.
class FileOutputStream final : public FdOutputStream {
 public:
  explicit FileOutputStream(const std::string& path,
                            int64_t buffer_size = FdOutputStream::kDefaultBufferSize);
};

/// Reads a buffer front to back; `read_buffer` returns zero-copy slices of it.
class BufferInputStream final : public InputStream {
 public:
  explicit BufferInputStream(std::shared_ptr<const Buffer> buffer);
  int64_t read(void* out, int64_t size) override;
  std::shared_ptr<Buffer> read_buffer(int64_t size) override;
  int64_t position() const override { return position_; }

 private:
  std::shared_ptr<const Buffer> buffer_;
  int64_t position_ = 0;
};

/// Reads a random-access source front to back (zero-copy when the source is).
class SourceInputStream final : public InputStream {
 public:
  explicit SourceInputStream(std::shared_ptr<const RandomAccessSource> source);
  int64_t read(void* out, int64_t size) override;
  std::shared_ptr<Buffer> read_buffer(int64_t size) override;
  int64_t position() const override { return position_; }

 private:
  std::shared_ptr<const RandomAccessSource> source_;
  int64_t position_ = 0;
};

/// Reads a file descriptor (a pipe, socket or file), retrying on EINTR. Buffers allocated by
/// `read_buffer` come from `allocator` and grow with the bytes actually received.
class FdInputStream final : public InputStream {
 public:
  FdInputStream(int fd, bool owns_fd, Allocator* allocator = default_allocator(),
                std::string description = {});
  ~FdInputStream() override;
  FdInputStream(const FdInputStream&) = delete;
  FdInputStream& operator=(const FdInputStream&) = delete;

  int64_t read(void* out, int64_t size) override;
  std::shared_ptr<Buffer> read_buffer(int64_t size) override;
  int64_t position() const override { return position_; }

 private:
  int fd_;
  bool owns_fd_;
  Allocator* allocator_;
  std::string description_;
  int64_t position_ = 0;
};

/// Random access over a buffer, zero-copy.
class BufferSource final : public RandomAccessSource {
 public:
  explicit BufferSource(std::shared_ptr<const Buffer> buffer);
  int64_t size() const override { return buffer_->size(); }
  std::shared_ptr<Buffer> read_at(int64_t offset, int64_t length) const override;
  bool zero_copy() const override { return true; }

 private:
  std::shared_ptr<const Buffer> buffer_;
};

/// A file mapped read-only into memory. `read_at` returns buffers pointing into the mapping;
/// the mapping stays alive as long as any of them (or the source) does. The file must not be
/// truncated while mapped: the system would then fault on access to the lost pages.
class MemoryMappedFile final : public RandomAccessSource {
  struct PrivateTag {
    explicit PrivateTag() = default;
  };

 public:
  /// Maps `path` (an empty file gives an empty source); throws `IoError` naming the path and
  /// the system error, or saying that the path is not a regular file.
  static std::shared_ptr<MemoryMappedFile> open(const std::string& path);
  MemoryMappedFile(PrivateTag, std::shared_ptr<Buffer> whole, std::string path)
      : whole_(std::move(whole)), path_(std::move(path)) {}

  int64_t size() const override { return whole_->size(); }
  std::shared_ptr<Buffer> read_at(int64_t offset, int64_t length) const override;
  bool zero_copy() const override { return true; }
  /// The whole mapping as one buffer.
  const std::shared_ptr<Buffer>& buffer() const { return whole_; }

 private:
  std::shared_ptr<Buffer> whole_;
  std::string path_;
};

/// A file read with `pread` into buffers from `allocator`. Safe to read from several threads at
/// once (`pread` does not move a shared file position).
class ReadableFile final : public RandomAccessSource {
  struct PrivateTag {
    explicit PrivateTag() = default;
  };

 public:
  /// Opens `path`; throws `IoError` naming the path and the system error, or saying that the
  /// path is not a regular file.
  static std::shared_ptr<ReadableFile> open(const std::string& path,
                                            Allocator* allocator = default_allocator());
  ReadableFile(PrivateTag, int fd, int64_t size, std::string path, Allocator* allocator);
  ~ReadableFile() override;
  ReadableFile(const ReadableFile&) = delete;
  ReadableFile& operator=(const ReadableFile&) = delete;

  int64_t size() const override { return size_; }
  /// Throws `IoError` also when the file has become shorter than `offset + length` since it was
  /// opened.
  std::shared_ptr<Buffer> read_at(int64_t offset, int64_t length) const override;
  bool zero_copy() const override { return false; }

 private:
  int fd_;
  int64_t size_;
  std::string path_;
  Allocator* allocator_;
};

}  // namespace bowstring
