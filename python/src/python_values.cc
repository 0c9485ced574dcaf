// Arrow values as the Python objects pyarrow's `as_py()` gives for them, converted column by
// column: a nested array converts each child once and then hands out slices of the result.

#include "python_values.h"

#include <datetime.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/compute/datetime/calendar.h"

namespace nb = nanobind;

namespace bowstring::python {
namespace {

using compute::civil_from_days;
using compute::CivilDate;
using compute::floor_div;
using compute::kMicrosPerSecond;
using compute::kSecondsPerDay;

// Days from 0001-01-01 (datetime's first day) and to 9999-12-31 (its last), from the epoch.
constexpr int64_t kFirstDay = -719162;
constexpr int64_t kLastDay = 2932896;
constexpr int64_t kMaxTimedeltaDays = 999999999;

[[noreturn]] void throw_out_of_range(const DataType& type, int64_t value, const char* python_type) {
  const std::string message = type.to_string() + " value " + std::to_string(value) +
                              " is outside the range of " + python_type;
  PyErr_SetString(PyExc_OverflowError, message.c_str());
  throw nb::python_error();
}

/// A list of `length` items, item `i` being `value(i)` or None where `is_null(i)`.
template <typename IsNull, typename Value>
nb::list build_list(int64_t length, IsNull is_null, Value value) {
  PyObject* created = PyList_New(static_cast<Py_ssize_t>(length));
  if (created == nullptr) {
    throw nb::python_error();
  }
  nb::list out = nb::steal<nb::list>(created);
  for (int64_t i = 0; i < length; ++i) {
    PyObject* item = is_null(i) ? nb::none().release().ptr() : nb::object(value(i)).release().ptr();
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), item);
  }
  return out;
}

template <typename Value>
nb::list build_list(const Array& array, Value value) {
  if (array.null_count() == 0) {
    return build_list(
        array.length(), [](int64_t) { return false; }, value);
  }
  return build_list(
      array.length(), [&](int64_t i) { return array.is_null(i); }, value);
}

nb::object steal_checked(PyObject* object) {
  if (object == nullptr) {
    throw nb::python_error();
  }
  return nb::steal(object);
}

nb::object utf8_value(std::string_view value) {
  return steal_checked(
      PyUnicode_DecodeUTF8(value.data(), static_cast<Py_ssize_t>(value.size()), nullptr));
}

nb::object bytes_value(std::string_view value) {
  return steal_checked(
      PyBytes_FromStringAndSize(value.data(), static_cast<Py_ssize_t>(value.size())));
}

nb::object item_of(const nb::list& values, int64_t i) {
  return nb::borrow(PyList_GET_ITEM(values.ptr(), static_cast<Py_ssize_t>(i)));
}

nb::object slice_of(const nb::list& values, int64_t begin, int64_t end) {
  return steal_checked(
      PyList_GetSlice(values.ptr(), static_cast<Py_ssize_t>(begin), static_cast<Py_ssize_t>(end)));
}

// Converts arrays of any type to lists of Python values.
class Converter {
 public:
  Converter() {
    if (PyDateTimeAPI == nullptr) {
      PyDateTime_IMPORT;
      if (PyDateTimeAPI == nullptr) {
        throw nb::python_error();
      }
    }
  }

  nb::list convert(const Array& array) {
    const DataType& type = *array.type();
    switch (type.id()) {
      case TypeId::kNull:
        return build_list(
            array.length(), [](int64_t) { return true; }, [](int64_t) { return nb::none(); });
      case TypeId::kBoolean: {
        const BooleanArray view(array);
        return build_list(array, [&](int64_t i) { return nb::bool_(view.value(i)); });
      }
      case TypeId::kInt8:
        return integers<int8_t>(array);
      case TypeId::kInt16:
        return integers<int16_t>(array);
      case TypeId::kInt32:
        return integers<int32_t>(array);
      case TypeId::kInt64:
        return integers<int64_t>(array);
      case TypeId::kUInt8:
        return integers<uint8_t>(array);
      case TypeId::kUInt16:
        return integers<uint16_t>(array);
      case TypeId::kUInt32:
        return integers<uint32_t>(array);
      case TypeId::kUInt64:
        return integers<uint64_t>(array);
      case TypeId::kFloat16: {
        const HalfFloatArray view(array);
        return build_list(array, [&](int64_t i) { return nb::float_(float16_to_float(view[i])); });
      }
      case TypeId::kFloat32: {
        const FloatArray view(array);
        return build_list(array, [&](int64_t i) { return nb::float_(view[i]); });
      }
      case TypeId::kFloat64: {
        const DoubleArray view(array);
        return build_list(array, [&](int64_t i) { return nb::float_(view[i]); });
      }
      case TypeId::kDecimal32:
      case TypeId::kDecimal64:
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        const DecimalArray view(array);
        nb::object decimal = module("decimal").attr("Decimal");
        return build_list(array, [&](int64_t i) { return decimal(view.format_value(i)); });
      }
      case TypeId::kDate32: {
        const Date32Array view(array);
        return build_list(array, [&](int64_t i) { return date_value(type, view[i]); });
      }
      case TypeId::kDate64: {
        const Date64Array view(array);
        return build_list(array, [&](int64_t i) {
          return date_value(type, floor_div(view[i], kSecondsPerDay * 1000));
        });
      }
      case TypeId::kTime32: {
        const Time32Array view(array);
        const TimeUnit unit = type_cast<TemporalUnitType>(type).unit();
        return build_list(array, [&](int64_t i) { return time_value(view[i], unit); });
      }
      case TypeId::kTime64: {
        const Time64Array view(array);
        const TimeUnit unit = type_cast<TemporalUnitType>(type).unit();
        return build_list(array, [&](int64_t i) { return time_value(view[i], unit); });
      }
      case TypeId::kTimestamp:
        return timestamps(array);
      case TypeId::kDuration:
        return durations(array);
      case TypeId::kIntervalMonths:
        return integers<int32_t>(array);
      case TypeId::kIntervalDayTime: {
        const DayTimeIntervalArray view(array);
        return build_list(
            array, [&](int64_t i) { return nb::make_tuple(view[i].days, view[i].milliseconds); });
      }
      case TypeId::kIntervalMonthDayNano: {
        const MonthDayNanoIntervalArray view(array);
        nb::object month_day_nano = module("pyarrow").attr("MonthDayNano");
        return build_list(array, [&](int64_t i) {
          return month_day_nano(nb::make_tuple(view[i].months, view[i].days, view[i].nanoseconds));
        });
      }
      case TypeId::kString:
        return binaries<StringArray>(array, utf8_value);
      case TypeId::kLargeString:
        return binaries<LargeStringArray>(array, utf8_value);
      case TypeId::kStringView:
        return binaries<BinaryViewArray>(array, utf8_value);
      case TypeId::kBinary:
        return binaries<BinaryArray>(array, bytes_value);
      case TypeId::kLargeBinary:
        return binaries<LargeBinaryArray>(array, bytes_value);
      case TypeId::kBinaryView:
        return binaries<BinaryViewArray>(array, bytes_value);
      case TypeId::kFixedSizeBinary:
        return binaries<FixedSizeBinaryArray>(array, bytes_value);
      case TypeId::kList:
        return lists<ListArray>(array);
      case TypeId::kLargeList:
        return lists<LargeListArray>(array);
      case TypeId::kListView:
        return list_views<ListViewArray>(array);
      case TypeId::kLargeListView:
        return list_views<LargeListViewArray>(array);
      case TypeId::kFixedSizeList: {
        const FixedSizeListArray view(array);
        const int64_t size = view.list_size();
        const nb::list values =
            convert(view.values().slice(array.offset() * size, array.length() * size));
        return build_list(array,
                          [&](int64_t i) { return slice_of(values, i * size, (i + 1) * size); });
      }
      case TypeId::kStruct:
        return structs(array);
      case TypeId::kMap:
        return maps(array);
      case TypeId::kDictionary: {
        const DictionaryArray view(array);
        const nb::list values = convert(view.dictionary());
        return build_list(array, [&](int64_t i) { return item_of(values, view.index(i)); });
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        return unions(array);
      case TypeId::kRunEndEncoded: {
        const RunEndEncodedArray view(array);
        const nb::list values = convert(view.values());
        return build_list(
            array.length(), [](int64_t) { return false; },
            [&](int64_t i) { return item_of(values, view.physical_index(i)); });
      }
      case TypeId::kExtension:
        return extensions(array);
    }
    throw nb::type_error(("cannot convert " + type.to_string() + " values to Python").c_str());
  }

 private:
  nb::object module(const char* name) { return nb::module_::import_(name); }

  template <typename T>
  nb::list integers(const Array& array) {
    const NumericArray<T> view(array);
    return build_list(array, [&](int64_t i) { return nb::int_(view[i]); });
  }

  template <typename View, typename Make>
  nb::list binaries(const Array& array, Make make) {
    const View view(array);
    return build_list(array, [&](int64_t i) { return make(view.value(i)); });
  }

  nb::object date_value(const DataType& type, int64_t days) {
    if (days < kFirstDay || days > kLastDay) {
      throw_out_of_range(type, days, "datetime.date");
    }
    const CivilDate date = civil_from_days(days);
    return steal_checked(PyDate_FromDate(static_cast<int>(date.year), date.month, date.day));
  }

  nb::object time_value(int64_t value, TimeUnit unit) {
    // Nanoseconds are truncated to microseconds, as pyarrow does.
    const int64_t per_second = units_per_second(unit);
    const int64_t seconds = floor_div(value, per_second);
    const int64_t micros = (value - seconds * per_second) * kMicrosPerSecond / per_second;
    if (seconds < 0 || seconds >= kSecondsPerDay) {
      throw nb::value_error(("time value " + std::to_string(value) + " (" +
                             std::string(time_unit_name(unit)) + ") is not within a day")
                                .c_str());
    }
    return steal_checked(PyTime_FromTime(static_cast<int>(seconds / 3600),
                                         static_cast<int>(seconds / 60 % 60),
                                         static_cast<int>(seconds % 60), static_cast<int>(micros)));
  }

  // A zone name as pyarrow reads it: "+05:30" is a fixed offset, anything else an IANA name.
  nb::object time_zone(const std::string& name) {
    nb::object datetime = module("datetime");
    const auto digit = [&](size_t i) { return name[i] >= '0' && name[i] <= '9'; };
    if (name.size() == 6 && (name[0] == '+' || name[0] == '-') && digit(1) && digit(2) &&
        name[3] == ':' && digit(4) && digit(5)) {
      const int hours = std::stoi(name.substr(1, 2));
      const int minutes = std::stoi(name.substr(4, 2));
      const int sign = name[0] == '-' ? -1 : 1;
      return datetime.attr("timezone")(
          steal_checked(PyDelta_FromDSU(0, sign * (hours * 3600 + minutes * 60), 0)));
    }
    return module("zoneinfo").attr("ZoneInfo")(name);
  }

  nb::list timestamps(const Array& array) {
    const auto& type = type_cast<TimestampType>(*array.type());
    const TimestampArray view(array);
    const bool zoned = !type.timezone().empty();
    const nb::object zone = zoned ? time_zone(type.timezone()) : nb::none();
    if (type.unit() == TimeUnit::kNano) {
      // pyarrow gives nanosecond timestamps as pandas Timestamps, which keep the nanoseconds.
      nb::object timestamp = module("pandas").attr("Timestamp");
      return build_list(array, [&](int64_t i) {
        return timestamp(view[i], nb::arg("unit") = "ns", nb::arg("tz") = zone);
      });
    }
    const int64_t per_second = units_per_second(type.unit());
    const int64_t per_day = per_second * kSecondsPerDay;
    return build_list(array, [&](int64_t i) {
      const int64_t value = view[i];
      const int64_t days = floor_div(value, per_day);
      if (days < kFirstDay || days > kLastDay) {
        throw_out_of_range(type, value, "datetime.datetime");
      }
      const int64_t in_day = value - days * per_day;
      const int64_t seconds = in_day / per_second;
      const int64_t micros = (in_day % per_second) * kMicrosPerSecond / per_second;
      const CivilDate date = civil_from_days(days);
      PyObject* utc = zoned ? PyDateTime_TimeZone_UTC : Py_None;
      nb::object moment = steal_checked(PyDateTimeAPI->DateTime_FromDateAndTime(
          static_cast<int>(date.year), date.month, date.day, static_cast<int>(seconds / 3600),
          static_cast<int>(seconds / 60 % 60), static_cast<int>(seconds % 60),
          static_cast<int>(micros), utc, PyDateTimeAPI->DateTimeType));
      return zoned ? moment.attr("astimezone")(zone) : moment;
    });
  }

  nb::list durations(const Array& array) {
    const auto& type = type_cast<TemporalUnitType>(*array.type());
    const DurationArray view(array);
    if (type.unit() == TimeUnit::kNano) {
      nb::object timedelta = module("pandas").attr("Timedelta");
      return build_list(array,
                        [&](int64_t i) { return timedelta(view[i], nb::arg("unit") = "ns"); });
    }
    const int64_t per_second = units_per_second(type.unit());
    const int64_t per_day = per_second * kSecondsPerDay;
    return build_list(array, [&](int64_t i) {
      const int64_t value = view[i];
      const int64_t days = floor_div(value, per_day);
      if (days < -kMaxTimedeltaDays || days > kMaxTimedeltaDays) {
        throw_out_of_range(type, value, "datetime.timedelta");
      }
      const int64_t in_day = value - days * per_day;
      return steal_checked(
          PyDelta_FromDSU(static_cast<int>(days), static_cast<int>(in_day / per_second),
                          static_cast<int>((in_day % per_second) * kMicrosPerSecond / per_second)));
    });
  }

  template <typename View>
  nb::list lists(const Array& array) {
    const View view(array);
    const int64_t first = array.length() == 0 ? 0 : view.value_offset(0);
    const int64_t last = array.length() == 0 ? 0 : view.value_offset(array.length());
    const nb::list values = convert(view.values().slice(first, last - first));
    return build_list(array, [&](int64_t i) {
      return slice_of(values, view.value_offset(i) - first, view.value_offset(i + 1) - first);
    });
  }

  template <typename View>
  nb::list list_views(const Array& array) {
    const View view(array);
    const nb::list values = convert(view.values());
    return build_list(array, [&](int64_t i) {
      return slice_of(values, view.value_offset(i), view.value_offset(i) + view.value_length(i));
    });
  }

  nb::list structs(const Array& array) {
    const StructArray view(array);
    std::vector<nb::object> names;
    std::vector<nb::list> fields;
    std::unordered_set<std::string> seen;
    for (int f = 0; f < view.num_fields(); ++f) {
      const std::string& name = array.type()->field(f)->name();
      if (!seen.insert(name).second) {
        throw nb::value_error(("cannot convert " + array.type()->to_string() +
                               " values to dicts: the field name '" + name + "' is used twice")
                                  .c_str());
      }
      names.push_back(utf8_value(name));
      fields.push_back(convert(view.field(f)));
    }
    return build_list(array, [&](int64_t i) {
      nb::dict row;
      for (size_t f = 0; f < fields.size(); ++f) {
        row[names[f]] = item_of(fields[f], i);
      }
      return row;
    });
  }

  // Maps are lists of (key, item) tuples, as pyarrow gives them by default.
  nb::list maps(const Array& array) {
    const MapArray view(array);
    const int64_t first = array.length() == 0 ? 0 : view.value_offset(0);
    const int64_t last = array.length() == 0 ? 0 : view.value_offset(array.length());
    const StructArray entries(view.values().slice(first, last - first));
    const nb::list keys = convert(entries.field(0));
    const nb::list items = convert(entries.field(1));
    return build_list(array, [&](int64_t i) {
      const int64_t begin = view.value_offset(i) - first;
      const int64_t end = view.value_offset(i + 1) - first;
      return build_list(
          end - begin, [](int64_t) { return false; },
          [&](int64_t j) {
            const int64_t entry = begin + j;
            return nb::make_tuple(item_of(keys, entry), item_of(items, entry));
          });
    });
  }

  nb::list unions(const Array& array) {
    const UnionArray view(array);
    std::vector<nb::list> children;
    for (int c = 0; c < array.type()->num_fields(); ++c) {
      children.push_back(convert(view.field(c)));
    }
    return build_list(
        array.length(), [](int64_t) { return false; },
        [&](int64_t i) {
          return item_of(children[static_cast<size_t>(view.child_id(i))], view.value_offset(i));
        });
  }

  nb::list extensions(const Array& array) {
    const ExtensionArray view(array);
    const std::string& name = view.extension_type().extension_name();
    const nb::list storage = convert(view.storage());
    const auto storage_null = [&](int64_t i) { return item_of(storage, i).is_none(); };
    const auto length = static_cast<int64_t>(storage.size());
    if (name == "arrow.uuid") {
      nb::object uuid = module("uuid").attr("UUID");
      return build_list(length, storage_null,
                        [&](int64_t i) { return uuid(nb::arg("bytes") = item_of(storage, i)); });
    }
    if (name == "arrow.bool8") {
      return build_list(length, storage_null, [&](int64_t i) {
        return nb::bool_(PyObject_IsTrue(item_of(storage, i).ptr()) == 1);
      });
    }
    return storage;
  }
};

}  // namespace

PyValues to_pylist(const Array& array) { return nb::borrow<PyValues>(Converter().convert(array)); }

PyValues to_pylist(const ChunkedArray& array) {
  Converter converter;
  PyValues out;
  for (const Array& chunk : array.chunks()) {
    nb::list values = converter.convert(chunk);
    if (PyList_SetSlice(out.ptr(), PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, values.ptr()) != 0) {
      throw nb::python_error();
    }
  }
  return out;
}

nb::any to_py(const Array& array, int64_t i) {
  return nb::borrow<nb::any>(item_of(Converter().convert(array.slice(i, 1)), 0));
}

}  // namespace bowstring::python
