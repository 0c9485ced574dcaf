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

/// Writes one message; `body` is written as the encoder laid it out (see body.h). Returns where
/// the message went, relative to `sink.position()` before the call.
FileBlock write_message(OutputStream& sink, const Buffer& metadata, const EncodedBody& body);
/// The end-of-stream marker.
void write_end_of_stream(OutputStream& sink);

/// Reads framed messages one after the other.
class MessageReader {
 public:
  explicit MessageReader(std::shared_ptr<InputStream> source);
  /// The next message, or nullopt at the end-of-stream marker or at the clean end of the input.
  /// Throws `FormatError` naming the message number for truncated or malformed messages.
  std::optional<Message> next();
  /// Number of messages returned so far.
  int64_t messages_read() const { return messages_read_; }

 private:
  std::shared_ptr<InputStream> source_;
  int64_t messages_read_ = 0;
  bool finished_ = false;
};

/// The message at `block` of an IPC file; checks that the block lies inside the source and
/// agrees with the message's own framing. `what` names the message in errors ("record batch 3").
Message read_message_at(const RandomAccessSource& source, const FileBlock& block,
                        const std::string& what);

}  // namespace bowstring::ipc
