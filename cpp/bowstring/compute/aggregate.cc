#include "bowstring/compute/function.h"
#include "bowstring/compute/registry_areas.h"

namespace bowstring::compute {

void register_aggregate_functions(FunctionRegistry& /*registry*/) {}

}  // namespace bowstring::compute
