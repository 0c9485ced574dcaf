#include "bowstring/compute/core/exec_context.h"

#include <chrono>

namespace bowstring::compute {

ExecContext::ExecContext()
    : statement_time_us(std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count()) {}

}  // namespace bowstring::compute
