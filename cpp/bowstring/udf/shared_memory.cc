#include "bowstring/udf/shared_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <system_error>
#include <vector>

#include "bowstring/util/error.h"

namespace bowstring::udf {

namespace {

[[noreturn]] void throw_io_error(const std::string& what, int error) {
  throw IoError(what + ": " + std::generic_category().message(error));
}

std::string byte_count(int64_t size) { return std::to_string(size) + " bytes"; }

}  // namespace

UniqueFd create_shared_memory(const std::string& name, int64_t size) {
  if (size < 0) {
    throw InvalidArgument("a memory file of " + byte_count(size) + " cannot be created");
  }
  UniqueFd fd(::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd) {
    const int error = errno;
    throw_io_error("cannot create the memory file " + name, error);
  }
  if (::ftruncate(fd.get(), size) != 0) {
    const int error = errno;
    throw_io_error("cannot size the memory file " + name + " to " + byte_count(size), error);
  }
  return fd;
}

void write_shared_memory(int fd, std::span<const std::span<const uint8_t>> parts) {
  std::vector<iovec> pending;
  pending.reserve(parts.size());
  for (const std::span<const uint8_t> part : parts) {
    if (!part.empty()) {
      pending.push_back({const_cast<uint8_t*>(part.data()), part.size()});
    }
  }
  off_t offset = 0;
  size_t first = 0;  // The first iovec with bytes left to write.
  while (first < pending.size()) {
    const int count = static_cast<int>(std::min<size_t>(pending.size() - first, IOV_MAX));
    ssize_t written = ::pwritev(fd, pending.data() + first, count, offset);
    if (written < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      throw_io_error("cannot write into memory file fd " + std::to_string(fd) + " at offset " +
                         std::to_string(offset),
                     error);
    }
    offset += written;
    while (first < pending.size() && static_cast<size_t>(written) >= pending[first].iov_len) {
      written -= static_cast<ssize_t>(pending[first].iov_len);
      ++first;
    }
    if (first < pending.size()) {
      pending[first].iov_base = static_cast<uint8_t*>(pending[first].iov_base) + written;
      pending[first].iov_len -= static_cast<size_t>(written);
    }
  }
}

void seal_shared_memory(int fd) {
  if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    const int error = errno;
    throw_io_error("cannot seal memory file fd " + std::to_string(fd), error);
  }
}

std::shared_ptr<Buffer> map_shared_memory(int fd, int64_t length, const std::string& what) {
  if (length < 0) {
    throw IoError(what + " claims a negative length of " + byte_count(length));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    throw_io_error("cannot inspect the memory file of " + what, error);
  }
  if (!S_ISREG(status.st_mode)) {
    throw IoError("the descriptor of " + what + " is not a memory file");
  }
  // Unsealed, the sender could shrink the file under the mapping (SIGBUS on access) or change
  // data that was already validated.
  const int seals = ::fcntl(fd, F_GET_SEALS);
  constexpr int kRequiredSeals = F_SEAL_SHRINK | F_SEAL_WRITE;
  if (seals < 0 || (seals & kRequiredSeals) != kRequiredSeals) {
    throw IoError("the memory file of " + what + " is not sealed against shrinking and writing");
  }
  if (status.st_size < length) {
    throw IoError(what + " claims " + byte_count(length) + " but its memory file holds " +
                  byte_count(status.st_size));
  }
  if (length == 0) {
    alignas(kAlignment) static const uint8_t kEmpty[kAlignment] = {};
    return Buffer::wrap(kEmpty, 0, nullptr);
  }
  void* address = ::mmap(nullptr, static_cast<size_t>(length), PROT_READ, MAP_SHARED, fd, 0);
  if (address == MAP_FAILED) {
    const int error = errno;
    throw_io_error("cannot map " + byte_count(length) + " of the memory file of " + what, error);
  }
  // The owner unmaps when the last buffer pointing into the mapping goes (or at once, should
  // making the owner fail).
  std::shared_ptr<const void> mapping(address, [length](const void* start) {
    ::munmap(const_cast<void*>(start), static_cast<size_t>(length));
  });
  return Buffer::wrap(address, length, std::move(mapping));
}

}  // namespace bowstring::udf
