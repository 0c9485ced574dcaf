#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bowstring::compute {

/// HyperLogLog++ sketches as Spark's `approx_count_distinct` keeps them, one per group: 2^p
/// registers of the leading-zero counts of 64-bit XXH64 hashes (seed 42) of the values.
///
/// The estimate follows Spark's: linear counting while it stays under Spark's threshold for p
/// (so small cardinalities give exactly Spark's answer), the raw HyperLogLog estimate above
/// 5 * 2^p (Spark's answer again). In between Spark subtracts an empirical bias (tables from
/// the HLL++ paper); we use the original HyperLogLog's rule instead (linear counting while the
/// raw estimate is under 2.5 * 2^p, the raw estimate above), so answers in that range may
/// differ from Spark's, within the requested relative standard deviation.
class HyperLogLogSketches {
 public:
  /// Sketches for the relative standard deviation `rsd` (Spark's default 0.05 gives p = 9).
  explicit HyperLogLogSketches(double rsd);

  /// Sketches of 2^`precision` registers (4 to 18).
  static HyperLogLogSketches of_precision(int precision);

  /// Spark's precision for `rsd`: ceil(2 log2(1.106 / rsd)); throws `InvalidArgument` below 4.
  static int precision_for(double rsd);

  int precision() const { return p_; }
  int64_t registers_per_sketch() const { return m_; }
  void resize(int64_t num_groups) { registers_.resize(static_cast<size_t>(num_groups * m_), 0); }

  /// Adds a value of hash `hash` to the sketch of `group`.
  void add(int64_t group, uint64_t hash) {
    const auto index = static_cast<int64_t>(hash >> (64 - p_));
    const uint64_t w = (hash << p_) | (uint64_t{1} << (p_ - 1));
    const auto rank = static_cast<uint8_t>(__builtin_clzll(w) + 1);
    uint8_t& reg = registers_[static_cast<size_t>(group * m_ + index)];
    if (rank > reg) {
      reg = rank;
    }
  }
  /// The registers of `group`'s sketch (registers_per_sketch() bytes).
  const uint8_t* registers(int64_t group) const {
    return registers_.data() + static_cast<size_t>(group * m_);
  }
  /// Folds registers of another sketch of the same precision into `group`'s.
  void merge(int64_t group, const uint8_t* other);
  /// The estimated number of distinct values added to `group`.
  int64_t estimate(int64_t group) const;

 private:
  HyperLogLogSketches(int precision, int64_t registers) : p_(precision), m_(registers) {}

  int p_;
  int64_t m_;
  std::vector<uint8_t> registers_;
};

}  // namespace bowstring::compute
