#include "bowstring/interchange/io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include "bowstring/util/error.h"

namespace bowstring {

namespace {

// One system call moves at most this much (Linux caps a single read or write just below 2 GiB).
constexpr int64_t kMaxIoChunk = int64_t{1} << 30;
// First allocation of `FdInputStream::read_buffer`; it doubles from there as bytes arrive.
constexpr int64_t kReadChunk = int64_t{64} * 1024;

std::string system_message(int error) { return std::generic_category().message(error); }

[[noreturn]] void throw_io_error(const std::string& what, int error) {
  throw IoError(what + ": " + system_message(error));
}

void check_size(int64_t size, const char* operation) {
  if (size < 0) {
    throw InvalidArgument(std::string(operation) +
                          " of a negative number of bytes: " + std::to_string(size));
  }
}

std::string fd_description(int fd, std::string description) {
  return description.empty() ? "fd " + std::to_string(fd) : std::move(description);
}

// Overflow-safe: neither `offset + length` nor any other sum is formed.
void check_range(int64_t offset, int64_t length, int64_t size, const std::string& source) {
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    throw IoError("cannot read " + std::to_string(length) + " bytes at offset " +
                  std::to_string(offset) + " of " + source + ": it holds " + std::to_string(size) +
                  " bytes");
  }
}

// Writes everything, retrying on EINTR and partial writes. `use_send`: the descriptor is a
// socket, written with MSG_NOSIGNAL so that a gone peer gives EPIPE rather than SIGPIPE.
void write_all(int fd, bool use_send, const uint8_t* data, int64_t size,
               const std::string& description) {
  while (size > 0) {
    const auto chunk = static_cast<size_t>(std::min(size, kMaxIoChunk));
    const ssize_t written =
        use_send ? ::send(fd, data, chunk, MSG_NOSIGNAL) : ::write(fd, data, chunk);
    if (written < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      throw_io_error("cannot write " + std::to_string(size) + " bytes to " + description, error);
    }
    if (written == 0) {
      throw IoError("cannot write " + std::to_string(size) + " bytes to " + description +
                    ": the system accepted none of them");
    }
    data += written;
    size -= written;
  }
}

// Blocks SIGPIPE in this thread while alive. A SIGPIPE raised meanwhile (a write to a pipe with
// no reader) stays pending rather than killing the process, and is consumed on the way out
// unless one was already pending before.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&sigpipe_);
    sigaddset(&sigpipe_, SIGPIPE);
    was_pending_ = sigpipe_pending();
    pthread_sigmask(SIG_BLOCK, &sigpipe_, &previous_mask_);
  }
  ~SigpipeBlock() {
    if (!was_pending_ && sigpipe_pending()) {
      const timespec no_wait{};
      while (sigtimedwait(&sigpipe_, nullptr, &no_wait) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  static bool sigpipe_pending() {
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    return sigismember(&pending, SIGPIPE) == 1;
  }

  sigset_t sigpipe_;
  sigset_t previous_mask_;
  bool was_pending_;
};

// Reads at most `size` bytes, retrying on EINTR; 0 only at the end of the stream.
int64_t read_some(int fd, uint8_t* out, int64_t size, const std::string& description) {
  const auto chunk = static_cast<size_t>(std::min(size, kMaxIoChunk));
  while (true) {
    const ssize_t received = ::read(fd, out, chunk);
    if (received >= 0) {
      return received;
    }
    const int error = errno;
    if (error != EINTR) {
      throw_io_error("cannot read from " + description, error);
    }
  }
}

// Closes a descriptor when it goes out of scope, unless released.
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  ~FdGuard() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Opens `path` for reading and returns the descriptor and the file's size; throws unless it is a
// regular file.
int open_regular_file(const std::string& path, int64_t& size) {
  FdGuard fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    const int error = errno;
    throw_io_error("cannot open " + path, error);
  }
  struct stat status {};
  if (::fstat(fd.get(), &status) != 0) {
    const int error = errno;
    throw_io_error("cannot stat " + path, error);
  }
  if (!S_ISREG(status.st_mode)) {
    throw IoError("cannot read " + path + ": not a regular file");
  }
  size = status.st_size;
  return fd.release();
}

int create_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    throw_io_error("cannot create " + path, error);
  }
  return fd;
}

}  // namespace

// --- BufferOutputStream -------------------------------------------------------------------

BufferOutputStream::BufferOutputStream(Allocator* allocator) : builder_(allocator) {}

void BufferOutputStream::write(const void* data, int64_t size) {
  check_size(size, "write");
  builder_.append(data, size);
}

int64_t BufferOutputStream::position() const { return builder_.size(); }

std::shared_ptr<Buffer> BufferOutputStream::finish() { return builder_.finish(); }

// --- FdOutputStream -----------------------------------------------------------------------

FdOutputStream::FdOutputStream(int fd, bool owns_fd, int64_t buffer_size, std::string description)
    : fd_(fd),
      owns_fd_(owns_fd),
      description_(fd_description(fd, std::move(description))),
      buffer_size_(buffer_size) {
  FdGuard guard(owns_fd ? fd : -1);
  if (buffer_size < 0) {
    throw InvalidArgument("write buffer size of " + description_ + " must be non-negative, got " +
                          std::to_string(buffer_size));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    throw_io_error("cannot write to " + description_, error);
  }
  if (S_ISSOCK(status.st_mode)) {
    kind_ = Kind::kSocket;
  } else if (S_ISFIFO(status.st_mode)) {
    kind_ = Kind::kPipe;
  }
  guard.release();
}

FdOutputStream::~FdOutputStream() {
  try {
    close();
  } catch (const std::exception&) {
    // A destructor cannot report the failure; callers who care call close() first.
  }
}

void FdOutputStream::check_open() const {
  if (fd_ < 0) {
    throw IoError("cannot write to " + description_ + ": the stream is closed");
  }
}

void FdOutputStream::write_fully(const uint8_t* data, int64_t size) {
  if (kind_ == Kind::kPipe) {
    const SigpipeBlock block;
    write_all(fd_, false, data, size, description_);
  } else {
    write_all(fd_, kind_ == Kind::kSocket, data, size, description_);
  }
}

void FdOutputStream::write(const void* data, int64_t size) {
  check_open();
  check_size(size, "write");
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (size > buffer_size_ - static_cast<int64_t>(pending_.size())) {
    flush();
  }
  if (size >= buffer_size_) {
    write_fully(bytes, size);
  } else {
    if (pending_.capacity() == 0) {
      pending_.reserve(static_cast<size_t>(buffer_size_));
    }
    pending_.insert(pending_.end(), bytes, bytes + size);
  }
  position_ += size;
}

void FdOutputStream::flush() {
  if (fd_ < 0 || pending_.empty()) {
    return;
  }
  try {
    write_fully(pending_.data(), static_cast<int64_t>(pending_.size()));
  } catch (const IoError&) {
    pending_.clear();
    throw;
  }
  pending_.clear();
}

void FdOutputStream::close() {
  if (fd_ < 0) {
    return;
  }
  // The stream counts as closed, and an owned descriptor is released, even when the final flush
  // fails.
  try {
    flush();
  } catch (const IoError&) {
    const int fd = std::exchange(fd_, -1);
    if (owns_fd_) {
      ::close(fd);
    }
    throw;
  }
  const int fd = std::exchange(fd_, -1);
  if (owns_fd_ && ::close(fd) != 0) {
    const int error = errno;
    // Linux releases the descriptor even when close fails, so there is nothing to retry.
    if (error != EINTR) {
      throw_io_error("cannot close " + description_, error);
    }
  }
}

FileOutputStream::FileOutputStream(const std::string& path, int64_t buffer_size)
    : FdOutputStream(create_file(path), true, buffer_size, path) {}

// --- Input streams ------------------------------------------------------------------------

BufferInputStream::BufferInputStream(std::shared_ptr<const Buffer> buffer)
    : buffer_(std::move(buffer)) {
  if (buffer_ == nullptr) {
    throw InvalidArgument("BufferInputStream needs a buffer, got nullptr");
  }
}

int64_t BufferInputStream::read(void* out, int64_t size) {
  check_size(size, "read");
  const int64_t count = std::min(size, buffer_->size() - position_);
  if (count > 0) {
    std::memcpy(out, buffer_->data() + position_, static_cast<size_t>(count));
  }
  position_ += count;
  return count;
}

std::shared_ptr<Buffer> BufferInputStream::read_buffer(int64_t size) {
  check_size(size, "read");
  const int64_t count = std::min(size, buffer_->size() - position_);
  std::shared_ptr<Buffer> result = Buffer::slice(buffer_, position_, count);
  position_ += count;
  return result;
}

SourceInputStream::SourceInputStream(std::shared_ptr<const RandomAccessSource> source)
    : source_(std::move(source)) {
  if (source_ == nullptr) {
    throw InvalidArgument("SourceInputStream needs a source, got nullptr");
  }
}

int64_t SourceInputStream::read(void* out, int64_t size) {
  check_size(size, "read");
  const int64_t count = std::min(size, source_->size() - position_);
  if (count > 0) {
    const std::shared_ptr<Buffer> bytes = source_->read_at(position_, count);
    std::memcpy(out, bytes->data(), static_cast<size_t>(count));
  }
  position_ += count;
  return count;
}

std::shared_ptr<Buffer> SourceInputStream::read_buffer(int64_t size) {
  check_size(size, "read");
  const int64_t count = std::min(size, source_->size() - position_);
  std::shared_ptr<Buffer> result = source_->read_at(position_, count);
  position_ += count;
  return result;
}

FdInputStream::FdInputStream(int fd, bool owns_fd, Allocator* allocator, std::string description)
    : fd_(fd),
      owns_fd_(owns_fd),
      allocator_(allocator),
      description_(fd_description(fd, std::move(description))) {}

FdInputStream::~FdInputStream() {
  if (owns_fd_ && fd_ >= 0) {
    ::close(fd_);
  }
}

int64_t FdInputStream::read(void* out, int64_t size) {
  check_size(size, "read");
  auto* bytes = static_cast<uint8_t*>(out);
  int64_t total = 0;
  while (total < size) {
    const int64_t received = read_some(fd_, bytes + total, size - total, description_);
    if (received == 0) {
      break;
    }
    total += received;
    position_ += received;
  }
  return total;
}

std::shared_ptr<Buffer> FdInputStream::read_buffer(int64_t size) {
  check_size(size, "read");
  MutableBuffer bytes(allocator_);
  int64_t received = 0;
  while (received < size) {
    // Room grows with what arrives, never straight to `size`: the length may be hostile.
    if (received == bytes.size()) {
      bytes.resize(std::min(size, std::max(kReadChunk, received * 2)));
    }
    const int64_t count =
        read_some(fd_, bytes.mutable_data() + received, bytes.size() - received, description_);
    if (count == 0) {
      break;
    }
    received += count;
    position_ += count;
  }
  bytes.resize(received);
  // A short read (the end of the stream came first) does not keep the slack of the growth.
  if (bytes.capacity() - padded_size(received) > std::max<int64_t>(4096, received / 8)) {
    bytes.shrink_to_fit();
  }
  return bytes.finish();
}

// --- Random-access sources ----------------------------------------------------------------

BufferSource::BufferSource(std::shared_ptr<const Buffer> buffer) : buffer_(std::move(buffer)) {
  if (buffer_ == nullptr) {
    throw InvalidArgument("BufferSource needs a buffer, got nullptr");
  }
}

std::shared_ptr<Buffer> BufferSource::read_at(int64_t offset, int64_t length) const {
  check_range(offset, length, buffer_->size(), "a buffer");
  return Buffer::slice(buffer_, offset, length);
}

std::shared_ptr<MemoryMappedFile> MemoryMappedFile::open(const std::string& path) {
  int64_t size = 0;
  const FdGuard fd(open_regular_file(path, size));
  if (size == 0) {
    // mmap refuses empty ranges; an empty source needs no mapping, only a valid address.
    alignas(kAlignment) static const uint8_t kEmpty[kAlignment] = {};
    return std::make_shared<MemoryMappedFile>(PrivateTag{}, Buffer::wrap(kEmpty, 0, nullptr), path);
  }
  void* address = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (address == MAP_FAILED) {
    const int error = errno;
    throw_io_error("cannot map " + path + " (" + std::to_string(size) + " bytes)", error);
  }
  // The mapping outlives the descriptor, which closes here. The shared owner unmaps when the
  // last buffer pointing into the mapping goes (or at once, should making the owner fail).
  std::shared_ptr<const void> mapping(address, [size](const void* start) {
    ::munmap(const_cast<void*>(start), static_cast<size_t>(size));
  });
  return std::make_shared<MemoryMappedFile>(PrivateTag{},
                                            Buffer::wrap(address, size, std::move(mapping)), path);
}

std::shared_ptr<Buffer> MemoryMappedFile::read_at(int64_t offset, int64_t length) const {
  check_range(offset, length, whole_->size(), path_);
  return Buffer::slice(whole_, offset, length);
}

std::shared_ptr<ReadableFile> ReadableFile::open(const std::string& path, Allocator* allocator) {
  int64_t size = 0;
  FdGuard fd(open_regular_file(path, size));
  std::shared_ptr<ReadableFile> file =
      std::make_shared<ReadableFile>(PrivateTag{}, fd.get(), size, path, allocator);
  fd.release();
  return file;
}

ReadableFile::ReadableFile(PrivateTag, int fd, int64_t size, std::string path, Allocator* allocator)
    : fd_(fd), size_(size), path_(std::move(path)), allocator_(allocator) {}

ReadableFile::~ReadableFile() { ::close(fd_); }

std::shared_ptr<Buffer> ReadableFile::read_at(int64_t offset, int64_t length) const {
  check_range(offset, length, size_, path_);
  MutableBuffer bytes(length, allocator_);
  int64_t received = 0;
  while (received < length) {
    const auto chunk = static_cast<size_t>(std::min(length - received, kMaxIoChunk));
    const ssize_t count = ::pread(fd_, bytes.mutable_data() + received, chunk, offset + received);
    if (count < 0) {
      const int error = errno;
      if (error == EINTR) {
        continue;
      }
      throw_io_error("cannot read " + std::to_string(length) + " bytes at offset " +
                         std::to_string(offset) + " of " + path_,
                     error);
    }
    if (count == 0) {
      throw IoError("cannot read " + std::to_string(length) + " bytes at offset " +
                    std::to_string(offset) + " of " + path_ + ": the file ends after " +
                    std::to_string(offset + received) + " bytes (it was " + std::to_string(size_) +
                    " bytes when opened)");
    }
    received += count;
  }
  return bytes.finish();
}

}  // namespace bowstring
