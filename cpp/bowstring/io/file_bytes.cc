#include "bowstring/io/file_bytes.h"

#include <zlib.h>
#include <zstd.h>

#include <vector>

#include "bowstring/util/error.h"

namespace bowstring::io {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

[[noreturn]] void throw_corrupt(const std::string& path, const char* codec, size_t offset,
                                std::string_view why) {
  throw IoError("cannot decompress " + std::string(codec) + " file '" + path + "' at byte " +
                std::to_string(offset) + " of its compressed data: " + std::string(why));
}

std::string inflate_gzip(std::string_view data, const std::string& path) {
  std::string out;
  z_stream stream{};
  // 15 + 32: a zlib or gzip header, detected.
  if (inflateInit2(&stream, 15 + 32) != Z_OK) {
    throw OutOfMemory("cannot start a gzip decompression");
  }
  struct End {
    z_stream* stream;
    ~End() { inflateEnd(stream); }
  } end{&stream};
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::vector<char> chunk(1 << 18);
  while (true) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
    stream.avail_out = static_cast<uInt>(chunk.size());
    const int status = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - stream.avail_out);
    const size_t consumed = data.size() - stream.avail_in;
    if (status == Z_STREAM_END) {
      if (stream.avail_in == 0) {
        return out;
      }
      // Another gzip member follows (concatenated gzip files are one stream).
      inflateReset(&stream);
      continue;
    }
    if (status == Z_BUF_ERROR && stream.avail_in == 0) {
      throw_corrupt(path, "gzip", consumed, "the data is truncated");
    }
    if (status != Z_OK) {
      throw_corrupt(path, "gzip", consumed, stream.msg != nullptr ? stream.msg : "corrupt data");
    }
  }
}

std::string decompress_zstd(std::string_view data, const std::string& path) {
  std::string out;
  ZSTD_DCtx* context = ZSTD_createDCtx();
  if (context == nullptr) {
    throw OutOfMemory("cannot start a zstd decompression");
  }
  struct Free {
    ZSTD_DCtx* context;
    ~Free() { ZSTD_freeDCtx(context); }
  } free_context{context};
  ZSTD_inBuffer input{data.data(), data.size(), 0};
  std::vector<char> chunk(ZSTD_DStreamOutSize());
  size_t last = 0;
  while (input.pos < input.size) {
    ZSTD_outBuffer output{chunk.data(), chunk.size(), 0};
    last = ZSTD_decompressStream(context, &output, &input);
    if (ZSTD_isError(last)) {
      throw_corrupt(path, "zstd", input.pos, ZSTD_getErrorName(last));
    }
    out.append(chunk.data(), output.pos);
    if (output.pos == 0 && input.pos == input.size) {
      break;
    }
  }
  // Flush what the context still holds.
  while (last != 0) {
    ZSTD_outBuffer output{chunk.data(), chunk.size(), 0};
    last = ZSTD_decompressStream(context, &output, &input);
    if (ZSTD_isError(last)) {
      throw_corrupt(path, "zstd", input.pos, ZSTD_getErrorName(last));
    }
    out.append(chunk.data(), output.pos);
    if (output.pos == 0 && last != 0) {
      throw_corrupt(path, "zstd", input.pos, "the data is truncated");
    }
  }
  return out;
}

class GzipOutputStream final : public OutputStream {
 public:
  explicit GzipOutputStream(std::shared_ptr<OutputStream> sink) : sink_(std::move(sink)) {
    // 15 + 16: a gzip header and trailer.
    if (deflateInit2(&stream_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
      throw OutOfMemory("cannot start a gzip compression");
    }
  }
  ~GzipOutputStream() override { deflateEnd(&stream_); }

  void write(const void* data, int64_t size) override {
    stream_.next_in = static_cast<Bytef*>(const_cast<void*>(data));
    stream_.avail_in = static_cast<uInt>(size);
    pump(Z_NO_FLUSH);
    position_ += size;
  }
  void close() override {
    if (!closed_) {
      closed_ = true;
      pump(Z_FINISH);
      sink_->close();
    }
  }
  int64_t position() const override { return position_; }

 private:
  void pump(int flush) {
    while (true) {
      stream_.next_out = reinterpret_cast<Bytef*>(chunk_.data());
      stream_.avail_out = static_cast<uInt>(chunk_.size());
      const int status = deflate(&stream_, flush);
      if (status == Z_STREAM_ERROR) {
        throw IoError("gzip compression failed");
      }
      const size_t produced = chunk_.size() - stream_.avail_out;
      if (produced > 0) {
        sink_->write(chunk_.data(), static_cast<int64_t>(produced));
      }
      if (flush == Z_FINISH ? status == Z_STREAM_END
                            : (stream_.avail_in == 0 && stream_.avail_out != 0)) {
        return;
      }
    }
  }

  std::shared_ptr<OutputStream> sink_;
  z_stream stream_{};
  std::vector<char> chunk_ = std::vector<char>(1 << 16);
  int64_t position_ = 0;
  bool closed_ = false;
};

class ZstdOutputStream final : public OutputStream {
 public:
  explicit ZstdOutputStream(std::shared_ptr<OutputStream> sink)
      : sink_(std::move(sink)), context_(ZSTD_createCCtx()) {
    if (context_ == nullptr) {
      throw OutOfMemory("cannot start a zstd compression");
    }
  }
  ~ZstdOutputStream() override { ZSTD_freeCCtx(context_); }

  void write(const void* data, int64_t size) override {
    ZSTD_inBuffer input{data, static_cast<size_t>(size), 0};
    while (input.pos < input.size) {
      pump(input, ZSTD_e_continue);
    }
    position_ += size;
  }
  void close() override {
    if (!closed_) {
      closed_ = true;
      ZSTD_inBuffer input{nullptr, 0, 0};
      while (pump(input, ZSTD_e_end) != 0) {
      }
      sink_->close();
    }
  }
  int64_t position() const override { return position_; }

 private:
  size_t pump(ZSTD_inBuffer& input, ZSTD_EndDirective directive) {
    ZSTD_outBuffer output{chunk_.data(), chunk_.size(), 0};
    const size_t remaining = ZSTD_compressStream2(context_, &output, &input, directive);
    if (ZSTD_isError(remaining)) {
      throw IoError(std::string("zstd compression failed: ") + ZSTD_getErrorName(remaining));
    }
    if (output.pos > 0) {
      sink_->write(chunk_.data(), static_cast<int64_t>(output.pos));
    }
    return remaining;
  }

  std::shared_ptr<OutputStream> sink_;
  ZSTD_CCtx* context_;
  std::vector<char> chunk_ = std::vector<char>(ZSTD_CStreamOutSize());
  int64_t position_ = 0;
  bool closed_ = false;
};

}  // namespace

std::string decompress(std::string_view data, bool zstd, const std::string& path) {
  return zstd ? decompress_zstd(data, path) : inflate_gzip(data, path);
}

FileBytes read_file_bytes(const std::string& path) {
  std::shared_ptr<MemoryMappedFile> file = MemoryMappedFile::open(path);
  const std::shared_ptr<Buffer>& whole = file->buffer();
  const std::string_view mapped(reinterpret_cast<const char*>(whole->data()),
                                static_cast<size_t>(whole->size()));
  const bool gzip = ends_with(path, ".gz");
  if (gzip || ends_with(path, ".zst")) {
    auto text = std::make_shared<const std::string>(decompress(mapped, !gzip, path));
    const std::string_view bytes(*text);
    return FileBytes{path, bytes, std::move(text)};
  }
  return FileBytes{path, mapped, std::move(file)};
}

std::unique_ptr<OutputStream> compressing_stream(std::shared_ptr<OutputStream> sink, bool zstd) {
  if (zstd) {
    return std::make_unique<ZstdOutputStream>(std::move(sink));
  }
  return std::make_unique<GzipOutputStream>(std::move(sink));
}

}  // namespace bowstring::io
