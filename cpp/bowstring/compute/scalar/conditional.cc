#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/concatenate.h"
#include "bowstring/compute/core/kernel_util.h"
#include "bowstring/compute/core/predicate_util.h"
#include "bowstring/compute/scalar/conditional.h"
#include "bowstring/compute/scalar/predicates.h"
#include "bowstring/types/storage.h"
#include "bowstring/util/error.h"

namespace bowstring::compute {

namespace {

using detail::BitSource;

/// For each row, the source it takes its value from (an index into the sources), or
/// `kNullRow` for a null result.
using Selection = std::vector<int32_t>;
constexpr int32_t kNullRow = -1;

/// The physical row of `source` for call row `row`: a scalar stands for every row.
inline int64_t source_row(const Datum& source, int64_t row) { return source.is_scalar() ? 0 : row; }

/// The validity of the chosen rows: a row is valid when it has a source whose row is valid.
/// Returns nullptr when every row is valid.
std::shared_ptr<Buffer> chosen_validity(std::span<const Datum> sources, const Selection& selected,
                                        int64_t length, Allocator* allocator, int64_t* null_count) {
  std::vector<BitSource> valid;
  valid.reserve(sources.size());
  bool any_null = false;
  for (const Datum& source : sources) {
    valid.push_back(detail::validity_source(source));
    any_null = any_null || valid.back().bits != nullptr || valid.back().fill == 0;
  }
  for (int64_t i = 0; i < length && !any_null; ++i) {
    any_null = selected[static_cast<size_t>(i)] == kNullRow;
  }
  *null_count = 0;
  if (!any_null) {
    return nullptr;
  }
  detail::UninitializedBuffer bitmap = detail::output_bitmap(length, allocator);
  detail::write_predicate_bits(length, bitmap.mutable_data(), [&](int64_t i) {
    const int32_t s = selected[static_cast<size_t>(i)];
    if (s == kNullRow) {
      return false;
    }
    const BitSource& v = valid[static_cast<size_t>(s)];
    if (v.bits == nullptr) {
      return v.fill != 0;
    }
    return bit_util::get_bit(v.bits, v.offset + source_row(sources[static_cast<size_t>(s)], i));
  });
  *null_count = length - bit_util::count_set_bits(bitmap.data(), 0, length);
  if (*null_count == 0) {
    return nullptr;
  }
  return bitmap.finish();
}

template <int kWidth>
void gather_fixed(std::span<const Datum> sources, const Selection& selected, int64_t length,
                  int64_t width, uint8_t* out) {
  std::vector<const uint8_t*> bases;
  std::vector<int64_t> steps;
  for (const Datum& source : sources) {
    const ArrayData& data = *source.data();
    bases.push_back(data.buffers[1]->data() + data.offset * width);
    steps.push_back(source.is_scalar() ? 0 : width);
  }
  for (int64_t i = 0; i < length; ++i) {
    const int32_t s = selected[static_cast<size_t>(i)];
    if (s == kNullRow) {
      continue;
    }
    const uint8_t* value = bases[static_cast<size_t>(s)] + i * steps[static_cast<size_t>(s)];
    if constexpr (kWidth > 0) {
      std::memcpy(out + i * kWidth, value, kWidth);
    } else {
      std::memcpy(out + i * width, value, static_cast<size_t>(width));
    }
  }
}

std::shared_ptr<Buffer> choose_fixed(std::span<const Datum> sources, const Selection& selected,
                                     int64_t length, int64_t width, Allocator* allocator) {
  MutableBuffer values(length * width, allocator);
  uint8_t* out = values.mutable_data();
  switch (width) {
    case 1:
      gather_fixed<1>(sources, selected, length, width, out);
      break;
    case 2:
      gather_fixed<2>(sources, selected, length, width, out);
      break;
    case 4:
      gather_fixed<4>(sources, selected, length, width, out);
      break;
    case 8:
      gather_fixed<8>(sources, selected, length, width, out);
      break;
    case 16:
      gather_fixed<16>(sources, selected, length, width, out);
      break;
    default:
      gather_fixed<0>(sources, selected, length, width, out);
      break;
  }
  return values.finish();
}

std::shared_ptr<Buffer> choose_boolean_bits(std::span<const Datum> sources,
                                            const Selection& selected, int64_t length,
                                            Allocator* allocator) {
  std::vector<BitSource> bits;
  for (const Datum& source : sources) {
    bits.push_back(detail::boolean_values_source(source));
  }
  detail::UninitializedBuffer values = detail::output_bitmap(length, allocator);
  detail::write_predicate_bits(length, values.mutable_data(), [&](int64_t i) {
    const int32_t s = selected[static_cast<size_t>(i)];
    if (s == kNullRow) {
      return false;
    }
    const BitSource& b = bits[static_cast<size_t>(s)];
    return b.bits == nullptr ? b.fill != 0 : bit_util::get_bit(b.bits, b.offset + i);
  });
  return values.finish();
}

template <typename Offset>
std::vector<std::shared_ptr<Buffer>> choose_binary(std::span<const Datum> sources,
                                                   const Selection& selected, int64_t length,
                                                   Allocator* allocator) {
  std::vector<const Offset*> offsets;
  std::vector<const uint8_t*> data;
  for (const Datum& source : sources) {
    offsets.push_back(source.data()->template values<Offset>(1));
    data.push_back(source.data()->buffers[2]->data());
  }
  MutableBuffer out_offsets((length + 1) * static_cast<int64_t>(sizeof(Offset)), allocator);
  Offset* out = reinterpret_cast<Offset*>(out_offsets.mutable_data());
  int64_t total = 0;
  for (int64_t i = 0; i < length; ++i) {
    out[i] = static_cast<Offset>(total);
    const int32_t s = selected[static_cast<size_t>(i)];
    if (s != kNullRow) {
      const int64_t row = source_row(sources[static_cast<size_t>(s)], i);
      const Offset* o = offsets[static_cast<size_t>(s)];
      total += o[row + 1] - o[row];
      if constexpr (sizeof(Offset) == 4) {
        if (total > INT32_MAX) {
          throw InvalidArgument("result of more than 2 GiB does not fit 32-bit offsets of " +
                                sources[0].type()->to_string());
        }
      }
    }
  }
  out[length] = static_cast<Offset>(total);
  MutableBuffer out_data(total, allocator);
  uint8_t* bytes = out_data.mutable_data();
  for (int64_t i = 0; i < length; ++i) {
    const int32_t s = selected[static_cast<size_t>(i)];
    if (s != kNullRow) {
      const int64_t row = source_row(sources[static_cast<size_t>(s)], i);
      const Offset* o = offsets[static_cast<size_t>(s)];
      std::memcpy(bytes + out[i], data[static_cast<size_t>(s)] + o[row],
                  static_cast<size_t>(o[row + 1] - o[row]));
    }
  }
  return {out_offsets.finish(), out_data.finish()};
}

/// Views are copied; their data buffers are shared: the result lists every source's data
/// buffers one after the other and the buffer index of each copied view is shifted.
std::vector<std::shared_ptr<Buffer>> choose_views(std::span<const Datum> sources,
                                                  const Selection& selected, int64_t length,
                                                  Allocator* allocator) {
  std::vector<std::shared_ptr<Buffer>> buffers = {nullptr};
  std::vector<int32_t> first_buffer;
  std::vector<const BinaryView*> views;
  for (const Datum& source : sources) {
    const ArrayData& data = *source.data();
    first_buffer.push_back(static_cast<int32_t>(buffers.size() - 1));
    views.push_back(data.values<BinaryView>(1));
    buffers.insert(buffers.end(), data.buffers.begin() + 2, data.buffers.end());
  }
  MutableBuffer out_views(length * static_cast<int64_t>(sizeof(BinaryView)), allocator);
  BinaryView* out = reinterpret_cast<BinaryView*>(out_views.mutable_data());
  for (int64_t i = 0; i < length; ++i) {
    const int32_t s = selected[static_cast<size_t>(i)];
    if (s == kNullRow) {
      continue;
    }
    BinaryView view = views[static_cast<size_t>(s)][source_row(sources[static_cast<size_t>(s)], i)];
    if (!view.is_inline()) {
      view.ref.buffer_index += first_buffer[static_cast<size_t>(s)];
    }
    out[i] = view;
  }
  buffers[0] = out_views.finish();
  return buffers;
}

/// Any other type: the result is cut from runs of consecutive rows taken from one source and
/// concatenated (rows of a scalar or null runs are repeated).
Array choose_by_runs(const TypePtr& type, std::span<const Datum> sources, const Selection& selected,
                     int64_t length, Allocator* allocator) {
  std::vector<Array> pieces;
  Array null_value;
  int64_t start = 0;
  while (start < length) {
    const int32_t s = selected[static_cast<size_t>(start)];
    int64_t end = start + 1;
    while (end < length && selected[static_cast<size_t>(end)] == s) {
      ++end;
    }
    if (s == kNullRow) {
      if (!null_value) {
        null_value = Datum::null_scalar(type, allocator).array();
      }
      pieces.push_back(repeat(null_value, end - start, allocator));
    } else {
      const Datum& source = sources[static_cast<size_t>(s)];
      pieces.push_back(source.is_scalar() ? repeat(source.array(), end - start, allocator)
                                          : source.array().slice(start, end - start));
    }
    start = end;
  }
  if (pieces.empty()) {
    return Datum::null_scalar(type, allocator).array().slice(0, 0);
  }
  return pieces.size() == 1 ? pieces[0] : concatenate(pieces, allocator);
}

Array choose(const TypePtr& type, std::span<const Datum> sources, const Selection& selected,
             int64_t length, Allocator* allocator);

Array choose_struct(const TypePtr& type, std::span<const Datum> sources, const Selection& selected,
                    int64_t length, Allocator* allocator) {
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      chosen_validity(sources, selected, length, allocator, &null_count);
  std::vector<ArrayDataPtr> children;
  for (int f = 0; f < type->num_fields(); ++f) {
    std::vector<Datum> child_sources;
    for (const Datum& source : sources) {
      Array child = StructArray(source.array()).field(f);
      child_sources.push_back(source.is_scalar() ? Datum::scalar(child) : Datum(child));
    }
    children.push_back(
        choose(type->field(f)->type(), child_sources, selected, length, allocator).data());
  }
  return Array(std::make_shared<ArrayData>(type, length,
                                           std::vector<std::shared_ptr<Buffer>>{validity},
                                           null_count, 0, std::move(children)));
}

/// The array whose row i is row i of `sources[selected[i]]` (or null): the core of if, case
/// when, coalesce, nullif and nvl. Every source has type `type`.
Array choose(const TypePtr& type, std::span<const Datum> sources, const Selection& selected,
             int64_t length, Allocator* allocator) {
  const TypeId id = type->id();
  if (id == TypeId::kNull) {
    return Array(std::make_shared<ArrayData>(
        type, length, std::vector<std::shared_ptr<Buffer>>{nullptr}, length));
  }
  if (id == TypeId::kStruct) {
    return choose_struct(type, sources, selected, length, allocator);
  }
  std::vector<std::shared_ptr<Buffer>> buffers;
  if (id == TypeId::kBoolean) {
    buffers = {choose_boolean_bits(sources, selected, length, allocator)};
  } else if (id == TypeId::kString || id == TypeId::kBinary) {
    buffers = choose_binary<int32_t>(sources, selected, length, allocator);
  } else if (id == TypeId::kLargeString || id == TypeId::kLargeBinary) {
    buffers = choose_binary<int64_t>(sources, selected, length, allocator);
  } else if (is_view_type(id)) {
    buffers = choose_views(sources, selected, length, allocator);
  } else if (type->byte_width() > 0 && id != TypeId::kDictionary && id != TypeId::kExtension) {
    buffers = {choose_fixed(sources, selected, length, type->byte_width(), allocator)};
  } else {
    return choose_by_runs(type, sources, selected, length, allocator);
  }
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity =
      chosen_validity(sources, selected, length, allocator, &null_count);
  buffers.insert(buffers.begin(), std::move(validity));
  return Array(std::make_shared<ArrayData>(type, length, std::move(buffers), null_count));
}

/// Checks that every value source has the type of the first.
void check_value_types(std::span<const Datum> values, const char* function) {
  for (const Datum& value : values) {
    if (!value.type()->equals(*values[0].type())) {
      throw TypeError(std::string(function) + " needs values of one type, got " +
                      values[0].type()->to_string() + " and " + value.type()->to_string());
    }
  }
}

void check_condition(const Datum& condition, const char* function) {
  const TypeId id = condition.type()->storage_id();
  if (id != TypeId::kBoolean && id != TypeId::kNull) {
    throw TypeError(std::string(function) + " needs a boolean condition, got " +
                    condition.type()->to_string());
  }
}

/// Calls `visit(i)` for every row where `condition` (boolean or null type) is true.
template <typename Visit>
void for_each_true(const Datum& condition, int64_t length, Visit&& visit) {
  if (condition.type()->storage_id() == TypeId::kNull || condition.scalar_is_null()) {
    return;
  }
  const BitSource valid = detail::validity_source(condition);
  const BitSource value = detail::boolean_values_source(condition);
  for (int64_t row = 0; row < length; row += 64) {
    const int64_t count = std::min<int64_t>(64, length - row);
    uint64_t word = valid.word(row, count) & value.word(row, count);
    if (count < 64) {
      word &= (uint64_t{1} << count) - 1;
    }
    while (word != 0) {
      visit(row + std::countr_zero(word));
      word &= word - 1;
    }
  }
}

Datum choose_result(const TypePtr& type, std::span<const Datum> sources, const Selection& selected,
                    int64_t length, bool scalar, Allocator* allocator) {
  return detail::as_result(choose(type, sources, selected, length, allocator), scalar);
}

/// if_else for fixed-width values of `T` (integers, floats, dates...): one pass that selects
/// values 64 rows at a time from the condition's words, and validity selected word-wise.
template <typename T>
Array if_else_fixed(const Datum& cond, const Datum& then, const Datum& otherwise, int64_t length,
                    Allocator* allocator) {
  const BitSource cond_valid = detail::validity_source(cond);
  const BitSource cond_value = detail::boolean_values_source(cond);
  const auto values_of = [](const Datum& datum) {
    return reinterpret_cast<const T*>(datum.data()->buffers[1]->data()) + datum.data()->offset;
  };
  const T* a = values_of(then);
  const T* b = values_of(otherwise);
  const int64_t a_step = then.is_scalar() ? 0 : 1;
  const int64_t b_step = otherwise.is_scalar() ? 0 : 1;
  OutputValues<T> values(length, allocator);
  T* out = values.data();
  for (int64_t row = 0; row < length; row += 64) {
    const int64_t count = std::min<int64_t>(64, length - row);
    const uint64_t take_then = cond_valid.word(row, count) & cond_value.word(row, count);
    for (int64_t j = 0; j < count; ++j) {
      const int64_t i = row + j;
      out[i] = ((take_then >> j) & 1) != 0 ? a[i * a_step] : b[i * b_step];
    }
  }
  const BitSource then_valid = detail::validity_source(then);
  const BitSource otherwise_valid = detail::validity_source(otherwise);
  if (then_valid.bits == nullptr && then_valid.fill != 0 && otherwise_valid.bits == nullptr &&
      otherwise_valid.fill != 0) {
    return make_fixed_width_array(then.type(), length, nullptr, 0, values.finish());
  }
  detail::UninitializedBuffer validity = detail::output_bitmap(length, allocator);
  detail::write_words(length, validity.mutable_data(), [&](int64_t row, int64_t count) {
    const uint64_t take_then = cond_valid.word(row, count) & cond_value.word(row, count);
    return (take_then & then_valid.word(row, count)) |
           (~take_then & otherwise_valid.word(row, count));
  });
  const int64_t null_count = length - bit_util::count_set_bits(validity.data(), 0, length);
  return make_fixed_width_array(then.type(), length, null_count == 0 ? nullptr : validity.finish(),
                                null_count, values.finish());
}

/// coalesce for fixed-width values of `T`: the first argument's values and validity, then
/// each later argument fills the rows still null, skipping words that have no null left.
template <typename T>
Array coalesce_fixed(std::span<const Datum> values, int64_t length, Allocator* allocator) {
  OutputValues<T> out_values(length, allocator);
  T* out = out_values.data();
  MutableBuffer validity = detail::zeroed_bitmap(length, allocator);
  uint8_t* valid_bits = validity.mutable_data();
  const auto values_of = [](const Datum& datum) {
    return reinterpret_cast<const T*>(datum.data()->buffers[1]->data()) + datum.data()->offset;
  };
  for (size_t k = 0; k < values.size(); ++k) {
    const Datum& value = values[k];
    const T* source = values_of(value);
    const int64_t step = value.is_scalar() ? 0 : 1;
    const BitSource valid = detail::validity_source(value);
    for (int64_t row = 0; row < length; row += 64) {
      const int64_t count = std::min<int64_t>(64, length - row);
      const uint64_t all = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
      uint64_t have;
      std::memcpy(&have, valid_bits + (row >> 3), static_cast<size_t>((count + 7) / 8));
      have &= all;
      if (have == all) {
        continue;
      }
      const uint64_t fill = ~have & valid.word(row, count) & all;
      if (fill == all) {
        for (int64_t j = 0; j < count; ++j) {
          out[row + j] = source[(row + j) * step];
        }
      } else {
        for (uint64_t bits = fill; bits != 0; bits &= bits - 1) {
          const int64_t i = row + std::countr_zero(bits);
          out[i] = source[i * step];
        }
      }
      const uint64_t now = have | fill;
      std::memcpy(valid_bits + (row >> 3), &now, static_cast<size_t>((count + 7) / 8));
    }
  }
  const int64_t null_count = length - bit_util::count_set_bits(valid_bits, 0, length);
  return make_fixed_width_array(values[0].type(), length,
                                null_count == 0 ? nullptr : validity.finish(), null_count,
                                out_values.finish());
}

}  // namespace

Datum if_else(const Datum& cond, const Datum& then, const Datum& otherwise, Allocator* allocator) {
  check_condition(cond, "if");
  const Datum values[] = {then, otherwise};
  check_value_types(values, "if");
  const Datum arguments[] = {cond, then, otherwise};
  const int64_t length = detail::call_length(arguments, "if");
  const bool scalar = all_scalars(arguments);
  if (cond.is_scalar()) {
    // One branch for every row: no gathering.
    const bool take_then = !cond.scalar_is_null() && cond.type()->storage_id() != TypeId::kNull &&
                           BooleanArray(cond.array()).value(0);
    const Datum& chosen = take_then ? then : otherwise;
    if (chosen.is_scalar() && !scalar) {
      return Datum(repeat(chosen.array(), length, allocator));
    }
    return chosen;
  }
  const DataType& type = *then.type();
  if (type.id() != TypeId::kDictionary && type.id() != TypeId::kExtension &&
      cond.type()->id() == TypeId::kBoolean) {
    switch (type.bit_width()) {
      case 8:
        return if_else_fixed<uint8_t>(cond, then, otherwise, length, allocator);
      case 16:
        return if_else_fixed<uint16_t>(cond, then, otherwise, length, allocator);
      case 32:
        return if_else_fixed<uint32_t>(cond, then, otherwise, length, allocator);
      case 64:
        return if_else_fixed<uint64_t>(cond, then, otherwise, length, allocator);
      default:
        break;
    }
  }
  Selection selected(static_cast<size_t>(length), 1);
  for_each_true(cond, length, [&](int64_t i) { selected[static_cast<size_t>(i)] = 0; });
  return choose_result(then.type(), values, selected, length, scalar, allocator);
}

Datum case_when(std::span<const Datum> conditions, std::span<const Datum> values,
                const Datum& otherwise, Allocator* allocator) {
  if (conditions.size() != values.size() || conditions.empty()) {
    throw InvalidArgument("case when needs one value per condition and at least one condition");
  }
  std::vector<Datum> sources(values.begin(), values.end());
  if (otherwise) {
    sources.push_back(otherwise);
  }
  check_value_types(sources, "case when");
  std::vector<Datum> arguments(conditions.begin(), conditions.end());
  arguments.insert(arguments.end(), sources.begin(), sources.end());
  const int64_t length = detail::call_length(arguments, "case when");
  const bool scalar = all_scalars(arguments);
  const int32_t no_match = otherwise ? static_cast<int32_t>(values.size()) : kNullRow;
  Selection selected(static_cast<size_t>(length), no_match);
  std::vector<uint8_t> decided(static_cast<size_t>(length), 0);
  for (size_t k = 0; k < conditions.size(); ++k) {
    check_condition(conditions[k], "case when");
    for_each_true(conditions[k], conditions[k].is_scalar() ? 1 : length, [&](int64_t i) {
      if (conditions[k].is_scalar()) {
        for (int64_t row = 0; row < length; ++row) {
          if (!decided[static_cast<size_t>(row)]) {
            decided[static_cast<size_t>(row)] = 1;
            selected[static_cast<size_t>(row)] = static_cast<int32_t>(k);
          }
        }
      } else if (!decided[static_cast<size_t>(i)]) {
        decided[static_cast<size_t>(i)] = 1;
        selected[static_cast<size_t>(i)] = static_cast<int32_t>(k);
      }
    });
  }
  return choose_result(sources[0].type(), sources, selected, length, scalar, allocator);
}

Datum coalesce(std::span<const Datum> values, Allocator* allocator) {
  if (values.empty()) {
    throw InvalidArgument("coalesce needs at least one argument");
  }
  check_value_types(values, "coalesce");
  const int64_t length = detail::call_length(values, "coalesce");
  const bool scalar = all_scalars(values);
  const DataType& type = *values[0].type();
  if (type.id() != TypeId::kDictionary && type.id() != TypeId::kExtension) {
    switch (type.bit_width()) {
      case 8:
        return detail::as_result(coalesce_fixed<uint8_t>(values, length, allocator), scalar);
      case 16:
        return detail::as_result(coalesce_fixed<uint16_t>(values, length, allocator), scalar);
      case 32:
        return detail::as_result(coalesce_fixed<uint32_t>(values, length, allocator), scalar);
      case 64:
        return detail::as_result(coalesce_fixed<uint64_t>(values, length, allocator), scalar);
      default:
        break;
    }
  }
  Selection selected(static_cast<size_t>(length), kNullRow);
  int64_t undecided = length;
  for (size_t k = 0; k < values.size() && undecided > 0; ++k) {
    const Datum& value = values[k];
    if (value.type()->id() == TypeId::kNull || value.scalar_is_null()) {
      continue;
    }
    const BitSource valid = detail::validity_source(value);
    for (int64_t i = 0; i < length; ++i) {
      if (selected[static_cast<size_t>(i)] == kNullRow &&
          (valid.bits == nullptr || bit_util::get_bit(valid.bits, valid.offset + i))) {
        selected[static_cast<size_t>(i)] = static_cast<int32_t>(k);
        --undecided;
      }
    }
  }
  return choose_result(values[0].type(), values, selected, length, scalar, allocator);
}

Datum null_if(const Datum& left, const Datum& right, Allocator* allocator) {
  const Datum equal = compare(CompareOp::kEqual, left, right, allocator);
  const Datum arguments[] = {left, right};
  const int64_t length = detail::call_length(arguments, "nullif");
  const bool scalar = all_scalars(arguments);
  Selection selected(static_cast<size_t>(length), 0);
  for_each_true(equal, equal.is_scalar() ? 1 : length, [&](int64_t i) {
    if (equal.is_scalar()) {
      std::fill(selected.begin(), selected.end(), kNullRow);
    } else {
      selected[static_cast<size_t>(i)] = kNullRow;
    }
  });
  const Datum sources[] = {left};
  return choose_result(left.type(), sources, selected, length, scalar, allocator);
}

Datum nan_value(const Datum& left, const Datum& right, Allocator* allocator) {
  const Datum values[] = {left, right};
  check_value_types(values, "nanvl");
  const TypeId id = left.type()->id();
  if (id != TypeId::kFloat32 && id != TypeId::kFloat64 && id != TypeId::kNull) {
    throw TypeError("nanvl needs float or double arguments, got " + left.type()->to_string());
  }
  const int64_t length = detail::call_length(values, "nanvl");
  const bool scalar = all_scalars(values);
  const Datum nan =
      is_nan(left.is_scalar() ? Datum(repeat(left.array(), length, allocator)) : left, allocator);
  Selection selected(static_cast<size_t>(length), 0);
  for_each_true(nan, length, [&](int64_t i) { selected[static_cast<size_t>(i)] = 1; });
  return choose_result(left.type(), values, selected, length, scalar, allocator);
}

namespace {

/// Words of `length` rows, all set or all clear (bits past `length` clear).
RowWords filled_rows(int64_t length, bool set) {
  RowWords rows(static_cast<size_t>((length + 63) / 64), set ? ~uint64_t{0} : 0);
  if (set && length % 64 != 0) {
    rows.back() &= (uint64_t{1} << (length % 64)) - 1;
  }
  return rows;
}

/// Calls `update(word, row, count)` for every word of `rows`, the word's first row and its
/// number of rows.
template <typename Update>
void update_words(RowWords& rows, int64_t length, Update&& update) {
  for (int64_t row = 0; row < length; row += 64) {
    update(rows[static_cast<size_t>(row / 64)], row, std::min<int64_t>(64, length - row));
  }
}

/// The rows where `condition` (boolean, or the null type) is true.
RowWords true_rows(const Datum& condition, int64_t length) {
  if (condition.type()->storage_id() == TypeId::kNull) {
    return filled_rows(length, false);
  }
  const BitSource valid = detail::validity_source(condition);
  const BitSource value = detail::boolean_values_source(condition);
  RowWords rows = filled_rows(length, true);
  update_words(rows, length, [&](uint64_t& word, int64_t row, int64_t count) {
    word &= valid.word(row, count) & value.word(row, count);
  });
  return rows;
}

/// The rows where `value` is not null.
RowWords valid_rows(const Datum& value, int64_t length) {
  const Datum values[] = {value};
  std::optional<RowWords> rows = rows_where_valid(values, length);
  return rows ? std::move(*rows) : filled_rows(length, true);
}

/// `rows` with every bit flipped (bits past `length` stay clear).
RowWords complement(RowWords rows, int64_t length) {
  update_words(rows, length, [](uint64_t& word, int64_t, int64_t count) {
    word = ~word & (count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1);
  });
  return rows;
}

/// `rows`, or nullopt when it holds every row.
std::optional<RowWords> unless_every_row(RowWords rows, int64_t length) {
  int64_t count = 0;
  for (uint64_t word : rows) {
    count += std::popcount(word);
  }
  if (count == length) {
    return std::nullopt;
  }
  return rows;
}

/// Argument 1 where `taken` holds, argument 2 where it does not; argument 0 everywhere.
std::optional<RowWords> branch_rows(size_t index, RowWords taken, int64_t length) {
  return unless_every_row(index == 1 ? std::move(taken) : complement(std::move(taken), length),
                          length);
}

}  // namespace

std::optional<RowWords> if_rows_reading(size_t index, std::span<const Datum> arguments,
                                        int64_t length) {
  if (index == 0) {
    return std::nullopt;
  }
  return branch_rows(index, true_rows(arguments[0], length), length);
}

std::optional<RowWords> nvl2_rows_reading(size_t index, std::span<const Datum> arguments,
                                          int64_t length) {
  if (index == 0) {
    return std::nullopt;
  }
  return branch_rows(index, valid_rows(arguments[0], length), length);
}

std::optional<RowWords> coalesce_rows_reading(size_t index, std::span<const Datum> arguments,
                                              int64_t length) {
  if (index == 0) {
    return std::nullopt;
  }
  RowWords rows = filled_rows(length, true);
  for (size_t k = 0; k < index; ++k) {
    const RowWords valid = valid_rows(arguments[k], length);
    for (size_t w = 0; w < rows.size(); ++w) {
      rows[w] &= ~valid[w];
    }
  }
  return unless_every_row(std::move(rows), length);
}

std::optional<RowWords> case_when_rows_reading(size_t index, std::span<const Datum> arguments,
                                               int64_t length) {
  if (index == 0) {
    return std::nullopt;
  }
  // Condition k is argument 2k; its value 2k + 1; the else value, last, sits where condition
  // k would. An argument is read where no earlier condition is true, and a value also needs
  // its own condition true.
  const size_t condition = index / 2;
  RowWords rows =
      index % 2 == 1 ? true_rows(arguments[2 * condition], length) : filled_rows(length, true);
  for (size_t k = 0; k < condition; ++k) {
    const RowWords taken = true_rows(arguments[2 * k], length);
    for (size_t w = 0; w < rows.size(); ++w) {
      rows[w] &= ~taken[w];
    }
  }
  return unless_every_row(std::move(rows), length);
}

std::optional<RowWords> nanvl_rows_reading(size_t index, std::span<const Datum> arguments,
                                           int64_t length) {
  if (index == 0) {
    return std::nullopt;
  }
  const TypeId id = arguments[0].type()->id();
  if (id != TypeId::kFloat32 && id != TypeId::kFloat64) {
    return filled_rows(length, false);
  }
  return unless_every_row(true_rows(is_nan(arguments[0]), length), length);
}

std::optional<RowWords> in_rows_reading(size_t index, std::span<const Datum> arguments,
                                        int64_t length) {
  if (index == 0) {
    return std::nullopt;
  }
  RowWords rows = valid_rows(arguments[0], length);
  for (size_t k = 1; k < index; ++k) {
    const RowWords found =
        true_rows(compare(CompareOp::kEqual, arguments[0], arguments[k]), length);
    for (size_t w = 0; w < rows.size(); ++w) {
      rows[w] &= ~found[w];
    }
  }
  return unless_every_row(std::move(rows), length);
}

Datum between(const Datum& value, const Datum& low, const Datum& high, Allocator* allocator) {
  return kleene_and(compare(CompareOp::kGreaterEqual, value, low, allocator),
                    compare(CompareOp::kLessEqual, value, high, allocator), allocator);
}

}  // namespace bowstring::compute
