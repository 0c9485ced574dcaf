#include <cmath>

#include "bowstring/compute/arithmetic_kernels.h"
#include "bowstring/compute/function.h"

namespace bowstring::compute {

void register_math_functions(FunctionRegistry& registry) { (void)registry; }

}  // namespace bowstring::compute
