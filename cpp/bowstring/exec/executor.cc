#include "bowstring/exec/executor.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <tuple>
#include <utility>

#include "bowstring/array/builder.h"
#include "bowstring/array/builder_primitive.h"
#include "bowstring/array/concatenate.h"
#include "bowstring/compute/aggregate/grouper.h"
#include "bowstring/compute/vector/selection.h"
#include "bowstring/compute/window/window.h"
#include "bowstring/runtime/parallel.h"
#include "bowstring/runtime/thread_pool.h"
#include "bowstring/util/error.h"

namespace bowstring::exec {

namespace {

using Kind = PhysicalNode::Kind;

/// An out-of-memory error that names the operator it happened in.
class OperatorOutOfMemory : public OutOfMemory {
 public:
  using OutOfMemory::OutOfMemory;
};

/// A morsel's place in the order of a sink's input: the position of the pipeline that made it
/// among those feeding the sink, then its position in that pipeline's source.
struct MorselOrder {
  int64_t sequence = 0;
  int64_t index = 0;
  bool operator<(const MorselOrder& other) const {
    return std::tie(sequence, index) < std::tie(other.sequence, other.index);
  }
};

/// A unit of work a source hands to a thread: usually one batch; the batches of one split of
/// a file, which one thread reads together.
struct Morsel {
  std::vector<RecordBatch> batches;
  /// Its place in the source's order.
  int64_t index = 0;
};

/// Hands out morsels to the threads of a pipeline, in order; thread-safe.
class Source {
 public:
  virtual ~Source() = default;
  /// The next morsel, or nullopt when there are no more.
  virtual std::optional<Morsel> next() = 0;
  /// Morsels in all, or -1 when unknown.
  virtual int64_t total() const = 0;
};

/// Morsels that already exist: slices of a table or of a finalized sink's batches.
class BatchSource final : public Source {
 public:
  explicit BatchSource(std::vector<RecordBatch> batches) : batches_(std::move(batches)) {}

  std::optional<Morsel> next() override {
    const int64_t index = next_.fetch_add(1, std::memory_order_relaxed);
    if (index >= static_cast<int64_t>(batches_.size())) {
      return std::nullopt;
    }
    return Morsel{{batches_[static_cast<size_t>(index)]}, index};
  }
  int64_t total() const override { return static_cast<int64_t>(batches_.size()); }

 private:
  std::vector<RecordBatch> batches_;
  std::atomic<int64_t> next_{0};
};

/// The values of a range, made morsel by morsel.
class RangeSource final : public Source {
 public:
  RangeSource(const PhysicalNode& node, int64_t morsel_rows, Allocator* allocator)
      : schema_(node.schema),
        start_(node.start),
        step_(node.step),
        morsel_rows_(morsel_rows),
        allocator_(allocator) {
    // Rows = ceil((end - start) / step) when the range goes the step's way, computed without
    // overflow in 128 bits.
    const __int128 span = static_cast<__int128>(node.end) - node.start;
    const __int128 step = node.step;
    __int128 rows = 0;
    if ((span > 0 && step > 0) || (span < 0 && step < 0)) {
      rows = (span + step + (step > 0 ? -1 : 1)) / step;
    }
    rows_ = static_cast<int64_t>(rows);
    morsels_ = (rows_ + morsel_rows_ - 1) / morsel_rows_;
  }

  std::optional<Morsel> next() override {
    const int64_t index = next_.fetch_add(1, std::memory_order_relaxed);
    if (index >= morsels_) {
      return std::nullopt;
    }
    const int64_t first = index * morsel_rows_;
    const int64_t count = std::min(morsel_rows_, rows_ - first);
    Int64Builder builder(allocator_);
    builder.reserve(count);
    int64_t value = start_ + first * step_;
    for (int64_t i = 0; i < count; ++i, value += step_) {
      builder.append(value);
    }
    return Morsel{{RecordBatch(schema_, count, {builder.finish()})}, index};
  }
  int64_t total() const override { return morsels_; }

 private:
  SchemaPtr schema_;
  int64_t start_;
  int64_t step_;
  int64_t morsel_rows_;
  Allocator* allocator_;
  int64_t rows_ = 0;
  int64_t morsels_ = 0;
  std::atomic<int64_t> next_{0};
};

/// The splits of a file scan, each read by the thread that takes it.
class FileScanSource final : public Source {
 public:
  FileScanSource(const PhysicalNode& node, int64_t morsel_rows, const compute::ExecContext& context)
      : scan_(*node.file_scan), morsel_rows_(morsel_rows), context_(context) {}

  std::optional<Morsel> next() override {
    const int64_t index = next_.fetch_add(1, std::memory_order_relaxed);
    if (index >= total()) {
      return std::nullopt;
    }
    compute::ExecContext context = context_;
    return Morsel{read_file_split(scan_, static_cast<size_t>(index), morsel_rows_, context), index};
  }
  int64_t total() const override { return static_cast<int64_t>(scan_.splits.size()); }

 private:
  const FileScanPlan& scan_;
  int64_t morsel_rows_;
  compute::ExecContext context_;
  std::atomic<int64_t> next_{0};
};

/// Receives the batches a transform makes.
using Emit = std::function<void(const RecordBatch&)>;

/// A step of a pipeline that keeps no state between morsels: it turns each batch into batches
/// (in order) that go on to the next step.
class Transform {
 public:
  explicit Transform(const PhysicalNode* node) : node_(node) {}
  virtual ~Transform() = default;
  /// `morsel` is the morsel's index in its source (random samples draw from it).
  virtual void run(const RecordBatch& batch, compute::ExecContext& context, int64_t morsel,
                   const Emit& emit) const = 0;
  const PhysicalNode& node() const { return *node_; }

 private:
  const PhysicalNode* node_;
};

/// A transform making one batch of each.
class MapTransform : public Transform {
 public:
  using Transform::Transform;
  virtual RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                            int64_t morsel) const = 0;
  void run(const RecordBatch& batch, compute::ExecContext& context, int64_t morsel,
           const Emit& emit) const final {
    emit(apply(batch, context, morsel));
  }
};

class FilterTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                    int64_t) const override {
    return expr::filter(batch, *node().predicate, context);
  }
};

class ProjectTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                    int64_t) const override {
    const std::vector<std::string> names = node().schema->field_names();
    RecordBatch projected = expr::project(batch, node().expressions, names, context);
    // Nullability follows the plan's attributes, not what evaluation could prove.
    return RecordBatch(node().schema, projected.num_rows(), projected.columns());
  }
};

/// The batches of one input of a union, labelled with the union's columns.
class RelabelTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext&, int64_t) const override {
    return RecordBatch(node().schema, batch.num_rows(), batch.columns());
  }
};

/// Concatenates batches (of `schema`) into one.
RecordBatch concatenate_batches(const SchemaPtr& schema, const std::vector<RecordBatch>& batches,
                                Allocator* allocator) {
  if (batches.size() == 1) {
    return batches[0];
  }
  std::vector<Array> columns;
  int64_t rows = 0;
  for (const RecordBatch& batch : batches) {
    rows += batch.num_rows();
  }
  for (int c = 0; c < schema->num_fields(); ++c) {
    std::vector<Array> chunks;
    for (const RecordBatch& batch : batches) {
      chunks.push_back(batch.column(c));
    }
    columns.push_back(chunks.empty() ? make_builder(schema->field(c)->type(), allocator)->finish()
                                     : concatenate(chunks, allocator));
  }
  return RecordBatch(schema, rows, std::move(columns));
}

/// Rows of `batch` taken at `indices`, labelled with `schema`.
RecordBatch take_rows(const RecordBatch& batch, std::vector<int64_t>& indices,
                      const SchemaPtr& schema, Allocator* allocator) {
  const Array taken_indices = [&] {
    Int64Builder builder(allocator);
    builder.reserve(static_cast<int64_t>(indices.size()));
    for (int64_t index : indices) {
      builder.append(index);
    }
    return builder.finish();
  }();
  const RecordBatch taken = compute::take(batch, taken_indices, allocator);
  return RecordBatch(schema, taken.num_rows(), taken.columns());
}

/// Every row once per grouping set.
class ExpandTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                    int64_t) const override {
    std::vector<RecordBatch> copies;
    for (const std::vector<expr::BoundExpression>& projection : node().projections) {
      std::vector<Array> columns;
      for (const expr::BoundExpression& expression : projection) {
        columns.push_back(
            expression.evaluate(batch, context).to_array(batch.num_rows(), context.allocator));
      }
      copies.emplace_back(node().schema, batch.num_rows(), std::move(columns));
    }
    return concatenate_batches(node().schema, copies, context.allocator);
  }
};

/// The rows a generator makes of each input row, beside that row's columns.
class GenerateTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                    int64_t) const override {
    std::vector<compute::Datum> arguments;
    for (const expr::BoundExpression& argument : node().expressions) {
      arguments.push_back(argument.evaluate(batch, context));
    }
    compute::GeneratorResult generated = node().generator->generate(arguments, context);
    const RecordBatch repeated = compute::take(batch, generated.input_rows, context.allocator);
    std::vector<Array> columns = repeated.columns();
    for (Array& column : generated.columns) {
      columns.push_back(std::move(column));
    }
    return RecordBatch(node().schema, generated.input_rows.length(), std::move(columns));
  }
};

/// Every row as many times as its count says (none for null, zero or less).
class ReplicateTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                    int64_t) const override {
    const Array counts = node()
                             .expressions[0]
                             .evaluate(batch, context)
                             .to_array(batch.num_rows(), context.allocator);
    const auto& values = counts.as<Int64Array>();
    std::vector<int64_t> indices;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      if (!values.is_null(row)) {
        for (int64_t i = 0; i < values.value(row); ++i) {
          indices.push_back(row);
        }
      }
    }
    return take_rows(batch, indices, node().schema, context.allocator);
  }
};

/// Bernoulli (or, with replacement, Poisson) sampling; each morsel draws from its own
/// generator, seeded by the sample's seed and the morsel's index, so that a plan run with the
/// same morsel size samples the same rows whatever thread takes which morsel.
class SampleTransform final : public MapTransform {
 public:
  using MapTransform::MapTransform;
  RecordBatch apply(const RecordBatch& batch, compute::ExecContext& context,
                    int64_t morsel) const override {
    std::mt19937_64 generator(
        mix(static_cast<uint64_t>(node().seed), static_cast<uint64_t>(morsel)));
    std::vector<int64_t> indices;
    if (node().with_replacement) {
      std::poisson_distribution<int64_t> draws(node().fraction);
      for (int64_t row = 0; row < batch.num_rows(); ++row) {
        for (int64_t n = node().fraction > 0 ? draws(generator) : 0; n > 0; --n) {
          indices.push_back(row);
        }
      }
    } else {
      std::uniform_real_distribution<double> uniform(0.0, 1.0);
      for (int64_t row = 0; row < batch.num_rows(); ++row) {
        if (uniform(generator) < node().fraction) {
          indices.push_back(row);
        }
      }
    }
    return take_rows(batch, indices, node().schema, context.allocator);
  }

 private:
  /// SplitMix64 of the two numbers: independent streams for neighbouring morsels.
  static uint64_t mix(uint64_t seed, uint64_t index) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

/// The state one thread keeps while it feeds a sink.
class LocalState {
 public:
  virtual ~LocalState() = default;
};

/// The end of a pipeline: collects what threads push, merges their states and finalizes.
class Sink {
 public:
  explicit Sink(std::string name) : name_(std::move(name)) {}
  virtual ~Sink() = default;
  virtual std::unique_ptr<LocalState> make_local() = 0;
  virtual void consume(LocalState& local, const RecordBatch& batch, MorselOrder order) = 0;
  /// Merges a thread's state; called once per state, from any thread.
  virtual void combine(LocalState& local) = 0;
  /// After every pipeline feeding the sink has finished.
  virtual void finalize(compute::ExecContext& context) = 0;
  /// Whether the sink needs no more input (a satisfied limit).
  virtual bool done() const { return false; }
  /// The finalized result, in order.
  virtual std::vector<RecordBatch> results() = 0;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

/// A batch and its place in the order.
struct OrderedBatch {
  MorselOrder order;
  RecordBatch batch;
};

class CollectState final : public LocalState {
 public:
  std::vector<OrderedBatch> batches;
};

/// Keeps batches in order: the query's result, or a limit of the rows before it.
class LimitSink final : public Sink {
 public:
  LimitSink(std::string name, SchemaPtr schema, int64_t limit, int64_t offset)
      : Sink(std::move(name)), schema_(std::move(schema)), limit_(limit), offset_(offset) {}

  std::unique_ptr<LocalState> make_local() override { return std::make_unique<CollectState>(); }

  void consume(LocalState& local, const RecordBatch& batch, MorselOrder order) override {
    static_cast<CollectState&>(local).batches.push_back({order, batch});
    rows_.fetch_add(batch.num_rows(), std::memory_order_relaxed);
  }

  void combine(LocalState& local) override {
    auto& state = static_cast<CollectState&>(local);
    const std::lock_guard lock(mutex_);
    for (OrderedBatch& batch : state.batches) {
      batches_.push_back(std::move(batch));
    }
  }

  // Morsels are taken in order, so once enough rows arrived every morsel before the last one
  // taken has been taken too: the rows kept are the first ones.
  bool done() const override {
    return limit_ >= 0 && rows_.load(std::memory_order_relaxed) >= offset_ + limit_;
  }

  void finalize(compute::ExecContext&) override {
    std::stable_sort(
        batches_.begin(), batches_.end(),
        [](const OrderedBatch& a, const OrderedBatch& b) { return a.order < b.order; });
    int64_t skip = offset_;
    int64_t remaining = limit_ < 0 ? INT64_MAX : limit_;
    for (const OrderedBatch& entry : batches_) {
      const RecordBatch& batch = entry.batch;
      const int64_t skipped = std::min(skip, batch.num_rows());
      skip -= skipped;
      const int64_t take = std::min(remaining, batch.num_rows() - skipped);
      if (take > 0) {
        results_.push_back(skipped == 0 && take == batch.num_rows() ? batch
                                                                    : batch.slice(skipped, take));
        remaining -= take;
      }
    }
    batches_.clear();
  }

  std::vector<RecordBatch> results() override { return std::move(results_); }

 private:
  SchemaPtr schema_;
  int64_t limit_;
  int64_t offset_;
  std::atomic<int64_t> rows_{0};
  std::mutex mutex_;
  std::vector<OrderedBatch> batches_;
  std::vector<RecordBatch> results_;
};

/// Evaluates bound expressions over a batch into arrays of its length.
std::vector<Array> evaluate_all(const std::vector<expr::BoundExpression>& expressions,
                                const RecordBatch& batch, compute::ExecContext& context) {
  std::vector<Array> out;
  out.reserve(expressions.size());
  for (const expr::BoundExpression& expression : expressions) {
    out.push_back(
        expression.evaluate(batch, context).to_array(batch.num_rows(), context.allocator));
  }
  return out;
}

/// One thread's (or the final) groups and aggregate states.
class AggregateState final : public LocalState {
 public:
  AggregateState(const PhysicalNode& node, compute::ExecContext& context) {
    std::vector<TypePtr> key_types;
    for (const expr::BoundExpression& key : node.keys) {
      key_types.push_back(key.type());
    }
    if (!key_types.empty()) {
      grouper = compute::Grouper::make(key_types, context.allocator);
    }
    for (const AggregateSpec& spec : node.aggregates) {
      std::vector<TypePtr> types;
      for (const expr::BoundExpression& argument : spec.arguments) {
        types.push_back(argument.type());
      }
      aggregators.push_back(spec.function->make_aggregator(types, spec.options, context));
    }
    if (grouper == nullptr) {
      resize(1);
    }
  }

  void resize(int64_t groups) {
    num_groups = std::max(num_groups, groups);
    for (auto& aggregator : aggregators) {
      aggregator->resize(num_groups);
    }
  }

  std::unique_ptr<compute::Grouper> grouper;
  std::vector<std::unique_ptr<compute::GroupedAggregator>> aggregators;
  int64_t num_groups = 0;
};

/// Hash aggregation: each thread groups its morsels into its own table and aggregate states;
/// the states are merged into one table, which is finalized into the groups' rows.
class HashAggregateSink final : public Sink {
 public:
  HashAggregateSink(const PhysicalNode& node, compute::ExecContext& context)
      : Sink("HashAggregate"), node_(node), context_(context) {}

  std::unique_ptr<LocalState> make_local() override {
    return std::make_unique<AggregateState>(node_, context_);
  }

  void consume(LocalState& local, const RecordBatch& batch, MorselOrder) override {
    auto& state = static_cast<AggregateState&>(local);
    const int64_t rows = batch.num_rows();
    std::vector<uint32_t> ids(static_cast<size_t>(rows), 0);
    if (state.grouper != nullptr) {
      const std::vector<Array> keys = evaluate_all(node_.keys, batch, context_);
      state.grouper->consume(keys, ids.data());
      state.resize(state.grouper->num_groups());
    }
    for (size_t a = 0; a < node_.aggregates.size(); ++a) {
      std::vector<compute::Datum> arguments;
      for (const expr::BoundExpression& argument : node_.aggregates[a].arguments) {
        arguments.push_back(argument.evaluate(batch, context_));
      }
      state.aggregators[a]->update(arguments, ids);
    }
  }

  void combine(LocalState& local) override {
    auto& state = static_cast<AggregateState&>(local);
    Partial partial;
    if (state.grouper != nullptr) {
      if (state.num_groups == 0) {
        return;
      }
      partial.keys = state.grouper->unique_keys();
    }
    partial.groups = state.num_groups;
    for (auto& aggregator : state.aggregators) {
      partial.states.push_back(aggregator->state());
    }
    const std::lock_guard lock(mutex_);
    partials_.push_back(std::move(partial));
  }

  void finalize(compute::ExecContext&) override {
    int64_t groups = 0;
    for (const Partial& partial : partials_) {
      groups += partial.groups;
    }
    constexpr int64_t kParallelMergeGroups = int64_t{1} << 16;
    const int threads = hardware_threads();
    if (node_.keys.empty() || partials_.size() <= 1 || groups < kParallelMergeGroups ||
        threads == 1) {
      AggregateState merged(node_, context_);
      for (const Partial& partial : partials_) {
        merge(merged, partial.keys, partial.states, partial.groups);
      }
      results_.push_back(finish(merged));
    } else {
      merge_partitioned(threads);
    }
    partials_.clear();
  }

  std::vector<RecordBatch> results() override { return std::move(results_); }

 private:
  /// What one thread aggregated: its groups' keys and aggregate states.
  struct Partial {
    std::vector<Array> keys;
    std::vector<std::vector<Array>> states;
    int64_t groups = 0;
  };

  /// Folds groups (their keys and states) into `into`.
  void merge(AggregateState& into, const std::vector<Array>& keys,
             const std::vector<std::vector<Array>>& states, int64_t groups) {
    std::vector<uint32_t> ids(static_cast<size_t>(groups), 0);
    if (into.grouper != nullptr) {
      into.grouper->consume(keys, ids.data());
      into.resize(into.grouper->num_groups());
    }
    for (size_t a = 0; a < into.aggregators.size(); ++a) {
      into.aggregators[a]->merge(states[a], ids);
    }
  }

  RecordBatch finish(AggregateState& state) {
    std::vector<Array> columns;
    int64_t rows = state.num_groups;
    if (state.grouper != nullptr) {
      columns = state.grouper->unique_keys();
      rows = state.grouper->num_groups();
    }
    for (auto& aggregator : state.aggregators) {
      columns.push_back(aggregator->finish());
    }
    return RecordBatch(node_.schema, rows, std::move(columns));
  }

  /// Many groups: the threads' groups are split by a hash of their keys into partitions, and
  /// each partition is merged and finished on its own thread.
  void merge_partitioned(int threads) {
    const int64_t partitions = int64_t{2} * threads;
    // rows[p][l]: the groups of partial l that fall into partition p.
    std::vector<std::vector<std::vector<int64_t>>> rows(
        static_cast<size_t>(partitions), std::vector<std::vector<int64_t>>(partials_.size()));
    parallel_for(static_cast<int64_t>(partials_.size()), threads, [&](int64_t l, int) {
      const Partial& partial = partials_[static_cast<size_t>(l)];
      std::vector<compute::Datum> keys(partial.keys.begin(), partial.keys.end());
      const Array hashes = compute::call("hash", keys, {}, &context_).array();
      const auto& values = hashes.as<Int32Array>();
      for (int64_t g = 0; g < partial.groups; ++g) {
        const auto p = static_cast<uint32_t>(values.value(g)) % static_cast<uint64_t>(partitions);
        rows[p][static_cast<size_t>(l)].push_back(g);
      }
    });
    std::vector<std::optional<RecordBatch>> finished(static_cast<size_t>(partitions));
    parallel_for(partitions, threads, [&](int64_t p, int) {
      AggregateState merged(node_, context_);
      for (size_t l = 0; l < partials_.size(); ++l) {
        const std::vector<int64_t>& taken = rows[static_cast<size_t>(p)][l];
        if (taken.empty()) {
          continue;
        }
        std::vector<Array> keys;
        for (const Array& key : partials_[l].keys) {
          keys.push_back(compute::take(key, std::span<const int64_t>(taken), context_.allocator));
        }
        std::vector<std::vector<Array>> states;
        for (const std::vector<Array>& state : partials_[l].states) {
          std::vector<Array> columns;
          for (const Array& column : state) {
            columns.push_back(
                compute::take(column, std::span<const int64_t>(taken), context_.allocator));
          }
          states.push_back(std::move(columns));
        }
        merge(merged, keys, states, static_cast<int64_t>(taken.size()));
      }
      finished[static_cast<size_t>(p)] = finish(merged);
    });
    for (std::optional<RecordBatch>& batch : finished) {
      if (batch->num_rows() > 0) {
        results_.push_back(std::move(*batch));
      }
    }
  }

  const PhysicalNode& node_;
  compute::ExecContext& context_;
  std::mutex mutex_;
  std::vector<Partial> partials_;
  std::vector<RecordBatch> results_;
};

/// Sort, and top-N when `limit` is set: collects every row, orders them by the keys.
class SortSink final : public Sink {
 public:
  SortSink(const PhysicalNode& node, compute::ExecContext& context)
      : Sink(node.kind == Kind::kTopN ? "TakeOrderedAndProject" : "Sort"),
        node_(node),
        context_(context) {}

  std::unique_ptr<LocalState> make_local() override { return std::make_unique<CollectState>(); }

  void consume(LocalState& local, const RecordBatch& batch, MorselOrder order) override {
    auto& state = static_cast<CollectState&>(local);
    if (node_.kind != Kind::kTopN) {
      state.batches.push_back({order, batch});
      return;
    }
    // A thread keeps only the best rows of each morsel, so that the rows it drops are never
    // copied, and only the best of its morsels together once it holds several times as many
    // as needed.
    const int64_t wanted = node_.limit + node_.offset;
    state.batches.push_back(
        {order, batch.num_rows() > wanted ? select({{order, batch}}, wanted) : batch});
    int64_t rows = 0;
    for (const OrderedBatch& entry : state.batches) {
      rows += entry.batch.num_rows();
    }
    if (rows > std::max<int64_t>(4 * wanted, 4096)) {
      RecordBatch best = select(state.batches, wanted);
      state.batches.clear();
      state.batches.push_back({order, std::move(best)});
    }
  }

  void combine(LocalState& local) override {
    auto& state = static_cast<CollectState&>(local);
    const std::lock_guard lock(mutex_);
    for (OrderedBatch& batch : state.batches) {
      batches_.push_back(std::move(batch));
    }
  }

  void finalize(compute::ExecContext&) override {
    // Input order first, so that rows with equal keys keep it (the sort is stable).
    std::stable_sort(
        batches_.begin(), batches_.end(),
        [](const OrderedBatch& a, const OrderedBatch& b) { return a.order < b.order; });
    const int64_t wanted = node_.kind == Kind::kTopN ? node_.limit + node_.offset : -1;
    RecordBatch sorted = select(batches_, wanted);
    batches_.clear();
    if (node_.kind == Kind::kTopN) {
      const int64_t skip = std::min(node_.offset, sorted.num_rows());
      sorted = sorted.slice(skip);
    }
    result_ = std::move(sorted);
  }

  std::vector<RecordBatch> results() override { return {std::move(*result_)}; }

 private:
  /// The rows of `batches` in key order: all of them, or the first `wanted` (when >= 0).
  RecordBatch select(const std::vector<OrderedBatch>& batches, int64_t wanted) const {
    std::vector<RecordBatch> inputs;
    for (const OrderedBatch& entry : batches) {
      inputs.push_back(entry.batch);
    }
    const SchemaPtr& schema = node_.children[0]->schema;
    const RecordBatch all = concatenate_batches(schema, inputs, context_.allocator);
    const std::vector<Array> keys = evaluate_all(node_.keys, all, context_);
    const Array indices = wanted >= 0
                              ? compute::top_n(keys, node_.sort_keys, wanted, context_.allocator)
                              : compute::sort_indices(keys, node_.sort_keys, context_.allocator);
    RecordBatch taken = compute::take(all, indices, context_.allocator);
    return RecordBatch(node_.schema, taken.num_rows(), taken.columns());
  }

  const PhysicalNode& node_;
  compute::ExecContext& context_;
  std::mutex mutex_;
  std::vector<OrderedBatch> batches_;
  std::optional<RecordBatch> result_;
};

/// The build side of a join: collects the build rows (numbered as the hash table numbers them)
/// and, for a hash join, the table; finalized once every build row is in.
class JoinBuildSink final : public Sink {
 public:
  JoinBuildSink(const PhysicalNode& join, compute::ExecContext& context)
      : Sink(std::string(join.name())), join_(join), context_(context) {
    if (join.kind == Kind::kHashJoin) {
      std::vector<TypePtr> types;
      for (const expr::BoundExpression& key : join.build_keys) {
        types.push_back(key.type());
      }
      table_ = std::make_unique<compute::JoinHashTable>(types, join.null_safe, join.join_type,
                                                        context.allocator);
    }
  }

  std::unique_ptr<LocalState> make_local() override { return std::make_unique<CollectState>(); }

  void consume(LocalState& local, const RecordBatch& batch, MorselOrder order) override {
    auto& state = static_cast<CollectState&>(local);
    if (table_ != nullptr) {
      const std::vector<Array> keys = evaluate_all(join_.build_keys, batch, context_);
      // The payload is kept in the order the table numbers the rows.
      state.batches.push_back({MorselOrder{0, table_->add(keys)}, batch});
    } else {
      state.batches.push_back({order, batch});
    }
  }

  void combine(LocalState& local) override {
    auto& state = static_cast<CollectState&>(local);
    const std::lock_guard lock(mutex_);
    for (OrderedBatch& batch : state.batches) {
      batches_.push_back(std::move(batch));
    }
  }

  void finalize(compute::ExecContext&) override {
    std::sort(batches_.begin(), batches_.end(),
              [](const OrderedBatch& a, const OrderedBatch& b) { return a.order < b.order; });
    std::vector<RecordBatch> batches;
    for (const OrderedBatch& entry : batches_) {
      batches.push_back(entry.batch);
    }
    batches_.clear();
    payload_ = concatenate_batches(join_.children[1]->schema, batches, context_.allocator);
    if (table_ != nullptr) {
      table_->finalize();
    } else {
      matched_.assign(static_cast<size_t>((payload_->num_rows() + 63) / 64), 0);
    }
  }

  std::vector<RecordBatch> results() override { return {}; }

  const RecordBatch& payload() const { return *payload_; }
  compute::JoinHashTable* table() const { return table_.get(); }

  /// Nested loop joins: marks build row `row` matched (from any thread).
  void mark(int64_t row) {
    std::atomic_ref<uint64_t> word(matched_[static_cast<size_t>(row / 64)]);
    word.fetch_or(uint64_t{1} << (row % 64), std::memory_order_relaxed);
  }
  bool matched(int64_t row) const {
    return ((matched_[static_cast<size_t>(row / 64)] >> (row % 64)) & 1) != 0;
  }

 private:
  const PhysicalNode& join_;
  compute::ExecContext& context_;
  std::unique_ptr<compute::JoinHashTable> table_;
  std::mutex mutex_;
  std::vector<OrderedBatch> batches_;
  std::optional<RecordBatch> payload_;
  std::vector<uint64_t> matched_;
};

/// Pairs of rows a join outputs, made into the join's output batch.
class JoinOutput {
 public:
  JoinOutput(const PhysicalNode& join, const JoinBuildSink& build)
      : join_(join), build_(build), both_(plan::internal_schema([&] {
          std::vector<plan::Attribute> both = join.children[0]->output;
          both.insert(both.end(), join.children[1]->output.begin(), join.children[1]->output.end());
          return both;
        }())) {}

  /// The output rows of `pairs`: probe rows from `probe` (null rows for kNoRow, or when there
  /// is no probe batch), build rows from the build side, the sides in the plan's order.
  RecordBatch output(const RecordBatch* probe, const compute::JoinPairs& pairs,
                     compute::ExecContext& context) const {
    using compute::JoinType;
    const JoinType type = join_.join_type;
    const bool probe_side = type != JoinType::kRightSemi && type != JoinType::kRightAnti;
    const bool build_side = type != JoinType::kLeftSemi && type != JoinType::kLeftAnti;
    std::vector<Array> probe_columns;
    std::vector<Array> build_columns;
    if (probe_side) {
      probe_columns = side(probe, *join_.children[0]->schema,
                           pairs.probe_indices(context.allocator), pairs.size(), context);
    }
    if (build_side) {
      build_columns = side(&build_.payload(), *join_.children[1]->schema,
                           pairs.build_indices(context.allocator), pairs.size(), context);
    }
    std::vector<Array>& first = join_.swapped ? build_columns : probe_columns;
    std::vector<Array>& second = join_.swapped ? probe_columns : build_columns;
    first.insert(first.end(), second.begin(), second.end());
    return RecordBatch(join_.schema, pairs.size(), std::move(first));
  }

  /// Candidate pairs with both sides' columns, probe side first: what the residual condition
  /// is evaluated on.
  RecordBatch candidates(const RecordBatch& probe, const compute::JoinPairs& pairs,
                         compute::ExecContext& context) const {
    std::vector<Array> columns =
        side(&probe, *join_.children[0]->schema, pairs.probe_indices(context.allocator),
             pairs.size(), context);
    std::vector<Array> build = side(&build_.payload(), *join_.children[1]->schema,
                                    pairs.build_indices(context.allocator), pairs.size(), context);
    columns.insert(columns.end(), build.begin(), build.end());
    return RecordBatch(both_, pairs.size(), std::move(columns));
  }

 private:
  static std::vector<Array> side(const RecordBatch* rows, const Schema& schema,
                                 const Array& indices, int64_t length,
                                 compute::ExecContext& context) {
    std::vector<Array> out;
    for (int c = 0; c < schema.num_fields(); ++c) {
      if (rows == nullptr) {
        out.push_back(compute::Datum::null_scalar(schema.field(c)->type(), context.allocator)
                          .to_array(length, context.allocator));
      } else {
        out.push_back(compute::take(rows->column(c), indices, context.allocator));
      }
    }
    return out;
  }

  const PhysicalNode& join_;
  const JoinBuildSink& build_;
  SchemaPtr both_;
};

/// Pairs per output batch of a join, at most.
constexpr int64_t kJoinBatchPairs = 64 * 1024;

/// The probe side of a hash join: each batch looks up its keys, in chunks of pairs.
class HashProbeTransform final : public Transform {
 public:
  HashProbeTransform(const PhysicalNode* join, const JoinBuildSink* build)
      : Transform(join), build_(*build), output_(*join, *build) {}

  void run(const RecordBatch& batch, compute::ExecContext& context, int64_t,
           const Emit& emit) const override {
    const std::vector<Array> keys = evaluate_all(node().keys, batch, context);
    compute::JoinProbe probe = build_.table()->probe(keys);
    compute::JoinPairs pairs(context.allocator);
    if (!node().predicate) {
      while (probe.next(kJoinBatchPairs, pairs)) {
        if (!pairs.empty()) {
          emit(output_.output(&batch, pairs, context));
        }
      }
      return;
    }
    while (probe.next_candidates(kJoinBatchPairs)) {
      const RecordBatch candidates = output_.candidates(batch, probe.candidates(), context);
      const Array passed = node()
                               .predicate->evaluate(candidates, context)
                               .to_array(candidates.num_rows(), context.allocator);
      probe.resolve(passed, pairs);
      if (!pairs.empty()) {
        emit(output_.output(&batch, pairs, context));
      }
    }
  }

 private:
  const JoinBuildSink& build_;
  JoinOutput output_;
};

/// The probe side of a join without keys: every probe row against every build row.
class NestedLoopProbeTransform final : public Transform {
 public:
  NestedLoopProbeTransform(const PhysicalNode* join, JoinBuildSink* build)
      : Transform(join), build_(*build), output_(*join, *build) {}

  void run(const RecordBatch& batch, compute::ExecContext& context, int64_t,
           const Emit& emit) const override {
    using compute::JoinType;
    const JoinType type = node().join_type;
    const bool pairs_out = type == JoinType::kInner || type == JoinType::kLeftOuter ||
                           type == JoinType::kRightOuter || type == JoinType::kFullOuter;
    const bool marks_build = type == JoinType::kRightOuter || type == JoinType::kFullOuter;
    const int64_t probe_rows = batch.num_rows();
    const int64_t build_rows = build_.payload().num_rows();
    std::vector<bool> probe_matched(static_cast<size_t>(probe_rows), false);
    compute::JoinPairs candidates(context.allocator);
    compute::JoinPairs passing(context.allocator);
    auto flush = [&] {
      if (candidates.empty()) {
        return;
      }
      std::optional<Array> passed;
      if (node().predicate) {
        const RecordBatch both = output_.candidates(batch, candidates, context);
        passed =
            node().predicate->evaluate(both, context).to_array(both.num_rows(), context.allocator);
      }
      passing.clear();
      for (int64_t i = 0; i < candidates.size(); ++i) {
        if (passed && (passed->is_null(i) || !passed->as<BooleanArray>().value(i))) {
          continue;
        }
        const int64_t probe_row = candidates.probe_rows()[static_cast<size_t>(i)];
        const int64_t build_row = candidates.build_rows()[static_cast<size_t>(i)];
        probe_matched[static_cast<size_t>(probe_row)] = true;
        if (marks_build) {
          build_.mark(build_row);
        }
        if (pairs_out) {
          passing.append(probe_row, build_row);
        }
      }
      if (!passing.empty()) {
        emit(output_.output(&batch, passing, context));
      }
      candidates.clear();
    };
    for (int64_t p = 0; p < probe_rows; ++p) {
      for (int64_t b = 0; b < build_rows; ++b) {
        candidates.append(p, b);
        if (candidates.size() == kJoinBatchPairs) {
          flush();
        }
      }
    }
    flush();
    // Probe rows decided by all their pairs: unmatched ones of outer and anti joins, matched
    // ones of semi joins.
    const bool keep_matched = type == JoinType::kLeftSemi;
    const bool keep_unmatched =
        type == JoinType::kLeftOuter || type == JoinType::kFullOuter || type == JoinType::kLeftAnti;
    compute::JoinPairs decided(context.allocator);
    for (int64_t p = 0; p < probe_rows; ++p) {
      const bool matched = probe_matched[static_cast<size_t>(p)];
      if ((matched && keep_matched) || (!matched && keep_unmatched)) {
        decided.append(p, compute::kNoRow);
      }
    }
    if (!decided.empty()) {
      emit(output_.output(&batch, decided, context));
    }
  }

 private:
  JoinBuildSink& build_;
  JoinOutput output_;
};

/// The build rows a join outputs once every probe has run (right and full outer, right semi
/// and anti joins), in chunks of build rows.
class BuildRowsSource final : public Source {
 public:
  BuildRowsSource(const PhysicalNode& join, const JoinBuildSink& build, int64_t morsel_rows,
                  compute::ExecContext& context)
      : build_(build), output_(join, build), morsel_rows_(morsel_rows), context_(context) {
    morsels_ = (build.payload().num_rows() + morsel_rows - 1) / morsel_rows;
  }

  std::optional<Morsel> next() override {
    const int64_t index = next_.fetch_add(1, std::memory_order_relaxed);
    if (index >= morsels_) {
      return std::nullopt;
    }
    const int64_t begin = index * morsel_rows_;
    const int64_t end = std::min(begin + morsel_rows_, build_.payload().num_rows());
    compute::JoinPairs pairs(context_.allocator);
    if (build_.table() != nullptr) {
      build_.table()->collect_build_rows(begin, end, pairs);
    } else {
      for (int64_t row = begin; row < end; ++row) {
        if (!build_.matched(row)) {
          pairs.append(compute::kNoRow, row);
        }
      }
    }
    return Morsel{{output_.output(nullptr, pairs, context_)}, index};
  }
  int64_t total() const override { return morsels_; }

 private:
  const JoinBuildSink& build_;
  JoinOutput output_;
  int64_t morsel_rows_;
  compute::ExecContext& context_;
  int64_t morsels_ = 0;
  std::atomic<int64_t> next_{0};
};

/// Whether a join outputs build rows after its probes.
bool outputs_build_rows(const PhysicalNode& join) {
  using compute::JoinType;
  const JoinType type = join.join_type;
  return type == JoinType::kRightOuter || type == JoinType::kFullOuter ||
         type == JoinType::kRightSemi || type == JoinType::kRightAnti;
}

/// Windows: every row is collected, split by a hash of the partition keys into parts that are
/// sorted by (partition keys, order keys) and evaluated on their own threads.
class WindowSink final : public Sink {
 public:
  WindowSink(const PhysicalNode& node, compute::ExecContext& context)
      : Sink("Window"), node_(node), context_(context) {}

  std::unique_ptr<LocalState> make_local() override { return std::make_unique<CollectState>(); }

  void consume(LocalState& local, const RecordBatch& batch, MorselOrder order) override {
    static_cast<CollectState&>(local).batches.push_back({order, batch});
  }

  void combine(LocalState& local) override {
    auto& state = static_cast<CollectState&>(local);
    const std::lock_guard lock(mutex_);
    for (OrderedBatch& batch : state.batches) {
      batches_.push_back(std::move(batch));
    }
  }

  void finalize(compute::ExecContext&) override {
    std::stable_sort(
        batches_.begin(), batches_.end(),
        [](const OrderedBatch& a, const OrderedBatch& b) { return a.order < b.order; });
    std::vector<RecordBatch> inputs;
    for (const OrderedBatch& entry : batches_) {
      inputs.push_back(entry.batch);
    }
    batches_.clear();
    const RecordBatch all =
        concatenate_batches(node_.children[0]->schema, inputs, context_.allocator);
    constexpr int64_t kRowsPerPart = int64_t{1} << 16;
    const int threads = hardware_threads();
    const int64_t parts = node_.keys.empty() || all.num_rows() < 2 * kRowsPerPart || threads == 1
                              ? 1
                              : int64_t{2} * threads;
    std::vector<std::vector<int64_t>> rows(static_cast<size_t>(parts));
    if (parts > 1) {
      const std::vector<Array> keys = evaluate_all(node_.keys, all, context_);
      std::vector<compute::Datum> arguments(keys.begin(), keys.end());
      const Array hashes = compute::call("hash", arguments, {}, &context_).array();
      const auto& values = hashes.as<Int32Array>();
      for (int64_t row = 0; row < all.num_rows(); ++row) {
        rows[static_cast<uint32_t>(values.value(row)) % static_cast<uint64_t>(parts)].push_back(
            row);
      }
    }
    std::vector<std::optional<RecordBatch>> finished(static_cast<size_t>(parts));
    parallel_for(parts, threads, [&](int64_t p, int) {
      const RecordBatch part =
          parts == 1
              ? all
              : compute::take(all, make_indices(rows[static_cast<size_t>(p)]), context_.allocator);
      finished[static_cast<size_t>(p)] = evaluate(part);
    });
    for (std::optional<RecordBatch>& batch : finished) {
      if (batch->num_rows() > 0) {
        results_.push_back(std::move(*batch));
      }
    }
  }

  std::vector<RecordBatch> results() override { return std::move(results_); }

 private:
  Array make_indices(const std::vector<int64_t>& rows) const {
    Int64Builder builder(context_.allocator);
    builder.reserve(static_cast<int64_t>(rows.size()));
    for (int64_t row : rows) {
      builder.append(row);
    }
    return builder.finish();
  }

  /// Sorts one part and evaluates every window call over it.
  RecordBatch evaluate(const RecordBatch& part) const {
    std::vector<Array> keys = evaluate_all(node_.keys, part, context_);
    const size_t partition_keys = keys.size();
    std::vector<Array> orders = evaluate_all(node_.expressions, part, context_);
    keys.insert(keys.end(), orders.begin(), orders.end());
    std::vector<compute::SortKey> sort_keys(partition_keys, compute::SortKey{});
    sort_keys.insert(sort_keys.end(), node_.sort_keys.begin(), node_.sort_keys.end());
    RecordBatch sorted = part;
    if (!keys.empty() && part.num_rows() > 1) {
      const Array indices = compute::sort_indices(keys, sort_keys, context_.allocator);
      sorted = compute::take(part, indices, context_.allocator);
      for (Array& key : keys) {
        key = compute::take(key, indices, context_.allocator);
      }
    }
    // Partitions start where the partition keys change: equal keys are adjacent once sorted.
    std::vector<int64_t> offsets{0};
    if (partition_keys > 0 && sorted.num_rows() > 0) {
      std::vector<TypePtr> types;
      for (size_t k = 0; k < partition_keys; ++k) {
        types.push_back(keys[k].type());
      }
      std::unique_ptr<compute::Grouper> grouper = compute::Grouper::make(types, context_.allocator);
      const std::vector<uint32_t> ids =
          grouper->consume(std::span<const Array>(keys.data(), partition_keys));
      for (size_t row = 1; row < ids.size(); ++row) {
        if (ids[row] != ids[row - 1]) {
          offsets.push_back(static_cast<int64_t>(row));
        }
      }
    }
    offsets.push_back(sorted.num_rows());
    if (sorted.num_rows() == 0) {
      offsets = {0, 0};
    }
    std::vector<compute::WindowCall> calls;
    for (const WindowSpec& spec : node_.windows) {
      compute::WindowCall call;
      call.function = spec.function;
      for (const expr::BoundExpression& argument : spec.arguments) {
        call.arguments.push_back(argument.evaluate(sorted, context_));
      }
      call.options = spec.options;
      call.frame = spec.frame;
      calls.push_back(std::move(call));
    }
    compute::WindowInput input;
    input.partition_offsets = offsets;
    input.order_keys = std::span<const Array>(keys.data() + partition_keys, orders.size());
    input.order = node_.sort_keys;
    std::vector<Array> columns = sorted.columns();
    for (Array& column : compute::evaluate_window(input, calls, context_)) {
      columns.push_back(std::move(column));
    }
    return RecordBatch(node_.schema, sorted.num_rows(), std::move(columns));
  }

  const PhysicalNode& node_;
  compute::ExecContext& context_;
  std::mutex mutex_;
  std::vector<OrderedBatch> batches_;
  std::vector<RecordBatch> results_;
};

class PartState final : public LocalState {
 public:
  std::unique_ptr<ResultParts::Part> part;
};

/// Hands the result's batches to the parts of a `ResultParts`, one part per thread.
class PartsSink final : public Sink {
 public:
  PartsSink(ResultParts& parts, SchemaPtr schema)
      : Sink("Result"), parts_(parts), schema_(std::move(schema)) {}

  std::unique_ptr<LocalState> make_local() override { return std::make_unique<PartState>(); }

  void consume(LocalState& local, const RecordBatch& batch, MorselOrder) override {
    auto& state = static_cast<PartState&>(local);
    if (state.part == nullptr) {
      state.part = parts_.open_part();
    }
    state.part->write(RecordBatch(schema_, batch.num_rows(), batch.columns()));
  }

  void combine(LocalState& local) override {
    auto& state = static_cast<PartState&>(local);
    if (state.part != nullptr) {
      state.part->close();
    }
  }

  void finalize(compute::ExecContext&) override {}
  std::vector<RecordBatch> results() override { return {}; }

 private:
  ResultParts& parts_;
  SchemaPtr schema_;
};

/// A source, the transforms its morsels go through, and the sink they end in.
struct Pipeline {
  /// Makes the source when the pipeline starts: a breaker's results exist only then.
  std::function<std::unique_ptr<Source>()> make_source;
  std::string source_name;
  std::vector<std::shared_ptr<const Transform>> transforms;
  Sink* sink = nullptr;
  int64_t sequence = 0;
  /// Whether it is the last pipeline feeding its sink (which is finalized after it).
  bool finalizes_sink = false;
};

/// Morsels of at most `rows` rows of `batches`, zero-copy.
std::vector<RecordBatch> morsels_of(const std::vector<RecordBatch>& batches, int64_t rows) {
  std::vector<RecordBatch> out;
  for (const RecordBatch& batch : batches) {
    for (int64_t offset = 0; offset < batch.num_rows(); offset += rows) {
      out.push_back(batch.slice(offset, std::min(rows, batch.num_rows() - offset)));
    }
  }
  return out;
}

class Executor {
 public:
  Executor(const compute::ExecContext& context, const QueryOptions& options)
      : context_(context), options_(options) {
    if (options_.morsel_rows < 1) {
      throw InvalidArgument("a query needs morsels of at least 1 row, not " +
                            std::to_string(options_.morsel_rows));
    }
    if (options_.threads < 0) {
      throw InvalidArgument("a query needs a number of threads of at least 0, not " +
                            std::to_string(options_.threads));
    }
  }

  Table run(const PhysicalPtr& plan) {
    auto result = std::make_unique<LimitSink>("Result", plan->schema, -1, 0);
    Sink* sink = result.get();
    sinks_.push_back(std::move(result));
    run_into(plan, sink);
    std::vector<RecordBatch> batches = sink->results();
    const SchemaPtr schema = plan::output_schema(plan->output);
    std::vector<RecordBatch> relabelled;
    for (const RecordBatch& batch : batches) {
      relabelled.emplace_back(schema, batch.num_rows(), batch.columns());
    }
    if (relabelled.empty()) {
      std::vector<ChunkedArray> columns;
      for (const FieldPtr& field : schema->fields()) {
        columns.emplace_back(field->type(), std::vector<Array>{});
      }
      return Table(schema, 0, std::move(columns));
    }
    return Table::from_batches(schema, relabelled);
  }

  /// Runs `plan` with `sink` as the sink of its last pipeline.
  void run_into(const PhysicalPtr& plan, Sink* sink) {
    build(*plan, sink, {});
    mark_last_feeders();
    for (size_t p = 0; p < pipelines_.size(); ++p) {
      run_pipeline(static_cast<int>(p));
    }
  }

 private:
  void add_pipeline(Pipeline pipeline) {
    pipeline.sequence = sequences_[pipeline.sink]++;
    pipelines_.push_back(std::move(pipeline));
  }

  void build(const PhysicalNode& node, Sink* sink,
             std::vector<std::shared_ptr<const Transform>> above) {
    auto prepend = [&](std::shared_ptr<const Transform> transform) {
      above.insert(above.begin(), std::move(transform));
    };
    switch (node.kind) {
      case Kind::kTableScan:
      case Kind::kCache: {
        Pipeline pipeline;
        const Table table = node.kind == Kind::kTableScan ? *node.table : cached_rows(node);
        const int64_t rows = options_.morsel_rows;
        pipeline.make_source = [table, rows] {
          return std::make_unique<BatchSource>(table.to_batches(rows));
        };
        pipeline.source_name = std::string(node.name());
        pipeline.transforms = std::move(above);
        pipeline.sink = sink;
        add_pipeline(std::move(pipeline));
        return;
      }
      case Kind::kFileScan: {
        Pipeline pipeline;
        const PhysicalNode* scan = &node;
        pipeline.make_source = [this, scan] {
          return std::make_unique<FileScanSource>(*scan, options_.morsel_rows, context_);
        };
        pipeline.source_name = "FileScan";
        pipeline.transforms = std::move(above);
        pipeline.sink = sink;
        add_pipeline(std::move(pipeline));
        return;
      }
      case Kind::kRange: {
        Pipeline pipeline;
        const PhysicalNode* range = &node;
        pipeline.make_source = [this, range] {
          return std::make_unique<RangeSource>(*range, options_.morsel_rows, context_.allocator);
        };
        pipeline.source_name = "Range";
        pipeline.transforms = std::move(above);
        pipeline.sink = sink;
        add_pipeline(std::move(pipeline));
        return;
      }
      case Kind::kFilter:
      case Kind::kProject:
      case Kind::kExpand:
      case Kind::kGenerate:
      case Kind::kReplicate:
      case Kind::kSample:
        prepend(make_transform(node));
        build(*node.children[0], sink, std::move(above));
        return;
      case Kind::kExchange:
        build(*node.children[0], sink, std::move(above));
        return;
      case Kind::kHashJoin:
      case Kind::kNestedLoopJoin: {
        auto owned = std::make_unique<JoinBuildSink>(node, context_);
        JoinBuildSink* build_side = owned.get();
        sinks_.push_back(std::move(owned));
        build(*node.children[1], build_side, {});
        std::vector<std::shared_ptr<const Transform>> probe_steps = above;
        if (node.kind == Kind::kHashJoin) {
          probe_steps.insert(probe_steps.begin(),
                             std::make_shared<HashProbeTransform>(&node, build_side));
        } else {
          probe_steps.insert(probe_steps.begin(),
                             std::make_shared<NestedLoopProbeTransform>(&node, build_side));
        }
        build(*node.children[0], sink, std::move(probe_steps));
        if (outputs_build_rows(node)) {
          Pipeline pipeline;
          const PhysicalNode* join = &node;
          pipeline.make_source = [this, join, build_side] {
            return std::make_unique<BuildRowsSource>(*join, *build_side, options_.morsel_rows,
                                                     context_);
          };
          pipeline.source_name = std::string(node.name());
          pipeline.transforms = std::move(above);
          pipeline.sink = sink;
          add_pipeline(std::move(pipeline));
        }
        return;
      }
      case Kind::kUnion:
        for (const PhysicalPtr& child : node.children) {
          std::vector<std::shared_ptr<const Transform>> branch = above;
          branch.insert(branch.begin(), std::make_shared<RelabelTransform>(&node));
          build(*child, sink, std::move(branch));
        }
        return;
      case Kind::kHashAggregate:
      case Kind::kSort:
      case Kind::kTopN:
      case Kind::kLimit:
      case Kind::kWindow: {
        Sink* breaker = make_sink(node);
        build(*node.children[0], breaker, {});
        Pipeline pipeline;
        const int64_t rows = options_.morsel_rows;
        pipeline.make_source = [breaker, rows] {
          return std::make_unique<BatchSource>(morsels_of(breaker->results(), rows));
        };
        pipeline.source_name = breaker->name();
        pipeline.transforms = std::move(above);
        pipeline.sink = sink;
        add_pipeline(std::move(pipeline));
        return;
      }
    }
  }

  /// The rows of a cache, computed now (by a query of their own) if no query has yet.
  Table cached_rows(const PhysicalNode& node) {
    std::optional<Table> rows = node.cache->rows();
    if (!rows) {
      rows = node.cache->store(Executor(context_, options_).run(node.children[0]));
    }
    return Table(node.schema, rows->num_rows(), rows->columns());
  }

  /// The stateless operator of a one-batch-in node.
  static std::shared_ptr<const Transform> make_transform(const PhysicalNode& node) {
    switch (node.kind) {
      case Kind::kFilter:
        return std::make_shared<FilterTransform>(&node);
      case Kind::kProject:
        return std::make_shared<ProjectTransform>(&node);
      case Kind::kExpand:
        return std::make_shared<ExpandTransform>(&node);
      case Kind::kGenerate:
        return std::make_shared<GenerateTransform>(&node);
      case Kind::kReplicate:
        return std::make_shared<ReplicateTransform>(&node);
      default:
        return std::make_shared<SampleTransform>(&node);
    }
  }

  Sink* make_sink(const PhysicalNode& node) {
    std::unique_ptr<Sink> sink;
    switch (node.kind) {
      case Kind::kHashAggregate:
        sink = std::make_unique<HashAggregateSink>(node, context_);
        break;
      case Kind::kSort:
      case Kind::kTopN:
        sink = std::make_unique<SortSink>(node, context_);
        break;
      case Kind::kWindow:
        sink = std::make_unique<WindowSink>(node, context_);
        break;
      default:
        sink = std::make_unique<LimitSink>(node.kind == Kind::kLimit ? "GlobalLimit" : "Limit",
                                           node.schema, node.limit, node.offset);
        break;
    }
    sinks_.push_back(std::move(sink));
    return sinks_.back().get();
  }

  void mark_last_feeders() {
    std::map<Sink*, size_t> last;
    for (size_t p = 0; p < pipelines_.size(); ++p) {
      last[pipelines_[p].sink] = p;
    }
    for (const auto& [sink, p] : last) {
      pipelines_[p].finalizes_sink = true;
    }
  }

  /// Runs `work`, naming the operator in an out-of-memory error (the innermost one, when
  /// operators run inside each other).
  template <typename Work>
  static void in_operator(const std::string& name, Work&& work) {
    try {
      work();
    } catch (const OperatorOutOfMemory&) {
      throw;
    } catch (const OutOfMemory& error) {
      throw OperatorOutOfMemory(std::string(error.what()) + " (while running " + name + ")");
    }
  }

  void report(PipelineProgress progress) {
    if (options_.progress) {
      const std::lock_guard lock(progress_mutex_);
      options_.progress(progress);
    }
  }

  void run_pipeline(int index) {
    Pipeline& pipeline = pipelines_[static_cast<size_t>(index)];
    options_.cancellation.throw_if_cancelled("the query was cancelled");
    std::unique_ptr<Source> source = pipeline.make_source();
    std::shared_ptr<ThreadPool> pool = default_thread_pool();
    int threads = options_.threads > 0 ? std::min(options_.threads, pool->size()) : pool->size();
    if (source->total() >= 0) {
      threads = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(threads, source->total())));
    }
    std::atomic<int64_t> morsels_done{0};
    std::atomic<int64_t> rows_done{0};
    PipelineProgress progress;
    progress.pipeline = index;
    progress.pipelines = static_cast<int>(pipelines_.size());
    progress.source = pipeline.source_name;
    progress.sink = pipeline.sink->name();
    progress.morsels_total = source->total();
    Sink& sink = *pipeline.sink;
    TaskGroup group(*pool);
    auto work = [&] {
      std::unique_ptr<LocalState> local = sink.make_local();
      compute::ExecContext context = context_;
      while (!sink.done() && !group.cancelled() && !options_.cancellation.cancelled()) {
        std::optional<Morsel> morsel;
        in_operator(pipeline.source_name, [&] { morsel = source->next(); });
        if (!morsel) {
          break;
        }
        const int64_t index = morsel->index;
        int64_t rows = 0;
        for (const RecordBatch& batch : morsel->batches) {
          rows += batch.num_rows();
        }
        std::function<void(const RecordBatch&, size_t)> push = [&](const RecordBatch& batch,
                                                                   size_t step) {
          if (step == pipeline.transforms.size()) {
            in_operator(sink.name(), [&] {
              sink.consume(*local, batch, MorselOrder{pipeline.sequence, index});
            });
            return;
          }
          const Transform& transform = *pipeline.transforms[step];
          in_operator(std::string(transform.node().name()), [&] {
            transform.run(batch, context, index,
                          [&](const RecordBatch& out) { push(out, step + 1); });
          });
        };
        for (const RecordBatch& batch : morsel->batches) {
          push(batch, 0);
        }
        PipelineProgress now = progress;
        now.morsels_done = morsels_done.fetch_add(1, std::memory_order_relaxed) + 1;
        now.rows_done = rows_done.fetch_add(rows, std::memory_order_relaxed) + rows;
        report(now);
      }
      in_operator(sink.name(), [&] { sink.combine(*local); });
    };
    for (int t = 1; t < threads; ++t) {
      group.submit(work);
    }
    group.run_and_wait(work);
    options_.cancellation.throw_if_cancelled("the query was cancelled");
    if (pipeline.finalizes_sink) {
      in_operator(sink.name(), [&] { sink.finalize(context_); });
    }
    progress.morsels_done = morsels_done.load();
    progress.rows_done = rows_done.load();
    progress.finished = true;
    report(progress);
  }

  compute::ExecContext context_;
  QueryOptions options_;
  std::vector<std::unique_ptr<Sink>> sinks_;
  std::vector<Pipeline> pipelines_;
  std::map<Sink*, int64_t> sequences_;
  std::mutex progress_mutex_;
};

}  // namespace

Table execute(const PhysicalPtr& plan, const compute::ExecContext& context,
              const QueryOptions& options) {
  if (plan == nullptr) {
    throw InvalidArgument("execute needs a plan");
  }
  return Executor(context, options).run(plan);
}

void execute_into(const PhysicalPtr& plan, const compute::ExecContext& context,
                  const QueryOptions& options, ResultParts& parts) {
  if (plan == nullptr) {
    throw InvalidArgument("execute needs a plan");
  }
  PartsSink sink(parts, plan::output_schema(plan->output));
  Executor(context, options).run_into(plan, &sink);
}

}  // namespace bowstring::exec
