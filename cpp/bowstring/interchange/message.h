#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bowstring/interchange/body.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc_format.h"
#include "bowstring/memory/buffer.h"

/// Message framing: the continuation marker 0xFFFFFFFF, the metadata length (int32, little
/// endian, counting the padding that makes the body start 8-byte aligned), the metadata
/// flatbuffer, padding, then the body. The end of a stream is the marker followed by a zero
/// length. Readers also accept the pre-0.15 framing without the marker.
namespace bowstring::ipc {

/// Writes one message; `body` is written as the encoder laid it out (see body.h): each buffer
/// at its header offset, zeros in the gaps and up to `body.body_length`. Returns where the
/// message went: `offset` is the sink's own position (`sink.position()`) where the message
/// starts, not a position relative to anything the caller wrote before (a file writer that did
/// not start at position 0 rebases it); `metadata_length` counts the framing, the metadata and
/// its padding. Throws `InvalidArgument` when the body's buffers do not fit its header (count,
/// overlap, short buffer, body length).
FileBlock write_message(OutputStream& sink, const Buffer& metadata, const EncodedBody& body);
/// The end-of-stream marker.
void write_end_of_stream(OutputStream& sink);

/// Reads framed messages one after the other.
class MessageReader {
 public:
  explicit MessageReader(std::shared_ptr<InputStream> source);
  /// The next message, or nullopt at the end-of-stream marker or at the clean end of the input.
  /// Throws `FormatError` for truncated or malformed messages, starting "message N: " (numbered
  /// from 0) and giving the expected and available bytes when input runs short. Bodies come
  /// from `InputStream::read_buffer`, so they are zero-copy slices of memory sources. After a
  /// `FormatError` the place in the stream is lost: every later call throws the same error.
  std::optional<Message> next();
  /// Number of messages returned so far.
  int64_t messages_read() const { return messages_read_; }

 private:
  std::shared_ptr<InputStream> source_;
  int64_t messages_read_ = 0;
  std::optional<Message> read_next();

  bool finished_ = false;
  std::optional<std::string> failure_;
};

/// The message at `block` of an IPC file; checks that the block lies inside the source, that
/// its metadata length is the framing's (either framing) and its body length the message's.
/// `what` starts the `FormatError` messages ("record batch 3: ...").
Message read_message_at(const RandomAccessSource& source, const FileBlock& block,
                        const std::string& what);

}  // namespace bowstring::ipc
