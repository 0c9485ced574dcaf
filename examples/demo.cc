// The Bowstring demo job: builds a day of sensor readings with builders, checks and prints
// them, aggregates zero-copy slices of the batch on several threads, writes them to an Arrow
// IPC file and maps it back without copying, evaluates Spark SQL expressions and a grouped
// aggregation over it, and shows where the memory went.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "bowstring/array/builder_binary.h"
#include "bowstring/array/builder_dict.h"
#include "bowstring/array/builder_nested.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/pretty_print.h"
#include "bowstring/compute/aggregate/group_by.h"
#include "bowstring/expr/bind.h"
#include "bowstring/expr/expression.h"
#include "bowstring/interchange/io.h"
#include "bowstring/interchange/ipc.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/table/record_batch.h"

namespace bs = bowstring;

namespace {

constexpr int64_t kReadings = 1'000'000;
const std::vector<std::string> kCities = {"Lisbon", "Nairobi", "Osaka", "Quito", "Tromsø"};

void print_stats(const char* when) {
  const bs::AllocatorStats stats = bs::default_allocator()->stats();
  std::printf(
      "%-28s bytes in use %11lld   peak %11lld   total allocated %11lld   allocations %6lld\n",
      when, static_cast<long long>(stats.bytes_in_use), static_cast<long long>(stats.peak_bytes),
      static_cast<long long>(stats.total_allocated), static_cast<long long>(stats.allocations));
}

/// One day of readings: sensor id, city (dictionary encoded), time, temperature (null when the
/// sensor failed) and the last three humidity samples.
bs::RecordBatch make_readings(int64_t count) {
  std::mt19937_64 rng(2024);
  std::normal_distribution<double> temperature(18.0, 7.5);
  const int64_t midnight_ms = 1'717'200'000'000;

  bs::Int64Builder sensors;
  bs::DictionaryBuilder cities(bs::dictionary(bs::int8(), bs::utf8()));
  bs::TimestampBuilder times(bs::timestamp(bs::TimeUnit::kMilli, "UTC"));
  bs::DoubleBuilder temperatures;
  bs::ListBuilder humidity(bs::list(bs::float32()));
  auto& humidity_values = humidity.value_builder().as<bs::FloatBuilder>();

  sensors.reserve(count);
  times.reserve(count);
  temperatures.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t sensor = static_cast<int64_t>(rng() % 5000);
    sensors.unsafe_append(sensor);
    cities.append(std::string_view(kCities[static_cast<size_t>(sensor) % kCities.size()]));
    times.unsafe_append(midnight_ms + i * 86);
    if (rng() % 100 == 0) {
      temperatures.append_null();
    } else {
      temperatures.unsafe_append(std::round(temperature(rng) * 10) / 10);
    }
    humidity.append();
    for (int sample = 0; sample < 3; ++sample) {
      humidity_values.append(static_cast<float>(40 + rng() % 50));
    }
  }
  bs::SchemaPtr schema = bs::schema({
      bs::field("sensor", bs::int64(), false),
      bs::field("city", cities.type()),
      bs::field("time", times.type(), false),
      bs::field("temperature", bs::float64()),
      bs::field("humidity", humidity.type()),
  });
  return bs::RecordBatch(schema, {sensors.finish(), cities.finish(), times.finish(),
                                  temperatures.finish(), humidity.finish()});
}

struct Summary {
  int64_t rows = 0;
  int64_t valid = 0;
  double sum = 0;
  double max = -INFINITY;
};

/// Aggregates the temperature column of one slice. The slice shares the batch's buffers.
Summary summarize(const bs::RecordBatch& slice) {
  const bs::DoubleArray temperatures(slice.column("temperature"));
  Summary summary;
  summary.rows = temperatures.length();
  for (std::optional<double> value : temperatures) {
    if (value) {
      ++summary.valid;
      summary.sum += *value;
      summary.max = std::max(summary.max, *value);
    }
  }
  return summary;
}

/// Every buffer of `array` and its children and dictionary that lies inside [begin, end), and
/// the number of non-empty buffers looked at.
void count_buffers_inside(const bs::ArrayData& array, const uint8_t* begin, const uint8_t* end,
                          int64_t& inside, int64_t& total) {
  for (const auto& buffer : array.buffers) {
    if (buffer == nullptr || buffer->size() == 0) {
      continue;
    }
    ++total;
    if (buffer->data() >= begin && buffer->data() + buffer->size() <= end) {
      ++inside;
    }
  }
  for (const auto& child : array.children) {
    count_buffers_inside(*child, begin, end, inside, total);
  }
  if (array.dictionary) {
    count_buffers_inside(*array.dictionary, begin, end, inside, total);
  }
}

/// Writes the readings to an Arrow IPC file (and a zstd-compressed one, for its size), maps the
/// file back and checks that the columns read point into the mapping rather than into copies.
/// Returns whether the data came back equal and uncopied.
bool round_trip_through_ipc_file(const bs::RecordBatch& readings) {
  const std::filesystem::path directory = std::filesystem::temp_directory_path();
  const std::string path = (directory / "bowstring_demo_readings.arrow").string();
  const std::string zstd_path = (directory / "bowstring_demo_readings.zstd.arrow").string();
  const auto started = std::chrono::steady_clock::now();
  {
    auto sink = std::make_shared<bs::FileOutputStream>(path);
    bs::ipc::FileWriter writer(sink, readings.schema());
    // Four batches, so that the file's footer has something to index.
    const int64_t per_batch = readings.num_rows() / 4;
    for (int64_t offset = 0; offset < readings.num_rows(); offset += per_batch) {
      writer.write(readings.slice(offset, std::min(per_batch, readings.num_rows() - offset)));
    }
    writer.close();
    sink->close();
  }
  const double write_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  {
    auto sink = std::make_shared<bs::FileOutputStream>(zstd_path);
    bs::ipc::WriteOptions options;
    options.compression = bs::Compression::kZstd;
    bs::ipc::FileWriter writer(sink, readings.schema(), options);
    writer.write(readings);
    writer.close();
    sink->close();
  }
  std::printf("\nwrote %s (%lld bytes in %.0f ms; with zstd: %lld bytes)\n", path.c_str(),
              static_cast<long long>(std::filesystem::file_size(path)), write_ms,
              static_cast<long long>(std::filesystem::file_size(zstd_path)));

  const int64_t in_use_before = bs::default_allocator()->bytes_in_use();
  const std::shared_ptr<bs::MemoryMappedFile> mapped = bs::MemoryMappedFile::open(path);
  const std::unique_ptr<bs::ipc::FileReader> reader = bs::ipc::FileReader::open(mapped);
  const bs::Table table = reader->read_all();
  const uint8_t* begin = mapped->buffer()->data();
  const uint8_t* end = begin + mapped->buffer()->size();
  int64_t inside = 0;
  int64_t total = 0;
  for (const bs::ChunkedArray& column : table.columns()) {
    for (const bs::Array& chunk : column.chunks()) {
      count_buffers_inside(*chunk.data(), begin, end, inside, total);
    }
  }
  const bool equal = table.equals(bs::Table::from_batches({readings}));
  std::printf(
      "mapped it back: %d record batches, %lld rows, equal to what was written: %s\n"
      "%lld of %lld buffers point into the mapping (not copied); heap bytes used by reading: "
      "%lld\n",
      reader->num_record_batches(), static_cast<long long>(table.num_rows()), equal ? "yes" : "no",
      static_cast<long long>(inside), static_cast<long long>(total),
      static_cast<long long>(bs::default_allocator()->bytes_in_use() - in_use_before));
  std::filesystem::remove(path);
  std::filesystem::remove(zstd_path);
  return equal && inside == total;
}

/// Spark SQL expressions over the readings: a projection with arithmetic, a string function and
/// CASE WHEN, a filter, and count/sum/avg of the temperature per hour of the day. Returns false
/// when the per-hour counts and sums do not add up to `total` from the parallel pass.
bool evaluate_expressions(const bs::RecordBatch& readings, const Summary& total) {
  namespace ex = bs::expr;
  bs::compute::ExecContext context;
  context.session_time_zone = "Europe/Lisbon";
  const bs::Schema& schema = *readings.schema();

  const std::vector<ex::BoundExpression> projection = {
      ex::bind_expression(ex::col("sensor"), schema),
      ex::bind_expression(
          ex::alias(
              ex::call("+", {ex::call("/", {ex::call("*", {ex::col("temperature"), ex::lit(9)}),
                                            ex::lit(5)}),
                             ex::lit(32)}),
              "fahrenheit"),
          schema),
      ex::bind_expression(
          ex::call("upper", {ex::call("date_format", {ex::col("time"), ex::lit("EEE HH:mm")})}),
          schema),
      ex::bind_expression(
          ex::alias(ex::case_when(
                        {{ex::is_null(ex::col("temperature")), ex::lit("failed")},
                         {ex::call(">", {ex::col("temperature"), ex::lit(25)}), ex::lit("hot")}},
                        ex::lit("ok")),
                    "status"),
          schema),
  };
  const ex::BoundExpression hot_afternoons = ex::bind_expression(
      ex::and_(
          ex::call(">", {ex::col("temperature"), ex::lit(30)}),
          ex::call("between", {ex::call("hour", {ex::col("time")}), ex::lit(12), ex::lit(18)})),
      schema);

  std::cout << "\nSpark SQL expressions (session time zone " << context.session_time_zone
            << "), as bound with their implicit casts:\n";
  for (const auto& expression : projection) {
    std::cout << "  " << expression.to_string() << "  ->  " << expression.field()->to_string()
              << "\n";
  }
  std::cout << "  WHERE " << hot_afternoons.to_string() << "\n";

  const auto started = std::chrono::steady_clock::now();
  const bs::RecordBatch projected = ex::project(readings, projection, {}, context);
  const bs::RecordBatch filtered = ex::filter(readings, hot_afternoons, context);
  const bs::compute::Datum time(readings.column("time"));
  const bs::Array hours = bs::compute::call("hour", {&time, 1}, {}, &context).array();
  const bs::compute::Datum temperature(readings.column("temperature"));
  const std::vector<bs::compute::AggregateCall> aggregates = {
      {"count", {temperature}, {}}, {"sum", {temperature}, {}}, {"avg", {temperature}, {}}};
  const std::vector<bs::Array> per_hour = bs::compute::group_by({&hours, 1}, aggregates, context);
  const double elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();

  bs::PrettyPrintOptions options;
  options.window = 3;
  std::cout << "\n" << projected.slice(0, 6).to_string(options) << "\n";
  std::printf("hot afternoon readings (the WHERE above): %lld of %lld\n",
              static_cast<long long>(filtered.num_rows()),
              static_cast<long long>(readings.num_rows()));

  const bs::Int32Array hour_keys(per_hour[0]);
  const bs::Int64Array counts(per_hour[1]);
  const bs::DoubleArray sums(per_hour[2]);
  const bs::DoubleArray averages(per_hour[3]);
  int64_t counted = 0;
  double summed = 0;
  std::printf("\nhour  readings  mean temperature (GROUP BY hour(time): %lld groups)\n",
              static_cast<long long>(hour_keys.length()));
  for (int64_t group = 0; group < hour_keys.length(); ++group) {
    counted += counts.value(group);
    summed += sums.value(group);
    if (group < 4) {
      std::printf("%4d  %8lld  %.2f\n", hour_keys.value(group),
                  static_cast<long long>(counts.value(group)), averages.value(group));
    }
  }
  std::printf("...\nprojection, filter and grouped aggregation in %.0f ms\n", elapsed_ms);
  const bool adds_up = counted == total.valid && std::abs(summed - total.sum) < 1e-6 * total.sum;
  std::printf("per-hour counts and sums add up to the parallel pass's: %s\n",
              adds_up ? "yes" : "NO");
  return adds_up;
}

}  // namespace

int main() {
  std::printf("Bowstring %s, default allocator: %s\n\n", BOWSTRING_VERSION,
              bs::default_allocator()->name().c_str());
  print_stats("at start");

  {
    // The article's example: a string array, its slice, and the buffers behind them.
    bs::StringBuilder builder;
    builder.append("hello");
    builder.append("apache arrow");
    builder.append_null();
    const bs::Array words = builder.finish();
    builder.append("the builder is reusable");
    const bs::Array again = builder.finish();
    std::cout << "\nwords:          " << words.to_string() << "\n";
    std::cout << "words[1:3]:     " << words.slice(1, 2).to_string() << "\n";
    std::cout << "second array:   " << again.to_string() << "\n\n";
    std::cout << bs::hex_dump(words) << "\n";
  }

  const auto started = std::chrono::steady_clock::now();
  bs::RecordBatch readings = make_readings(kReadings);
  readings.validate_full();
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  std::printf("built and validated %lld readings in %.0f ms\n", static_cast<long long>(kReadings),
              build_ms);
  print_stats("after building");

  bs::PrettyPrintOptions options;
  options.window = 3;
  std::cout << "\n" << readings.slice(0, 10).to_string(options) << "\n";

  // Parallel aggregation over zero-copy slices on the process's thread pool: each task gets a
  // view of the same buffers.
  const int tasks = std::max(2, bs::hardware_threads());
  const int64_t per_task = (readings.num_rows() + tasks - 1) / tasks;
  std::vector<bs::RecordBatch> slices;
  for (int64_t offset = 0; offset < readings.num_rows(); offset += per_task) {
    const bs::RecordBatch slice =
        readings.slice(offset, std::min(per_task, readings.num_rows() - offset));
    const bool shares = slice.column("temperature").data()->buffers[1] ==
                        readings.column("temperature").data()->buffers[1];
    std::printf("slice [%7lld, +%lld) shares the batch's buffers: %s\n",
                static_cast<long long>(offset), static_cast<long long>(slice.num_rows()),
                shares ? "yes" : "no");
    slices.push_back(slice);
  }
  std::vector<Summary> parts(slices.size());
  bs::parallel_for(static_cast<int64_t>(slices.size()), tasks, [&](int64_t i, int) {
    parts[static_cast<size_t>(i)] = summarize(slices[static_cast<size_t>(i)]);
  });
  const size_t slice_count = slices.size();
  slices.clear();  // the slices keep the batch's buffers alive
  Summary total;
  for (const Summary& part : parts) {
    total.rows += part.rows;
    total.valid += part.valid;
    total.sum += part.sum;
    total.max = std::max(total.max, part.max);
  }
  std::printf(
      "\n%lld readings, %lld with a temperature: mean %.2f, max %.1f (%zu slices on a "
      "pool of %d threads)\n",
      static_cast<long long>(total.rows), static_cast<long long>(total.valid),
      total.sum / static_cast<double>(total.valid), total.max, slice_count, bs::hardware_threads());
  print_stats("after the parallel pass");

  {
    const bs::DictionaryArray cities(readings.column("city"));
    std::cout << "\ncity dictionary: " << cities.dictionary().to_string() << "\n";
    std::cout << "city indices:    " << bs::pretty_print(cities.indices().slice(0, 10), options)
              << "\n";
  }

  const bool ipc_ok = round_trip_through_ipc_file(readings);
  const bool expressions_ok = evaluate_expressions(readings, total);
  print_stats("after the expressions");

  readings = bs::RecordBatch(bs::schema({}), {});
  print_stats("after dropping the batch");
  return ipc_ok && expressions_ok && bs::default_allocator()->bytes_in_use() == 0 ? 0 : 1;
}
