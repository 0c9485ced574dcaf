#include "bowstring/compute/aggregate/hyperloglog.h"

#include <cmath>
#include <string>

#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace {

/// Spark's thresholds under which linear counting is used, for p = 4, 5, ... 18.
constexpr double kLinearCountingThresholds[] = {
    10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 11500, 20000, 50000, 120000, 350000};

}  // namespace

int HyperLogLogSketches::precision_for(double rsd) {
  // Checked as a double: an rsd of zero, a negative one or NaN gives an infinite or NaN
  // precision, which cannot be converted to an int.
  const double bits = std::ceil(2.0 * std::log(1.106 / rsd) / std::log(2.0));
  if (!(bits >= 4.0 && bits <= 18.0)) {
    throw InvalidArgument("approx_count_distinct: the relative standard deviation " +
                          std::to_string(rsd) + " is out of range (it must give a precision " +
                          "between 4 and 18; 0.05 is the default)");
  }
  return static_cast<int>(bits);
}

HyperLogLogSketches::HyperLogLogSketches(double rsd)
    : p_(precision_for(rsd)), m_(int64_t{1} << p_) {}

HyperLogLogSketches HyperLogLogSketches::of_precision(int precision) {
  if (precision < 4 || precision > 18) {
    throw InvalidArgument("approx_count_distinct: sketch precision " + std::to_string(precision) +
                          " is out of range [4, 18]");
  }
  return HyperLogLogSketches(precision, int64_t{1} << precision);
}

void HyperLogLogSketches::merge(int64_t group, const uint8_t* other) {
  uint8_t* mine = registers_.data() + static_cast<size_t>(group * m_);
  for (int64_t j = 0; j < m_; ++j) {
    if (other[j] > mine[j]) {
      mine[j] = other[j];
    }
  }
}

int64_t HyperLogLogSketches::estimate(int64_t group) const {
  const uint8_t* regs = registers(group);
  double inverse_sum = 0.0;
  int64_t zeros = 0;
  for (int64_t j = 0; j < m_; ++j) {
    inverse_sum += 1.0 / static_cast<double>(uint64_t{1} << regs[j]);
    zeros += regs[j] == 0;
  }
  const auto m = static_cast<double>(m_);
  double alpha_m2;
  switch (p_) {
    case 4:
      alpha_m2 = 0.673 * m * m;
      break;
    case 5:
      alpha_m2 = 0.697 * m * m;
      break;
    case 6:
      alpha_m2 = 0.709 * m * m;
      break;
    default:
      alpha_m2 = (0.7213 / (1.0 + 1.079 / m)) * m * m;
  }
  double estimate = alpha_m2 / inverse_sum;
  if (zeros > 0) {
    // Spark's rule, then the original HyperLogLog's (linear counting while the raw estimate is
    // under 2.5 m), which stands in for Spark's empirical bias correction where that applies.
    const double linear = m * std::log(m / static_cast<double>(zeros));
    if (linear <= kLinearCountingThresholds[p_ - 4] || estimate <= 2.5 * m) {
      estimate = linear;
    }
  }
  return std::llround(estimate);
}

}  // namespace bowstring::compute
