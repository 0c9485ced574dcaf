#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "bowstring/memory/allocator.h"
#include "bowstring/memory/buffer.h"
#include "bowstring/util/unique_fd.h"

/// Frames of the worker protocol (docs/worker-protocol.md): a 16-byte header (type, zero,
/// payload length, little-endian) and a payload, optionally with one file descriptor passed as
/// `SCM_RIGHTS` on the header.
namespace bowstring::udf {

enum class FrameType : uint32_t {
  kReady = 1,
  kSpawn = 2,
  kSpawned = 3,
  kExited = 4,
  kHello = 10,
  kWelcome = 11,
  kCommand = 20,
  kBatch = 21,
  kShmBatch = 22,
  kEndOfData = 23,
  kComplete = 24,
  kError = 25,
};

/// "BATCH", "COMMAND"... as the protocol document names them; "frame type N" when unknown.
std::string frame_type_name(FrameType type);

/// A peer's text as an error message quotes it: whole when short, else its first 200 bytes
/// followed by "... (N bytes in all)", so that a huge malformed payload makes no huge message.
std::string excerpt(std::string_view text);

inline constexpr int64_t kFrameHeaderSize = 16;
inline constexpr int64_t kMaxFramePayload = int64_t{1} << 40;

struct Frame {
  FrameType type;
  /// 64-byte aligned, so IPC bodies in it decode without copying.
  std::shared_ptr<Buffer> payload;
  /// The descriptor that came with the frame (close-on-exec), or empty.
  UniqueFd fd;

  std::string_view text() const {
    return {reinterpret_cast<const char*>(payload->data()), static_cast<size_t>(payload->size())};
  }
};

/// One end of a connected `AF_UNIX` stream socket speaking frames. One thread may read while
/// another writes; two readers (or two writers) at once are not allowed.
class FrameSocket {
 public:
  /// `peer` names the other end in error messages ("worker 3", "fork server").
  FrameSocket(UniqueFd socket, std::string peer);

  /// Reads the next frame. Throws `IoError` "<peer> closed the connection" when the peer closed
  /// at a frame boundary, and `IoError` naming the frame otherwise (closed inside a frame,
  /// unknown type, nonzero reserved word, payload over `kMaxFramePayload`, more than one
  /// descriptor, a descriptor missing from a `SPAWN` or `SHM_BATCH` frame or sent with any
  /// other). Payload memory comes from `allocator`; `OutOfMemory` naming the peer and the frame
  /// when it cannot hold the payload.
  Frame read(Allocator* allocator = default_allocator());
  /// Writes one frame whose payload is the concatenation of `parts` (gathered, not copied),
  /// with `fd` attached when >= 0. Throws `IoError` when the peer is gone (never SIGPIPE).
  void write(FrameType type, std::span<const std::span<const uint8_t>> parts, int fd = -1);
  void write(FrameType type, std::string_view payload = {}, int fd = -1);
  /// Stops both directions: a thread blocked in `read` or `write` returns with `IoError`.
  void shutdown();

  int fd() const { return socket_.get(); }
  const std::string& peer() const { return peer_; }
  /// Renames the peer once it is known (after a handshake); only before the socket is shared.
  void set_peer(std::string peer) { peer_ = std::move(peer); }

 private:
  UniqueFd socket_;
  std::string peer_;
};

}  // namespace bowstring::udf
