#include "bowstring/compute/core/errors.h"

namespace bowstring::compute {

SparkError::SparkError(std::string condition, std::string_view message)
    : Error("[" + condition + "] " + std::string(message)), condition_(std::move(condition)) {}

}  // namespace bowstring::compute
