#include "bowstring/udf/frame.h"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <system_error>
#include <utility>
#include <vector>

#include "bowstring/util/error.h"

namespace bowstring::udf {

namespace {

// One system call moves at most this much (Linux caps a single transfer just below 2 GiB).
constexpr int64_t kMaxIoChunk = int64_t{1} << 30;
// Room for a few descriptors, so that a peer sending more than one is seen doing so rather than
// having the extras silently dropped by the kernel.
constexpr int kMaxReceivedFds = 4;

std::string system_message(int error) { return std::generic_category().message(error); }

bool is_known_type(uint32_t type) {
  switch (static_cast<FrameType>(type)) {
    case FrameType::kReady:
    case FrameType::kSpawn:
    case FrameType::kSpawned:
    case FrameType::kExited:
    case FrameType::kHello:
    case FrameType::kWelcome:
    case FrameType::kCommand:
    case FrameType::kBatch:
    case FrameType::kShmBatch:
    case FrameType::kEndOfData:
    case FrameType::kComplete:
    case FrameType::kError:
      return true;
  }
  return false;
}

// "a BATCH frame", "an ERROR frame".
std::string a_frame(const std::string& name) {
  const bool vowel = name.find_first_of("AEIOU") == 0;
  return (vowel ? "an " : "a ") + name + " frame";
}

bool carries_fd(FrameType type) {
  return type == FrameType::kSpawn || type == FrameType::kShmBatch;
}

void store_le32(uint8_t* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out[i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

void store_le64(uint8_t* out, uint64_t value) {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

uint32_t load_le32(const uint8_t* in) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= uint32_t{in[i]} << (8 * i);
  }
  return value;
}

uint64_t load_le64(const uint8_t* in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value |= uint64_t{in[i]} << (8 * i);
  }
  return value;
}

// Receives up to `size` bytes with recvmsg, collecting any descriptors that come along (close-
// on-exec) into `fds`. Retries on EINTR; returns 0 only when the peer closed the connection.
int64_t receive_some(int socket, uint8_t* out, int64_t size, std::vector<UniqueFd>& fds,
                     bool& truncated, const std::string& what) {
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int) * kMaxReceivedFds)> control{};
  while (true) {
    iovec iov{out, static_cast<size_t>(std::min(size, kMaxIoChunk))};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    const ssize_t received = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      // A peer that closes with data unread by it resets the connection: it is gone all the same.
      if (error == ECONNRESET) {
        return 0;
      }
      throw IoError("cannot read " + what + ": " + system_message(error));
    }
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
         header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) {
        continue;
      }
      const size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < count; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
        fds.emplace_back(fd);
      }
    }
    if ((message.msg_flags & MSG_CTRUNC) != 0) {
      truncated = true;
    }
    return received;
  }
}

}  // namespace

std::string frame_type_name(FrameType type) {
  switch (type) {
    case FrameType::kReady:
      return "READY";
    case FrameType::kSpawn:
      return "SPAWN";
    case FrameType::kSpawned:
      return "SPAWNED";
    case FrameType::kExited:
      return "EXITED";
    case FrameType::kHello:
      return "HELLO";
    case FrameType::kWelcome:
      return "WELCOME";
    case FrameType::kCommand:
      return "COMMAND";
    case FrameType::kBatch:
      return "BATCH";
    case FrameType::kShmBatch:
      return "SHM_BATCH";
    case FrameType::kEndOfData:
      return "END_OF_DATA";
    case FrameType::kComplete:
      return "COMPLETE";
    case FrameType::kError:
      return "ERROR";
  }
  return "frame type " + std::to_string(static_cast<uint32_t>(type));
}

std::string excerpt(std::string_view text) {
  constexpr size_t kQuoted = 200;
  if (text.size() <= kQuoted) {
    return std::string(text);
  }
  return std::string(text.substr(0, kQuoted)) + "... (" + std::to_string(text.size()) +
         " bytes in all)";
}

FrameSocket::FrameSocket(UniqueFd socket, std::string peer)
    : socket_(std::move(socket)), peer_(std::move(peer)) {}

Frame FrameSocket::read(Allocator* allocator) {
  std::array<uint8_t, kFrameHeaderSize> header{};
  std::vector<UniqueFd> fds;
  bool truncated = false;
  int64_t got = 0;
  while (got < kFrameHeaderSize) {
    const int64_t received =
        receive_some(socket_.get(), header.data() + got, kFrameHeaderSize - got, fds, truncated,
                     "a frame header from " + peer_);
    if (received == 0) {
      if (got == 0) {
        throw IoError(peer_ + " closed the connection");
      }
      throw IoError(peer_ + " closed the connection inside a frame header (after " +
                    std::to_string(got) + " of " + std::to_string(kFrameHeaderSize) + " bytes)");
    }
    got += received;
  }

  const uint32_t raw_type = load_le32(header.data());
  const uint32_t reserved = load_le32(header.data() + 4);
  const uint64_t length = load_le64(header.data() + 8);
  if (!is_known_type(raw_type)) {
    throw IoError(peer_ + " sent a frame of unknown type " + std::to_string(raw_type) +
                  " (payload length " + std::to_string(length) + ")");
  }
  const auto type = static_cast<FrameType>(raw_type);
  const std::string name = frame_type_name(type);
  if (reserved != 0) {
    throw IoError(peer_ + " sent " + a_frame(name) + " whose reserved word is " +
                  std::to_string(reserved) + " instead of 0");
  }
  if (length > static_cast<uint64_t>(kMaxFramePayload)) {
    throw IoError(peer_ + " sent " + a_frame(name) + " of " + std::to_string(length) +
                  " bytes, over the limit of " + std::to_string(kMaxFramePayload));
  }

  const auto size = static_cast<int64_t>(length);
  uint8_t* data = nullptr;
  try {
    data = allocator->allocate(padded_size(size));
  } catch (const OutOfMemory& error) {
    throw OutOfMemory(peer_ + " sent " + a_frame(name) + " of " + std::to_string(size) +
                      " bytes, more than can be held: " + error.what());
  }
  auto payload = Buffer::adopt(allocator, data, size, padded_size(size));
  std::memset(data + size, 0, static_cast<size_t>(padded_size(size) - size));
  int64_t read = 0;
  while (read < size) {
    const int64_t received = receive_some(socket_.get(), data + read, size - read, fds, truncated,
                                          "the payload of " + a_frame(name) + " from " + peer_);
    if (received == 0) {
      throw IoError(peer_ + " closed the connection inside " + a_frame(name) + " (after " +
                    std::to_string(read) + " of " + std::to_string(size) + " payload bytes)");
    }
    read += received;
  }

  if (fds.size() > 1 || truncated) {
    throw IoError(
        peer_ + " sent " + a_frame(name) + " with " +
        (truncated ? "more than " + std::to_string(kMaxReceivedFds) : std::to_string(fds.size())) +
        " descriptors; a frame carries at most one");
  }
  if (carries_fd(type) && fds.empty()) {
    throw IoError(peer_ + " sent " + a_frame(name) + " without its file descriptor");
  }
  if (!carries_fd(type) && !fds.empty()) {
    throw IoError(peer_ + " sent " + a_frame(name) + " with a file descriptor, which " + name +
                  " frames do not carry");
  }
  Frame frame{type, std::move(payload), {}};
  if (!fds.empty()) {
    frame.fd = std::move(fds.front());
  }
  return frame;
}

void FrameSocket::write(FrameType type, std::span<const std::span<const uint8_t>> parts, int fd) {
  uint64_t length = 0;
  for (const auto& part : parts) {
    length += part.size();
  }
  const std::string name = frame_type_name(type);
  if (length > static_cast<uint64_t>(kMaxFramePayload)) {
    throw InvalidArgument("cannot send " + a_frame(name) + " of " + std::to_string(length) +
                          " bytes to " + peer_ + ": the limit is " +
                          std::to_string(kMaxFramePayload));
  }
  std::array<uint8_t, kFrameHeaderSize> header{};
  store_le32(header.data(), static_cast<uint32_t>(type));
  store_le64(header.data() + 8, length);

  std::vector<iovec> iovs;
  iovs.reserve(parts.size() + 1);
  iovs.push_back({header.data(), header.size()});
  for (const auto& part : parts) {
    if (!part.empty()) {
      iovs.push_back({const_cast<uint8_t*>(part.data()), part.size()});
    }
  }

  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
  bool fd_pending = fd >= 0;
  size_t first = 0;  // The first iovec with bytes left to send.
  while (first < iovs.size()) {
    msghdr message{};
    message.msg_iov = iovs.data() + first;
    message.msg_iovlen = std::min<size_t>(iovs.size() - first, IOV_MAX);
    if (fd_pending) {
      // The descriptor rides on the call that sends the header's first bytes.
      message.msg_control = control.data();
      message.msg_controllen = control.size();
      cmsghdr* cmsg = CMSG_FIRSTHDR(&message);
      cmsg->cmsg_level = SOL_SOCKET;
      cmsg->cmsg_type = SCM_RIGHTS;
      cmsg->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
    }
    const ssize_t sent = ::sendmsg(socket_.get(), &message, MSG_NOSIGNAL);
    if (sent < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      throw IoError("cannot send " + a_frame(name) + " of " + std::to_string(length) +
                    " bytes to " + peer_ + ": " + system_message(error));
    }
    fd_pending = false;
    auto remaining = static_cast<size_t>(sent);
    while (first < iovs.size() && remaining >= iovs[first].iov_len) {
      remaining -= iovs[first].iov_len;
      ++first;
    }
    if (remaining > 0) {
      iovs[first].iov_base = static_cast<uint8_t*>(iovs[first].iov_base) + remaining;
      iovs[first].iov_len -= remaining;
    }
  }
}

void FrameSocket::write(FrameType type, std::string_view payload, int fd) {
  const std::span<const uint8_t> part(reinterpret_cast<const uint8_t*>(payload.data()),
                                      payload.size());
  write(type, std::span<const std::span<const uint8_t>>(&part, 1), fd);
}

void FrameSocket::shutdown() { ::shutdown(socket_.get(), SHUT_RDWR); }

}  // namespace bowstring::udf
