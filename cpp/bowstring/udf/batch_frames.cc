#include "bowstring/udf/batch_frames.h"

#include <cstring>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "bowstring/interchange/io.h"
#include "bowstring/udf/shared_memory.h"
#include "bowstring/util/error.h"

namespace bowstring::udf {

namespace {

// Buffers smaller than this are copied next to the metadata: one more entry in the gathered
// write costs more than copying a few kilobytes.
constexpr int64_t kSmallBuffer = 4096;

// What a stream writer ends every stream with: the continuation marker and a zero length.
constexpr uint8_t kEndOfStream[] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
constexpr int64_t kEndOfStreamSize = sizeof(kEndOfStream);

std::string byte_count(int64_t size) { return std::to_string(size) + " bytes"; }

}  // namespace

/// Receives what the IPC writer emits: small writes are appended to the staging area, buffers
/// are kept by reference.
class EncodedBatch::Sink final : public OutputStream {
 public:
  explicit Sink(EncodedBatch& batch) : batch_(batch) {}

  using OutputStream::write;
  void write(const void* data, int64_t size) override {
    if (size <= 0) {
      return;
    }
    std::vector<uint8_t>& staging = batch_.staging_;
    const auto start = static_cast<int64_t>(staging.size());
    const auto* first = static_cast<const uint8_t*>(data);
    staging.insert(staging.end(), first, first + size);
    if (!batch_.parts_.empty() && batch_.parts_.back().buffer < 0) {
      batch_.parts_.back().length += size;
    } else {
      batch_.parts_.push_back({-1, start, size});
    }
    batch_.size_ += size;
  }

  void write(const std::shared_ptr<const Buffer>& buffer) override {
    if (buffer->size() < kSmallBuffer) {
      write(buffer->data(), buffer->size());
      return;
    }
    const auto index = static_cast<int64_t>(batch_.buffers_.size());
    batch_.buffers_.push_back(buffer);
    batch_.parts_.push_back({index, 0, buffer->size()});
    batch_.size_ += buffer->size();
  }

  int64_t position() const override { return batch_.size_; }

 private:
  EncodedBatch& batch_;
};

EncodedBatch EncodedBatch::encode(const RecordBatch& batch) {
  EncodedBatch encoded;
  ipc::StreamWriter writer(std::make_shared<Sink>(encoded), batch.schema());
  writer.write(batch);
  writer.close();
  return encoded;
}

std::vector<std::span<const uint8_t>> EncodedBatch::parts() const {
  std::vector<std::span<const uint8_t>> spans;
  spans.reserve(parts_.size());
  for (const Part& part : parts_) {
    const uint8_t* base =
        part.buffer < 0 ? staging_.data() : buffers_[static_cast<size_t>(part.buffer)]->data();
    spans.emplace_back(base + part.offset, static_cast<size_t>(part.length));
  }
  return spans;
}

void EncodedBatch::copy_to(uint8_t* destination) const {
  for (const std::span<const uint8_t> part : parts()) {
    std::memcpy(destination, part.data(), part.size());
    destination += part.size();
  }
}

std::shared_ptr<Buffer> EncodedBatch::to_buffer(Allocator* allocator) const {
  MutableBuffer buffer(size_, allocator);
  copy_to(buffer.mutable_data());
  return buffer.finish();
}

UniqueFd EncodedBatch::to_shared_memory() const {
  UniqueFd fd = create_shared_memory("bowstring-batch", size_);
  write_shared_memory(fd.get(), parts());
  seal_shared_memory(fd.get());
  return fd;
}

void write_batch_frame(FrameSocket& socket, const RecordBatch& batch) {
  const EncodedBatch encoded = EncodedBatch::encode(batch);
  const std::vector<std::span<const uint8_t>> parts = encoded.parts();
  socket.write(FrameType::kBatch, parts);
}

void write_shm_batch_frame(FrameSocket& socket, const RecordBatch& batch) {
  const EncodedBatch encoded = EncodedBatch::encode(batch);
  const UniqueFd memory = encoded.to_shared_memory();
  const std::string payload = nlohmann::json{{"length", encoded.size()}}.dump();
  socket.write(FrameType::kShmBatch, payload, memory.get());
}

namespace {

// The length an SHM_BATCH frame's JSON payload announces.
int64_t shm_batch_length(const Frame& frame) {
  nlohmann::json payload;
  try {
    payload = nlohmann::json::parse(frame.text());
  } catch (const nlohmann::json::exception& error) {
    throw FormatError("SHM_BATCH payload is not JSON: " + excerpt(error.what()));
  }
  if (!payload.is_object() || !payload.contains("length") ||
      !payload["length"].is_number_integer()) {
    throw FormatError("SHM_BATCH payload has no integer \"length\": " + excerpt(frame.text()));
  }
  const auto length = payload["length"].get<int64_t>();
  if (length < 0) {
    throw FormatError("SHM_BATCH payload claims a negative length: " + std::to_string(length));
  }
  return length;
}

RecordBatch read_one_batch(const std::shared_ptr<const Buffer>& stream, const char* frame_name,
                           const ipc::ReadOptions& options) {
  const int64_t size = stream->size();
  auto input = std::make_shared<BufferInputStream>(stream);
  const std::unique_ptr<ipc::StreamReader> reader = ipc::StreamReader::open(input, options);
  std::optional<RecordBatch> batch = reader->next();
  if (!batch) {
    throw FormatError(std::string(frame_name) + " stream holds no record batch");
  }
  if (reader->next()) {
    throw FormatError(std::string(frame_name) + " stream holds more than one record batch");
  }
  if (input->position() != size) {
    throw FormatError(std::string(frame_name) + " stream ends after " +
                      byte_count(input->position()) + " but the frame holds " + byte_count(size));
  }
  if (size < kEndOfStreamSize ||
      std::memcmp(stream->data() + size - kEndOfStreamSize, kEndOfStream, kEndOfStreamSize) != 0) {
    throw FormatError(std::string(frame_name) + " stream lacks its end-of-stream marker");
  }
  return std::move(*batch);
}

}  // namespace

RecordBatch read_batch_frame(const Frame& frame, const ipc::ReadOptions& options) {
  switch (frame.type) {
    case FrameType::kBatch:
      if (frame.fd) {
        throw FormatError("BATCH frame carries a file descriptor");
      }
      return read_one_batch(frame.payload, "BATCH", options);
    case FrameType::kShmBatch: {
      if (!frame.fd) {
        throw FormatError("SHM_BATCH frame carries no file descriptor");
      }
      const int64_t length = shm_batch_length(frame);
      return read_one_batch(map_shared_memory(frame.fd.get(), length, "SHM_BATCH frame"),
                            "SHM_BATCH", options);
    }
    default:
      throw FormatError("expected a BATCH or SHM_BATCH frame, got " + frame_type_name(frame.type));
  }
}

}  // namespace bowstring::udf
