#include "bowstring/interchange/message.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "bowstring/interchange/metadata.h"
#include "bowstring/util/error.h"

namespace bowstring::ipc {

namespace {

constexpr uint32_t kContinuation = 0xFFFFFFFF;
constexpr int64_t kMessageAlignment = 8;
constexpr uint8_t kZeros[kMessageAlignment] = {};

int64_t padding_to_alignment(int64_t size) {
  return (kMessageAlignment - size % kMessageAlignment) % kMessageAlignment;
}

void write_int32(OutputStream& sink, uint32_t value) {
  uint8_t bytes[4];
  std::memcpy(bytes, &value, sizeof(bytes));
  sink.write(bytes, sizeof(bytes));
}

void write_zeros(OutputStream& sink, int64_t count) {
  while (count > 0) {
    const int64_t chunk = std::min<int64_t>(count, kMessageAlignment);
    sink.write(kZeros, chunk);
    count -= chunk;
  }
}

/// Reads until `size` bytes or the end of the stream; returns how many were read.
int64_t read_fully(InputStream& source, void* out, int64_t size) {
  int64_t total = 0;
  while (total < size) {
    const int64_t got = source.read(static_cast<uint8_t*>(out) + total, size - total);
    if (got <= 0) {
      break;
    }
    total += got;
  }
  return total;
}

int32_t load_int32(const uint8_t* data) {
  int32_t value;
  std::memcpy(&value, data, sizeof(value));
  return value;
}

std::string bytes(int64_t count) {
  return std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

}  // namespace

FileBlock write_message(OutputStream& sink, const Buffer& metadata, const EncodedBody& body) {
  if (body.buffers.size() != body.header.buffers.size()) {
    throw InvalidArgument("message body has " + std::to_string(body.buffers.size()) +
                          " buffers but its header places " +
                          std::to_string(body.header.buffers.size()));
  }
  // The length in the framing counts the padding that makes the body start 8-byte aligned.
  const int64_t framed = 8 + metadata.size();
  const int64_t padded_length = metadata.size() + padding_to_alignment(framed);
  if (padded_length > std::numeric_limits<int32_t>::max()) {
    throw InvalidArgument("message metadata of " + bytes(metadata.size()) +
                          " does not fit the 32-bit length of the IPC framing");
  }
  const int64_t start = sink.position();
  write_int32(sink, kContinuation);
  write_int32(sink, static_cast<uint32_t>(padded_length));
  sink.write(metadata.data(), metadata.size());
  write_zeros(sink, padded_length - metadata.size());

  int64_t written = 0;
  for (size_t i = 0; i < body.buffers.size(); ++i) {
    const BufferRange& range = body.header.buffers[i];
    const std::shared_ptr<const Buffer>& buffer = body.buffers[i];
    const int64_t available = buffer == nullptr ? 0 : buffer->size();
    if (range.offset < written || range.length < 0 || available < range.length) {
      throw InvalidArgument("message body buffer " + std::to_string(i) + " (offset " +
                            std::to_string(range.offset) + ", length " +
                            std::to_string(range.length) + ", " + bytes(available) +
                            " given) overlaps the previous buffer or is shorter than its range");
    }
    write_zeros(sink, range.offset - written);
    if (range.length > 0) {
      sink.write(available == range.length ? buffer : Buffer::slice(buffer, 0, range.length));
    }
    written = range.offset + range.length;
  }
  if (body.body_length < written) {
    throw InvalidArgument("message body length " + std::to_string(body.body_length) +
                          " is smaller than its buffers, which end at " + std::to_string(written));
  }
  write_zeros(sink, body.body_length - written);
  return {start, static_cast<int32_t>(8 + padded_length), body.body_length};
}

void write_end_of_stream(OutputStream& sink) {
  write_int32(sink, kContinuation);
  write_int32(sink, 0);
}

MessageReader::MessageReader(std::shared_ptr<InputStream> source) : source_(std::move(source)) {}

std::optional<Message> MessageReader::next() {
  if (failure_.has_value()) {
    throw FormatError(*failure_);
  }
  try {
    return read_next();
  } catch (const FormatError& error) {
    failure_ = error.what();
    throw;
  }
}

std::optional<Message> MessageReader::read_next() {
  if (finished_) {
    return std::nullopt;
  }
  const std::string what = "message " + std::to_string(messages_read_);
  uint8_t prefix[4];
  const int64_t got = read_fully(*source_, prefix, 4);
  if (got == 0) {
    finished_ = true;
    return std::nullopt;
  }
  if (got < 4) {
    throw FormatError(what + ": truncated framing: expected 4 bytes, got " + std::to_string(got));
  }
  int32_t length = load_int32(prefix);
  if (static_cast<uint32_t>(length) == kContinuation) {
    const int64_t got_length = read_fully(*source_, prefix, 4);
    if (got_length < 4) {
      throw FormatError(what +
                        ": truncated framing: expected a 4-byte metadata length after the "
                        "continuation marker, got " +
                        bytes(got_length));
    }
    length = load_int32(prefix);
  }
  // Without the marker (pre-0.15 framing) the first four bytes are the length itself.
  if (length == 0) {
    finished_ = true;
    return std::nullopt;
  }
  if (length < 0) {
    throw FormatError(what + ": metadata length " + std::to_string(length) + " is negative");
  }
  const std::shared_ptr<Buffer> metadata = source_->read_buffer(length);
  if (metadata->size() < length) {
    throw FormatError(what + ": truncated metadata: expected " + bytes(length) + ", got " +
                      bytes(metadata->size()));
  }
  Message message;
  try {
    message.header = decode_message(metadata->data(), length);
  } catch (const FormatError& error) {
    throw FormatError(what + ": " + error.what());
  }
  const int64_t body_length = message.header.body_length;
  message.body = source_->read_buffer(body_length);
  if (message.body->size() < body_length) {
    throw FormatError(what + ": truncated body: expected " + bytes(body_length) + ", got " +
                      bytes(message.body->size()));
  }
  ++messages_read_;
  return message;
}

Message read_message_at(const RandomAccessSource& source, const FileBlock& block,
                        const std::string& what) {
  const int64_t size = source.size();
  // Checked one term at a time so that hostile values cannot overflow.
  if (block.offset < 0 || block.metadata_length < 4 || block.body_length < 0 ||
      block.offset > size || block.metadata_length > size - block.offset ||
      block.body_length > size - block.offset - block.metadata_length) {
    throw FormatError(what + ": block at offset " + std::to_string(block.offset) +
                      " with metadata length " + std::to_string(block.metadata_length) +
                      " and body length " + std::to_string(block.body_length) +
                      " is not inside the file of " + bytes(size));
  }
  const std::shared_ptr<Buffer> framed = source.read_at(block.offset, block.metadata_length);
  int64_t prefix_size = 4;
  int32_t length = load_int32(framed->data());
  if (static_cast<uint32_t>(length) == kContinuation) {
    if (block.metadata_length < 8) {
      throw FormatError(what + ": metadata length " + std::to_string(block.metadata_length) +
                        " is too short for the framing");
    }
    prefix_size = 8;
    length = load_int32(framed->data() + 4);
  }
  if (length <= 0 || prefix_size + length != block.metadata_length) {
    throw FormatError(what + ": the message framing gives a metadata length of " +
                      std::to_string(length) + " (plus " + std::to_string(prefix_size) +
                      " bytes of framing) but the footer gives " +
                      std::to_string(block.metadata_length));
  }
  Message message;
  try {
    message.header = decode_message(framed->data() + prefix_size, length);
  } catch (const FormatError& error) {
    throw FormatError(what + ": " + error.what());
  }
  if (message.header.body_length != block.body_length) {
    throw FormatError(what + ": the message has a body of " + bytes(message.header.body_length) +
                      " but the footer gives " + bytes(block.body_length));
  }
  message.body = source.read_at(block.offset + block.metadata_length, block.body_length);
  return message;
}

}  // namespace bowstring::ipc
