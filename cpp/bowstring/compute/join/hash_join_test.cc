#include "bowstring/compute/join/hash_join.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/equal.h"
#include "bowstring/testing/array_testing.h"
#include "bowstring/testing/test_util.h"

namespace bowstring::compute {
namespace {

using testing::make_array;
using testing::make_decimal_array;
using testing::make_dictionary_array;
using testing::make_list_array;
using testing::make_string_array;
using testing::make_struct_array;

constexpr JoinType kAllTypes[] = {JoinType::kInner,     JoinType::kLeftOuter, JoinType::kRightOuter,
                                  JoinType::kFullOuter, JoinType::kLeftSemi,  JoinType::kLeftAnti,
                                  JoinType::kRightSemi, JoinType::kRightAnti};

// --- Random key columns ----------------------------------------------------------------------

/// The key types the tests draw from; values are made from small integer ids, so that equal
/// ids give equal keys (and a few distinct ids give equal keys too: 0.0 and -0.0, two NaNs,
/// two dictionary entries of one value).
enum class KeyKind {
  kInt64,
  kInt32,
  kFloat64,
  kBool,
  kString,
  kLongString,
  kStringView,
  kDecimal,
  kStruct,
  kDictionary,
  kDate,
  kList,
  kTimestamp,
  kSmallDecimal,
  kUInt16,
  kFloat16,
  kFixedSizeBinary
};

using Ids = std::vector<std::optional<int>>;

Array make_key_column(KeyKind kind, const Ids& ids) {
  const auto map = [&ids](auto value_of) {
    using Value = decltype(value_of(0));
    std::vector<std::optional<Value>> values;
    for (const std::optional<int>& id : ids) {
      values.push_back(id.has_value() ? std::optional<Value>(value_of(*id)) : std::nullopt);
    }
    return values;
  };
  switch (kind) {
    case KeyKind::kInt64:
      return make_array<int64_t>(map([](int id) { return int64_t{id} * 7 - 20; }));
    case KeyKind::kInt32:
      return make_array<int32_t>(map([](int id) { return int32_t{id} - 3; }));
    case KeyKind::kFloat64:
      return make_array<double>(map([](int id) {
        switch (id % 8) {
          case 0:
            return 0.0;
          case 1:
            return -0.0;
          case 2:
            return std::numeric_limits<double>::quiet_NaN();
          case 3:
            return -std::nan("7");
          default:
            return id * 0.5;
        }
      }));
    case KeyKind::kBool:
      return make_array<bool>(map([](int id) { return id % 2 == 0; }));
    case KeyKind::kString:
      return make_string_array(
          map([](int id) { return id == 0 ? std::string() : "k" + std::to_string(id); }));
    case KeyKind::kLongString:
      return make_string_array(
          map([](int id) { return "a key longer than sixteen bytes #" + std::to_string(id); }),
          large_utf8());
    case KeyKind::kStringView:
      return make_string_array(map([](int id) {
                                 return id % 2 == 0
                                            ? "v" + std::to_string(id)
                                            : "a view longer than twelve " + std::to_string(id);
                               }),
                               utf8_view());
    case KeyKind::kDecimal:
      return make_decimal_array(decimal128(12, 2),
                                map([](int id) { return std::to_string(id - 5) + ".25"; }));
    case KeyKind::kStruct: {
      // Fields with nulls of their own: inside a valid struct, null fields equal each other.
      std::vector<std::optional<int32_t>> a;
      std::vector<std::optional<std::string>> b;
      std::vector<bool> validity;
      for (const std::optional<int>& id : ids) {
        const int value = id.value_or(0);
        a.push_back(value % 3 == 2 ? std::nullopt : std::optional<int32_t>(value % 3));
        b.push_back("s" + std::to_string(value / 3));
        validity.push_back(id.has_value());
      }
      return make_struct_array({{"a", make_array<int32_t>(a)}, {"b", make_string_array(b)}},
                               validity);
    }
    case KeyKind::kDictionary: {
      // Entries 0 and 3 hold one value: keys compare by value, not by index.
      const Array dictionary = make_string_array({"x", "y", "z", "x", "w"});
      std::vector<std::optional<int64_t>> indices;
      for (const std::optional<int>& id : ids) {
        indices.push_back(id.has_value() ? std::optional<int64_t>(*id % 5) : std::nullopt);
      }
      return make_dictionary_array(int8(), indices, dictionary);
    }
    case KeyKind::kDate:
      return make_array<int32_t>(date32(), map([](int id) { return int32_t{id} + 18000; }));
    case KeyKind::kTimestamp:
      return make_array<int64_t>(timestamp(TimeUnit::kMicro, "UTC"),
                                 map([](int id) { return int64_t{id} * 1'000'000 - 5; }));
    case KeyKind::kSmallDecimal:
      return make_decimal_array(decimal64(10, 3),
                                map([](int id) { return std::to_string(id) + ".5"; }));
    case KeyKind::kUInt16:
      return make_array<uint16_t>(map([](int id) { return static_cast<uint16_t>(65535 - id); }));
    case KeyKind::kFloat16:
      // 0x8000 is -0.0, 0x7e00 and 0xfe01 are NaNs.
      return make_array<uint16_t>(float16(), map([](int id) -> uint16_t {
                                    constexpr uint16_t kBits[] = {0x0000, 0x8000, 0x7e00, 0xfe01};
                                    return id < 4 ? kBits[id] : static_cast<uint16_t>(0x3c00 + id);
                                  }));
    case KeyKind::kFixedSizeBinary:
      return make_string_array(map([](int id) {
                                 std::string value = "fixed-" + std::to_string(id % 100);
                                 value.resize(9, '_');
                                 return value;
                               }),
                               fixed_size_binary(9));
    case KeyKind::kList: {
      std::vector<std::optional<std::vector<std::optional<int64_t>>>> lists;
      for (const std::optional<int>& id : ids) {
        if (!id.has_value()) {
          lists.push_back(std::nullopt);
        } else if (*id % 4 == 0) {
          lists.push_back(std::vector<std::optional<int64_t>>{});
        } else {
          lists.push_back(std::vector<std::optional<int64_t>>{
              *id % 4, *id % 3 == 0 ? std::nullopt : std::optional<int64_t>(*id)});
        }
      }
      return make_list_array<int64_t>(lists);
    }
  }
  return {};
}

/// One side of a join: its key columns in batches (possibly sliced), and a payload value per row
/// that residual conditions read.
struct Side {
  std::vector<std::vector<Array>> batches;
  std::vector<int64_t> values;                        // one per row, over all batches
  std::vector<std::pair<size_t, int64_t>> locations;  // each row's batch and row in it

  int64_t rows() const { return static_cast<int64_t>(values.size()); }
};

struct SideSpec {
  int64_t rows = 50;
  int domain = 12;          // ids drawn from [0, domain)
  double null_rate = 0.1;   // per key value
  int skewed_rows = 0;      // rows more with id 1 in every key
  int64_t batch_rows = 16;  // rows per batch (the last one shorter)
  bool sliced = true;       // batches are slices of longer arrays
};

Side make_side(const std::vector<KeyKind>& kinds, const SideSpec& spec, std::mt19937_64& rng) {
  const int64_t total = spec.rows + spec.skewed_rows;
  std::vector<Ids> ids(kinds.size());
  std::uniform_int_distribution<int> id_of(0, std::max(0, spec.domain - 1));
  std::bernoulli_distribution null_of(spec.null_rate);
  for (int64_t r = 0; r < total; ++r) {
    for (size_t c = 0; c < kinds.size(); ++c) {
      if (r < spec.skewed_rows) {
        ids[c].push_back(1);
      } else {
        ids[c].push_back(null_of(rng) ? std::nullopt : std::optional<int>(id_of(rng)));
      }
    }
  }
  // Skewed rows spread among the others.
  std::vector<int64_t> order(static_cast<size_t>(total));
  for (int64_t r = 0; r < total; ++r) {
    order[static_cast<size_t>(r)] = r;
  }
  std::shuffle(order.begin(), order.end(), rng);
  Side side;
  std::uniform_int_distribution<int64_t> value_of(0, 20);
  for (int64_t start = 0; start < total || (start == 0 && total == 0); start += spec.batch_rows) {
    const int64_t count = std::min(spec.batch_rows, total - start);
    std::vector<Array> batch;
    for (size_t c = 0; c < kinds.size(); ++c) {
      Ids column;
      const int pad = spec.sliced ? 3 : 0;
      for (int i = 0; i < pad; ++i) {
        column.push_back(i % 2 == 0 ? std::nullopt : std::optional<int>(i));
      }
      for (int64_t j = 0; j < count; ++j) {
        column.push_back(ids[c][static_cast<size_t>(order[static_cast<size_t>(start + j)])]);
      }
      for (int i = 0; i < pad; ++i) {
        column.push_back(i);
      }
      batch.push_back(make_key_column(kinds[c], column).slice(pad, count));
    }
    side.batches.push_back(std::move(batch));
    for (int64_t j = 0; j < count; ++j) {
      side.values.push_back(value_of(rng));
      side.locations.emplace_back(side.batches.size() - 1, j);
    }
    if (total == 0) {
      break;
    }
  }
  return side;
}

/// The key columns of row `row` of a side: its batch and row within it.
std::pair<const std::vector<Array>*, int64_t> locate(const Side& side, int64_t row) {
  const auto [batch, batch_row] = side.locations[static_cast<size_t>(row)];
  return {&side.batches[batch], batch_row};
}

// --- The reference: a nested loop ----------------------------------------------------------

/// A residual condition on (probe row, build row) by their payload values: passes, fails, or
/// is null (which fails).
struct Residual {
  std::optional<bool> operator()(int64_t probe_value, int64_t build_value) const {
    const int64_t sum = probe_value + build_value;
    if (sum % 7 == 0) {
      return std::nullopt;
    }
    return sum % 3 != 0;
  }
};

bool keys_match(const std::vector<Array>& probe, int64_t i, const std::vector<Array>& build,
                int64_t j, const std::vector<bool>& null_safe) {
  EqualOptions options;
  options.nans_equal = true;
  for (size_t c = 0; c < probe.size(); ++c) {
    const bool probe_null = probe[c].is_null(i);
    const bool build_null = build[c].is_null(j);
    if (probe_null || build_null) {
      if (!(probe_null && build_null && null_safe[c])) {
        return false;
      }
      continue;
    }
    if (!array_range_equal(probe[c], i, build[c], j, 1, options)) {
      return false;
    }
  }
  return true;
}

using Pair = std::pair<int64_t, int64_t>;

std::vector<Pair> reference_join(const Side& probe, const Side& build,
                                 const std::vector<bool>& null_safe, JoinType type,
                                 bool with_residual) {
  std::vector<Pair> pairs;
  std::vector<bool> build_matched(static_cast<size_t>(build.rows()), false);
  const bool emits_pairs = type == JoinType::kInner || type == JoinType::kLeftOuter ||
                           type == JoinType::kRightOuter || type == JoinType::kFullOuter;
  for (int64_t i = 0; i < probe.rows(); ++i) {
    const auto [probe_keys, probe_row] = locate(probe, i);
    bool any = false;
    for (int64_t r = 0; r < build.rows(); ++r) {
      const auto [build_keys, build_row] = locate(build, r);
      if (!keys_match(*probe_keys, probe_row, *build_keys, build_row, null_safe)) {
        continue;
      }
      if (with_residual &&
          !Residual{}(probe.values[static_cast<size_t>(i)], build.values[static_cast<size_t>(r)])
               .value_or(false)) {
        continue;
      }
      any = true;
      build_matched[static_cast<size_t>(r)] = true;
      if (emits_pairs) {
        pairs.emplace_back(i, r);
      }
    }
    if ((type == JoinType::kLeftSemi && any) ||
        (!any && (type == JoinType::kLeftOuter || type == JoinType::kFullOuter ||
                  type == JoinType::kLeftAnti))) {
      pairs.emplace_back(i, kNoRow);
    }
  }
  for (int64_t r = 0; r < build.rows(); ++r) {
    const bool matched = build_matched[static_cast<size_t>(r)];
    if ((type == JoinType::kRightSemi && matched) ||
        (!matched && (type == JoinType::kRightOuter || type == JoinType::kFullOuter ||
                      type == JoinType::kRightAnti))) {
      pairs.emplace_back(kNoRow, r);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// --- Running the table ---------------------------------------------------------------------

/// Appends the pairs of `out` to `pairs`.
void append_pairs(const JoinPairs& out, std::vector<Pair>& pairs) {
  for (int64_t k = 0; k < out.size(); ++k) {
    pairs.emplace_back(out.probe_rows()[static_cast<size_t>(k)],
                       out.build_rows()[static_cast<size_t>(k)]);
  }
}

struct RunOptions {
  int64_t max_pairs = 1000;
  bool with_residual = false;
  int partitions = 64;
  Allocator* allocator = default_allocator();
};

std::vector<TypePtr> types_of(const Side& side) {
  std::vector<TypePtr> types;
  for (const Array& column : side.batches.at(0)) {
    types.push_back(column.type());
  }
  return types;
}

/// The mask of the residual condition over a chunk of candidates of the probe batch starting
/// at probe row `probe_offset`.
Array residual_mask(const JoinPairs& candidates, const Side& probe, int64_t probe_offset,
                    const Side& build) {
  BooleanBuilder mask;
  for (int64_t k = 0; k < candidates.size(); ++k) {
    const auto probe_row = candidates.probe_rows()[static_cast<size_t>(k)];
    const auto build_row = candidates.build_rows()[static_cast<size_t>(k)];
    const std::optional<bool> passed =
        Residual{}(probe.values[static_cast<size_t>(probe_offset + probe_row)],
                   build.values[static_cast<size_t>(build_row)]);
    if (passed.has_value()) {
      mask.append(*passed);
    } else {
      mask.append_null();
    }
  }
  return mask.finish();
}

/// Probes one batch of `probe` (starting at probe row `probe_offset`) and appends its output,
/// in the probe side's numbering, to `pairs`. Checks the chunk limits and the order of probe
/// rows.
void probe_batch(JoinHashTable& table, const Side& probe, size_t batch, int64_t probe_offset,
                 const Side& build, const RunOptions& options, std::vector<Pair>& pairs) {
  JoinProbe cursor = table.probe(probe.batches[batch]);
  JoinPairs out(options.allocator);
  int64_t last_probe_row = -1;
  const auto take = [&]() {
    EXPECT_LE(out.size(), options.max_pairs);
    for (int64_t k = 0; k < out.size(); ++k) {
      const int64_t probe_row = out.probe_rows()[static_cast<size_t>(k)];
      EXPECT_GE(probe_row, last_probe_row) << "probe rows out of order";
      last_probe_row = probe_row;
      pairs.emplace_back(probe_row + probe_offset, out.build_rows()[static_cast<size_t>(k)]);
    }
  };
  if (options.with_residual) {
    while (cursor.next_candidates(options.max_pairs)) {
      EXPECT_LE(cursor.candidates().size(), options.max_pairs);
      cursor.resolve(residual_mask(cursor.candidates(), probe, probe_offset, build), out);
      take();
    }
  } else {
    while (cursor.next(options.max_pairs, out)) {
      take();
    }
  }
}

void collect_build_side(const JoinHashTable& table, std::vector<Pair>& pairs,
                        Allocator* allocator) {
  if (!table.outputs_build_rows()) {
    return;
  }
  JoinPairs out(allocator);
  constexpr int64_t kRange = 7;
  for (int64_t begin = 0; begin < table.num_build_rows(); begin += kRange) {
    out.clear();
    table.collect_build_rows(begin, std::min(begin + kRange, table.num_build_rows()), out);
    for (int64_t k = 0; k < out.size(); ++k) {
      EXPECT_EQ(out.probe_rows()[static_cast<size_t>(k)], kNoRow);
      pairs.emplace_back(kNoRow, out.build_rows()[static_cast<size_t>(k)]);
    }
  }
}

std::vector<Pair> run_join(const Side& probe, const Side& build, const std::vector<bool>& null_safe,
                           JoinType type, const RunOptions& options) {
  JoinHashTable table(types_of(build), null_safe, type, options.allocator,
                      JoinTableOptions{options.partitions});
  int64_t expected_first = 0;
  for (const std::vector<Array>& batch : build.batches) {
    EXPECT_EQ(table.add(batch), expected_first);
    expected_first += batch[0].length();
  }
  EXPECT_EQ(table.num_build_rows(), build.rows());
  table.finalize();
  std::vector<Pair> pairs;
  int64_t probe_offset = 0;
  for (size_t b = 0; b < probe.batches.size(); ++b) {
    probe_batch(table, probe, b, probe_offset, build, options, pairs);
    probe_offset += probe.batches[b][0].length();
  }
  collect_build_side(table, pairs, options.allocator);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// Every join type, with and without a residual, against the reference, with each of
/// `chunk_limits` as the most pairs asked for at a time (`options.max_pairs` when empty).
void check_all_types(const Side& probe, const Side& build, const std::vector<bool>& null_safe,
                     RunOptions options, const std::string& what,
                     std::vector<int64_t> chunk_limits = {}) {
  if (chunk_limits.empty()) {
    chunk_limits.push_back(options.max_pairs);
  }
  for (const bool residual : {false, true}) {
    options.with_residual = residual;
    for (const JoinType type : kAllTypes) {
      const std::vector<Pair> expected = reference_join(probe, build, null_safe, type, residual);
      for (const int64_t limit : chunk_limits) {
        options.max_pairs = limit;
        SCOPED_TRACE(what + ", " + std::string(join_type_name(type)) +
                     (residual ? ", with a residual" : "") + ", at most " + std::to_string(limit) +
                     " pairs");
        EXPECT_EQ(run_join(probe, build, null_safe, type, options), expected);
      }
    }
  }
}

std::string kind_names(const std::vector<KeyKind>& kinds) {
  std::string names;
  for (const KeyKind kind : kinds) {
    names += std::to_string(static_cast<int>(kind)) + " ";
  }
  return names;
}

// --- Tests -------------------------------------------------------------------------------------

TEST(HashJoin, EveryKeyTypeAgainstNestedLoops) {
  std::mt19937_64 rng(42);
  const std::vector<std::vector<KeyKind>> key_sets = {
      {KeyKind::kInt64},
      {KeyKind::kInt32},
      {KeyKind::kFloat64},
      {KeyKind::kBool},
      {KeyKind::kString},
      {KeyKind::kLongString},
      {KeyKind::kStringView},
      {KeyKind::kDecimal},
      {KeyKind::kStruct},
      {KeyKind::kDictionary},
      {KeyKind::kDate},
      {KeyKind::kList},
      {KeyKind::kTimestamp},
      {KeyKind::kSmallDecimal},
      {KeyKind::kUInt16},
      {KeyKind::kFloat16},
      {KeyKind::kFixedSizeBinary},
  };
  for (const std::vector<KeyKind>& kinds : key_sets) {
    const Side build = make_side(kinds, SideSpec{}, rng);
    const Side probe = make_side(kinds, SideSpec{.rows = 40, .batch_rows = 13}, rng);
    check_all_types(probe, build, {false}, RunOptions{}, "keys " + kind_names(kinds));
    check_all_types(probe, build, {true}, RunOptions{.max_pairs = 3},
                    "null-safe keys " + kind_names(kinds));
  }
}

TEST(HashJoin, SeveralKeysWithNullSafeOnesMixedIn) {
  std::mt19937_64 rng(7);
  const std::vector<std::pair<std::vector<KeyKind>, std::vector<bool>>> cases = {
      {{KeyKind::kInt32, KeyKind::kInt32}, {false, true}},  // packed, with a null flag
      {{KeyKind::kInt64, KeyKind::kBool}, {true, false}},   // too wide to pack
      {{KeyKind::kString, KeyKind::kInt64}, {false, false}},
      {{KeyKind::kDecimal, KeyKind::kStruct, KeyKind::kDate}, {true, false, true}},
      {{KeyKind::kDictionary, KeyKind::kFloat64}, {true, true}},
  };
  for (const auto& [kinds, null_safe] : cases) {
    const SideSpec spec{.rows = 60, .domain = 4, .null_rate = 0.2};
    const Side build = make_side(kinds, spec, rng);
    const Side probe = make_side(kinds, spec, rng);
    check_all_types(probe, build, null_safe, RunOptions{.max_pairs = 5},
                    "keys " + kind_names(kinds));
  }
}

TEST(HashJoin, OnePartitionOrMany) {
  std::mt19937_64 rng(11);
  for (const int partitions : {1, 2, 1024}) {
    for (const KeyKind kind : {KeyKind::kInt64, KeyKind::kString, KeyKind::kStruct}) {
      const Side build = make_side({kind}, SideSpec{.rows = 80, .domain = 30}, rng);
      const Side probe = make_side({kind}, SideSpec{.rows = 80, .domain = 30}, rng);
      check_all_types(probe, build, {false}, RunOptions{.max_pairs = 4, .partitions = partitions},
                      std::to_string(partitions) + " partitions");
    }
  }
}

TEST(HashJoin, SkewedKeyIsOutputInBoundedChunks) {
  std::mt19937_64 rng(3);
  for (const KeyKind kind : {KeyKind::kInt64, KeyKind::kString}) {
    const Side build = make_side(
        {kind}, SideSpec{.rows = 30, .domain = 5, .skewed_rows = 2000, .batch_rows = 500}, rng);
    const Side probe = make_side({kind}, SideSpec{.rows = 10, .domain = 5, .skewed_rows = 4}, rng);
    check_all_types(probe, build, {false}, RunOptions{}, "skewed", {1, 1000});
  }
}

TEST(HashJoin, LargeTablesAgainstAMap) {
  // Tables past the caches (slots prefetched during probes) and grown many times over: 60K
  // build keys, most distinct, against a map from key to build rows.
  std::mt19937_64 rng(17);
  constexpr int64_t kBuildRows = 60'000;
  constexpr int64_t kProbeRows = 20'000;
  std::uniform_int_distribution<int64_t> key_of(0, 50'000);
  std::vector<int64_t> build_values(kBuildRows);
  std::vector<int64_t> probe_values(kProbeRows);
  std::map<int64_t, std::vector<int64_t>> rows_of;
  for (int64_t r = 0; r < kBuildRows; ++r) {
    build_values[static_cast<size_t>(r)] = key_of(rng);
    rows_of[build_values[static_cast<size_t>(r)]].push_back(r);
  }
  for (int64_t& value : probe_values) {
    value = key_of(rng) + 10'000;
  }
  std::vector<Pair> expected;
  for (int64_t i = 0; i < kProbeRows; ++i) {
    const auto found = rows_of.find(probe_values[static_cast<size_t>(i)]);
    if (found == rows_of.end()) {
      expected.emplace_back(i, kNoRow);
      continue;
    }
    for (const int64_t r : found->second) {
      expected.emplace_back(i, r);
    }
  }
  const auto as_keys = [](const std::vector<int64_t>& values, bool strings) {
    if (!strings) {
      Int64Builder builder;
      builder.append_values(values);
      return builder.finish();
    }
    std::vector<std::optional<std::string>> texts;
    for (const int64_t value : values) {
      texts.push_back("key " + std::to_string(value));
    }
    return make_string_array(texts);
  };
  for (const bool strings : {false, true}) {
    for (const int partitions : {1, 64}) {
      SCOPED_TRACE(std::string(strings ? "string" : "int64") + " keys, " +
                   std::to_string(partitions) + " partitions");
      JoinHashTable table({strings ? utf8() : int64()}, {}, JoinType::kLeftOuter,
                          default_allocator(), JoinTableOptions{partitions});
      const Array build = as_keys(build_values, strings);
      for (int64_t start = 0; start < kBuildRows; start += 10'000) {
        table.add(std::vector<Array>{build.slice(start, 10'000)});
      }
      table.finalize();
      EXPECT_EQ(table.num_groups(), static_cast<int64_t>(rows_of.size()));
      JoinProbe cursor = table.probe(std::vector<Array>{as_keys(probe_values, strings)});
      JoinPairs out;
      std::vector<Pair> pairs;
      while (cursor.next(5000, out)) {
        append_pairs(out, pairs);
      }
      EXPECT_EQ(pairs, expected);  // in probe order, each probe row's build rows ascending
    }
  }
}

TEST(HashJoin, ChunksNeverPassTheLimit) {
  // One probe row matching 2000 build rows is given out 10 pairs at a time, not all at once.
  std::vector<std::optional<int64_t>> build_keys(2000, int64_t{5});
  build_keys.push_back(6);
  JoinHashTable table({int64()}, {}, JoinType::kInner);
  table.add(std::vector<Array>{make_array<int64_t>(build_keys)});
  table.finalize();
  JoinProbe cursor = table.probe(std::vector<Array>{make_array<int64_t>({5, 6, 7})});
  JoinPairs out;
  int64_t chunks = 0;
  int64_t pairs = 0;
  while (cursor.next(10, out)) {
    EXPECT_LE(out.size(), 10);
    pairs += out.size();
    ++chunks;
  }
  EXPECT_EQ(pairs, 2001);
  EXPECT_EQ(chunks, 201);
  EXPECT_FALSE(cursor.next(10, out));
  EXPECT_TRUE(out.empty());
}

TEST(HashJoin, EmptyAndOneRowSides) {
  std::mt19937_64 rng(5);
  for (const KeyKind kind : {KeyKind::kInt64, KeyKind::kString, KeyKind::kList}) {
    const Side empty = make_side({kind}, SideSpec{.rows = 0}, rng);
    const Side one = make_side({kind}, SideSpec{.rows = 1, .domain = 1, .null_rate = 0}, rng);
    const Side some = make_side({kind}, SideSpec{.rows = 20, .domain = 2}, rng);
    check_all_types(some, empty, {false}, RunOptions{}, "empty build");
    check_all_types(empty, some, {false}, RunOptions{}, "empty probe");
    check_all_types(empty, empty, {false}, RunOptions{}, "both empty");
    check_all_types(one, some, {false}, RunOptions{.max_pairs = 1}, "one probe row");
    check_all_types(some, one, {false}, RunOptions{.max_pairs = 1}, "one build row");
  }
}

TEST(HashJoin, NullKeysFollowSpark) {
  // Under `=` a null key matches nothing, not even a null; under `<=>` nulls match each other.
  const Array build = make_array<int64_t>({1, std::nullopt, 2, std::nullopt});
  const Array probe = make_array<int64_t>({std::nullopt, 1, 3});
  for (const bool null_safe : {false, true}) {
    JoinHashTable table({int64()}, {null_safe}, JoinType::kFullOuter);
    table.add(std::vector<Array>{build});
    table.finalize();
    JoinProbe cursor = table.probe(std::vector<Array>{probe});
    JoinPairs out;
    std::vector<Pair> pairs;
    while (cursor.next(100, out)) {
      append_pairs(out, pairs);
    }
    out.clear();
    table.collect_build_rows(0, table.num_build_rows(), out);
    for (int64_t k = 0; k < out.size(); ++k) {
      pairs.emplace_back(kNoRow, out.build_rows()[static_cast<size_t>(k)]);
    }
    std::sort(pairs.begin(), pairs.end());
    if (null_safe) {
      EXPECT_EQ(pairs, (std::vector<Pair>{{kNoRow, 2}, {0, 1}, {0, 3}, {1, 0}, {2, kNoRow}}));
    } else {
      EXPECT_EQ(pairs,
                (std::vector<Pair>{
                    {kNoRow, 1}, {kNoRow, 2}, {kNoRow, 3}, {0, kNoRow}, {1, 0}, {2, kNoRow}}));
    }
  }
}

TEST(HashJoin, FloatKeysAreNormalized) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Array build = make_array<double>({0.0, nan, 1.5});
  const Array probe = make_array<double>({-0.0, -nan, 1.5, 2.0});
  JoinHashTable table({float64()}, {}, JoinType::kInner);
  table.add(std::vector<Array>{build});
  table.finalize();
  JoinProbe cursor = table.probe(std::vector<Array>{probe});
  JoinPairs out;
  ASSERT_TRUE(cursor.next(10, out));
  EXPECT_EQ(std::vector<int64_t>(out.probe_rows().begin(), out.probe_rows().end()),
            (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(std::vector<int64_t>(out.build_rows().begin(), out.build_rows().end()),
            (std::vector<int64_t>{0, 1, 2}));
}

TEST(HashJoin, IndicesAreNullForMissingRows) {
  JoinPairs pairs;
  pairs.append(0, kNoRow);
  pairs.append(1, std::vector<int64_t>{4, 5});
  const Array build = pairs.build_indices();
  EXPECT_TRUE(build.equals(make_array<int64_t>({std::nullopt, 4, 5})));
  EXPECT_TRUE(pairs.probe_indices().equals(make_array<int64_t>({0, 1, 1})));
}

TEST(HashJoin, ConcurrentBuildAndProbes) {
  // Batches are added from several threads at once (rows numbered in the order of the calls)
  // and probed from several threads at once; the match flags of the outer joins must see every
  // probe.
  std::mt19937_64 rng(99);
  const std::vector<KeyKind> kinds = {KeyKind::kInt64};
  const Side build = make_side(kinds, SideSpec{.rows = 800, .domain = 600, .batch_rows = 25}, rng);
  const Side probe = make_side(kinds, SideSpec{.rows = 800, .domain = 600, .batch_rows = 25}, rng);
  for (const JoinType type : {JoinType::kFullOuter, JoinType::kRightSemi, JoinType::kRightAnti}) {
    for (const bool residual : {false, true}) {
      SCOPED_TRACE(std::string(join_type_name(type)) + (residual ? ", with a residual" : ""));
      JoinHashTable table(types_of(build), {false}, type);
      // The build side as the threads numbered it: row r of batch b is build row first[b] + r.
      std::vector<int64_t> first(build.batches.size());
      constexpr int kThreads = 4;
      {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
          threads.emplace_back([&, t] {
            for (size_t b = static_cast<size_t>(t); b < build.batches.size(); b += kThreads) {
              first[b] = table.add(build.batches[b]);
            }
          });
        }
        for (std::thread& thread : threads) {
          thread.join();
        }
      }
      table.finalize();
      // Maps the table's build row numbers back to the side's.
      std::vector<int64_t> side_row(static_cast<size_t>(build.rows()));
      int64_t offset = 0;
      for (size_t b = 0; b < build.batches.size(); ++b) {
        for (int64_t r = 0; r < build.batches[b][0].length(); ++r) {
          side_row[static_cast<size_t>(first[b] + r)] = offset + r;
        }
        offset += build.batches[b][0].length();
      }
      // Residual masks read the build values by the table's numbering.
      Side renumbered = build;
      for (size_t r = 0; r < side_row.size(); ++r) {
        renumbered.values[r] = build.values[static_cast<size_t>(side_row[r])];
      }
      std::vector<int64_t> probe_offsets(probe.batches.size());
      for (size_t b = 1; b < probe.batches.size(); ++b) {
        probe_offsets[b] = probe_offsets[b - 1] + probe.batches[b - 1][0].length();
      }
      std::mutex pairs_mutex;
      std::vector<Pair> pairs;
      {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
          threads.emplace_back([&, t] {
            std::vector<Pair> mine;
            const RunOptions options{.max_pairs = 17, .with_residual = residual};
            for (size_t b = static_cast<size_t>(t); b < probe.batches.size(); b += kThreads) {
              probe_batch(table, probe, b, probe_offsets[b], renumbered, options, mine);
            }
            std::lock_guard<std::mutex> lock(pairs_mutex);
            pairs.insert(pairs.end(), mine.begin(), mine.end());
          });
        }
        for (std::thread& thread : threads) {
          thread.join();
        }
      }
      collect_build_side(table, pairs, default_allocator());
      for (Pair& pair : pairs) {
        if (pair.second != kNoRow) {
          pair.second = side_row[static_cast<size_t>(pair.second)];
        }
      }
      std::sort(pairs.begin(), pairs.end());
      EXPECT_EQ(pairs, reference_join(probe, build, {false}, type, residual));
    }
  }
}

TEST(HashJoin, ResidualChunksDecideEachProbeRowOnce) {
  // A probe row whose candidates span several chunks is unmatched only if none passed in any
  // chunk: here only its last candidate passes.
  std::vector<std::optional<int64_t>> build_keys(25, int64_t{1});
  JoinHashTable table({int64()}, {}, JoinType::kLeftOuter);
  table.add(std::vector<Array>{make_array<int64_t>(build_keys)});
  table.finalize();
  JoinProbe cursor = table.probe(std::vector<Array>{make_array<int64_t>({1, 2})});
  JoinPairs out;
  std::vector<Pair> pairs;
  while (cursor.next_candidates(4)) {
    BooleanBuilder mask;
    for (const int64_t build_row : cursor.candidates().build_rows()) {
      mask.append(build_row == 24);
    }
    cursor.resolve(mask.finish(), out);
    append_pairs(out, pairs);
  }
  EXPECT_EQ(pairs, (std::vector<Pair>{{0, 24}, {1, kNoRow}}));
}

TEST(HashJoin, MisuseIsReported) {
  JoinHashTable table({int64(), utf8()}, {false, true}, JoinType::kLeftOuter);
  const std::vector<Array> keys = {make_array<int64_t>({1, 2}), make_string_array({"a", "b"})};
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              table.add(std::vector<Array>{keys[0]});
            }).find("expected 2 build key columns, got 1"),
            std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              table.add(std::vector<Array>{keys[1], keys[0]});
            }).find("build key column 0 has type string, expected int64"),
            std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              table.probe(keys);
            }).find("probe before finalize"),
            std::string::npos);
  table.add(keys);
  table.finalize();
  EXPECT_NE(
      testing::error_message<InvalidArgument>([&] { table.add(keys); }).find("after finalize"),
      std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              JoinPairs out;
              table.collect_build_rows(0, 2, out);
            }).find("left outer join outputs no build rows"),
            std::string::npos);
  JoinProbe cursor = table.probe(keys);
  JoinPairs out;
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              cursor.next(0, out);
            }).find("ask for at least one"),
            std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              cursor.resolve(make_array<bool>({true}), out);
            }).find("resolve without a chunk"),
            std::string::npos);
  ASSERT_TRUE(cursor.next_candidates(10));
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              cursor.resolve(make_array<bool>({true, false, true}), out);
            }).find("3 values for 2 candidates"),
            std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              cursor.resolve(make_array<int64_t>({1, 1}), out);
            }).find("must be boolean"),
            std::string::npos);
  EXPECT_NE(
      testing::error_message<InvalidArgument>([&] { cursor.next(5, out); }).find("await resolve"),
      std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([] {
              JoinHashTable({int64()}, {true, false}, JoinType::kInner);
            }).find("2 null-safe flags for 1 keys"),
            std::string::npos);
  EXPECT_NE(testing::error_message<InvalidArgument>([] {
              JoinHashTable({int64()}, {}, JoinType::kInner, default_allocator(),
                            JoinTableOptions{3});
            }).find("power of two"),
            std::string::npos);
  EXPECT_NE(testing::error_message<TypeError>([] {
              JoinHashTable({dense_union({field("a", int32())})}, {}, JoinType::kInner);
            }).find("cannot be joined on"),
            std::string::npos);
  JoinHashTable right({int64()}, {}, JoinType::kRightOuter);
  right.add(std::vector<Array>{make_array<int64_t>({1})});
  right.finalize();
  EXPECT_NE(testing::error_message<InvalidArgument>([&] {
              right.collect_build_rows(0, 2, out);
            }).find("[0, 2) is outside the 1 build rows"),
            std::string::npos);
}

TEST(HashJoin, OutOfMemoryLeavesNothingBehind) {
  // Under budgets from tiny to enough, the build and probe either succeed with the right result
  // or fail with the budget's OutOfMemory, and every byte goes back.
  std::mt19937_64 rng(21);
  for (const KeyKind kind : {KeyKind::kInt64, KeyKind::kString, KeyKind::kStruct}) {
    const Side build =
        make_side({kind}, SideSpec{.rows = 2000, .domain = 700, .batch_rows = 500}, rng);
    const Side probe =
        make_side({kind}, SideSpec{.rows = 300, .domain = 700, .batch_rows = 150}, rng);
    const std::vector<Pair> expected =
        reference_join(probe, build, {false}, JoinType::kFullOuter, false);
    CheckedAllocator checked(system_allocator());
    int failures = 0;
    bool succeeded = false;
    for (int64_t limit = 1024; !succeeded; limit *= 2) {
      BudgetedAllocator budget(&checked, limit, "join budget");
      try {
        const std::vector<Pair> pairs = run_join(probe, build, {false}, JoinType::kFullOuter,
                                                 RunOptions{.max_pairs = 64, .allocator = &budget});
        EXPECT_EQ(pairs, expected);
        succeeded = true;
      } catch (const OutOfMemory& error) {
        EXPECT_NE(std::string(error.what()).find("join budget"), std::string::npos);
        ++failures;
      }
      EXPECT_EQ(checked.bytes_in_use(), 0) << "with a budget of " << limit << " bytes";
    }
    EXPECT_GT(failures, 3);
    EXPECT_TRUE(checked.leaks().empty());
  }
}

}  // namespace
}  // namespace bowstring::compute
