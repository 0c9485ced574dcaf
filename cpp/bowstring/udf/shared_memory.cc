#include "bowstring/udf/shared_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

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
    throw_io_error("cannot create the memory file " + name, errno);
  }
  if (::ftruncate(fd.get(), size) != 0) {
    throw_io_error("cannot size the memory file " + name + " to " + byte_count(size), errno);
  }
  return fd;
}

SharedMemoryWriter::SharedMemoryWriter(int fd, int64_t size) : size_(size) {
  if (size == 0) {
    return;
  }
  // Populating up front faults every page in one call rather than one page at a time while the
  // bytes are copied in.
  void* address = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_POPULATE, fd, 0);
  if (address == MAP_FAILED) {
    throw_io_error("cannot map " + byte_count(size) + " of memory file fd " + std::to_string(fd) +
                       " for writing",
                   errno);
  }
  data_ = static_cast<uint8_t*>(address);
}

SharedMemoryWriter::~SharedMemoryWriter() {
  if (data_ != nullptr) {
    ::munmap(data_, static_cast<size_t>(size_));
  }
}

void seal_shared_memory(int fd) {
  if (::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    throw_io_error("cannot seal memory file fd " + std::to_string(fd), errno);
  }
}

std::shared_ptr<Buffer> map_shared_memory(int fd, int64_t length, const std::string& what) {
  if (length < 0) {
    throw IoError(what + " claims a negative length of " + byte_count(length));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    throw_io_error("cannot inspect the memory file of " + what, errno);
  }
  if (!S_ISREG(status.st_mode)) {
    throw IoError("the descriptor of " + what + " is not a memory file");
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
    throw_io_error("cannot map " + byte_count(length) + " of the memory file of " + what, errno);
  }
  // The owner unmaps when the last buffer pointing into the mapping goes (or at once, should
  // making the owner fail).
  std::shared_ptr<const void> mapping(address, [length](const void* start) {
    ::munmap(const_cast<void*>(start), static_cast<size_t>(length));
  });
  return Buffer::wrap(address, length, std::move(mapping));
}

}  // namespace bowstring::udf
