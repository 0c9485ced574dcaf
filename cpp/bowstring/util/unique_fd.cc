#include "bowstring/util/unique_fd.h"

#include <unistd.h>

namespace bowstring {

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) {
    // Linux releases the descriptor even when close() reports an error (EINTR included), so
    // retrying could close a descriptor another thread has just been given.
    ::close(fd_);
  }
  fd_ = fd;
}

}  // namespace bowstring
