#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "bowstring/array/array.h"
#include "bowstring/memory/allocator.h"
#include "bowstring/memory/scratch.h"

namespace bowstring::compute {

// The hash table of an equi-join. The build side (called "right") is fed in batches, numbered
// row by row, and finalized into one table per radix partition; then batches of the probe side
// ("left") are probed against it concurrently, producing pairs of row numbers in bounded chunks.
// The caller keeps the payload columns of both sides and takes them by these row numbers.
//
// Keys follow Spark: a null key never matches under `=`, and matches null under `<=>` (a key
// marked null-safe); NaN equals NaN and -0.0 equals 0.0; nested values are equal when their
// elements are (nulls inside them equal each other).

/// Which rows a join outputs. Left is the probe side, right the build side; the engine swaps its
/// inputs to put the side it wants to hash on the right.
enum class JoinType : uint8_t {
  kInner,
  kLeftOuter,   // unmatched probe rows with a null build row
  kRightOuter,  // unmatched build rows (after all probes) with a null probe row
  kFullOuter,
  kLeftSemi,   // each probe row with a match, once
  kLeftAnti,   // each probe row without a match
  kRightSemi,  // each build row with a match, once, after all probes
  kRightAnti,  // each build row without a match, after all probes
};

std::string_view join_type_name(JoinType type);

/// The row number of the side a pair lacks: the build row of an unmatched probe row (left outer,
/// and every pair of left semi and anti joins), the probe row of a build row (right joins).
inline constexpr int64_t kNoRow = -1;

/// Pairs (probe row, build row) of row numbers: probe rows index the probe batch, build rows
/// number the build side 0..N-1 in the order of `JoinHashTable::add`. Either may be `kNoRow`.
class JoinPairs {
 public:
  explicit JoinPairs(Allocator* allocator = default_allocator());

  int64_t size() const { return static_cast<int64_t>(probe_rows_.size()); }
  bool empty() const { return probe_rows_.empty(); }
  std::span<const int64_t> probe_rows() const { return probe_rows_; }
  std::span<const int64_t> build_rows() const { return build_rows_; }

  void clear();
  /// Makes room for `pairs` pairs in all without reallocating.
  void reserve(int64_t pairs);
  void append(int64_t probe_row, int64_t build_row) {
    probe_rows_.push_back(probe_row);
    build_rows_.push_back(build_row);
  }
  /// Appends (probe_row, build_rows[i]) for every i.
  void append(int64_t probe_row, std::span<const int64_t> build_rows);

  /// The probe rows (or build rows) as an int64 array with a null for each `kNoRow`: the indices
  /// `take` turns into the output columns of that side (a null index gives a null row).
  Array probe_indices(Allocator* allocator = default_allocator()) const;
  Array build_indices(Allocator* allocator = default_allocator()) const;

 private:
  ScratchVector<int64_t> probe_rows_;
  ScratchVector<int64_t> build_rows_;
};

struct JoinTableOptions {
  /// Radix partitions of the build side: a power of two from 1 to 1024. Each is finalized into
  /// its own table on a thread of the pool.
  int partitions = 64;
};

class JoinProbe;

/// The build side of a hash join and the table probes look up.
///
/// Life cycle: `add` batches of build keys (from any threads at once), `finalize` once, then
/// `probe` batches from any threads at once, then, once every probe has finished, read the build
/// rows of right, full outer, right semi and right anti joins with `collect_build_rows` (ranges
/// from any threads at once).
///
/// All memory that grows with the data (the partitions' blocks and tables, the match flags, the
/// probes' lookups and their output) comes from the allocator given, so that a build over a
/// budget fails with the allocator's `OutOfMemory` and frees what it took. Only bookkeeping of
/// fixed size per batch, and the row encoding of one block of 1024 wide keys, do not.
///
/// Layout: each batch added is hashed and scattered at once into its partitions (by the top bits
/// of the hashes) as one block per partition: the keys, hashes and row numbers of those rows.
/// `finalize` turns the blocks of each partition into that partition's table, which refers to
/// nothing outside it. A partition is therefore a unit that could be written to disk while the
/// build runs (its blocks) and read back to be finalized and probed on its own, with the probe
/// rows hashing to it set aside likewise: the grace hash join spilling would add.
class JoinHashTable {
 public:
  /// A table for keys of `key_types` (at least one; the probe keys have the same types);
  /// `null_safe[i]` says whether key i compares with `<=>` (one flag per key, or empty: none).
  /// Throws `InvalidArgument` on a wrong number of flags or partitions, `TypeError` for key
  /// types that cannot be compared (unions, run-end encoded).
  JoinHashTable(std::vector<TypePtr> key_types, std::vector<bool> null_safe, JoinType type,
                Allocator* allocator = default_allocator(), JoinTableOptions options = {});
  ~JoinHashTable();
  JoinHashTable(const JoinHashTable&) = delete;
  JoinHashTable& operator=(const JoinHashTable&) = delete;

  JoinType type() const { return type_; }
  const std::vector<TypePtr>& key_types() const { return key_types_; }
  Allocator* allocator() const { return allocator_; }

  /// Adds the rows of a batch of build keys (one array per key, of one length), numbering them
  /// from the returned row on: rows are numbered in the order of the `add` calls. Thread safe.
  /// Throws `InvalidArgument` on keys of the wrong number, types or lengths, or after
  /// `finalize`.
  int64_t add(std::span<const Array> keys);

  /// Builds the table of every partition, in parallel on the process-wide pool, and frees the
  /// blocks `add` made. Called once, after every `add` has returned.
  void finalize();
  bool finalized() const { return finalized_; }

  /// Rows added so far (the build rows are 0..num_build_rows() - 1).
  int64_t num_build_rows() const;
  /// Distinct keys that can match, once finalized (rows with a null in a key that is not
  /// null-safe are in no group).
  int64_t num_groups() const;

  /// A cursor over the results of probing one batch of probe keys (one array per key, of the
  /// build key types). Thread safe: any number of probes may run at once, each cursor on one
  /// thread at a time. The keys are kept alive by the cursor; the table must outlive it. Throws
  /// `InvalidArgument` on keys of the wrong number, types or lengths, or before `finalize`.
  JoinProbe probe(std::span<const Array> keys);

  /// Whether the join outputs build rows after the probes (right, full outer, right semi and
  /// right anti joins).
  bool outputs_build_rows() const;
  /// Appends to `out` a pair (kNoRow, build row) for each build row in [begin, end) that the
  /// join outputs after the probes: rows never matched (right and full outer, right anti) or
  /// rows matched (right semi), ascending. Call only once every probe has finished; ranges may
  /// be read from several threads at once. Throws `InvalidArgument` for other join types or a
  /// range outside the build rows.
  void collect_build_rows(int64_t begin, int64_t end, JoinPairs& out) const;

 private:
  friend class JoinProbe;
  struct Layout;
  struct Run;
  struct Partition;
  struct Match;

  void check_keys(std::span<const Array> keys, std::string_view what) const;
  /// The partition of a key of hash `hash`: its top bits.
  size_t partition_of(uint64_t hash) const {
    return partition_bits_ == 0 ? 0 : static_cast<size_t>(hash >> (64 - partition_bits_));
  }
  void finalize_partition(size_t partition);
  /// Marks the build rows of a matched key as matched (once per key).
  void mark_group(const Match& match);
  void mark_row(int64_t build_row);

  std::vector<TypePtr> key_types_;
  std::vector<bool> null_safe_;
  JoinType type_;
  Allocator* allocator_;
  int partition_bits_;
  std::unique_ptr<Layout> layout_;

  mutable std::mutex add_mutex_;
  int64_t rows_added_ = 0;
  std::vector<std::unique_ptr<Run>> runs_;  // in row order
  bool finalized_ = false;

  std::vector<std::unique_ptr<Partition>> partitions_;
  int64_t slot_bytes_ = 0;  // of every partition's table
  // One bit per build row: matched by a probe (only for the joins that output build rows), set
  // through std::atomic_ref while probes run.
  ScratchVector<uint64_t> matched_;
};

/// The results of probing one batch of probe keys, chunk by chunk. Probe rows come out in
/// order, each with its matching build rows in build row order.
///
/// Without a residual condition, `next` gives the join's output pairs directly. With one, the
/// caller alternates `next_candidates` (the pairs whose keys match), evaluates the condition on
/// them, and `resolve` (whether each passed), which gives the output pairs: passing pairs, and
/// for outer, semi and anti joins the probe rows decided by them (a probe row is unmatched only
/// if none of its candidates passed; build rows are matched only by passing pairs). Use one way
/// for the whole batch.
class JoinProbe {
 public:
  JoinProbe(JoinProbe&&) noexcept;
  JoinProbe& operator=(JoinProbe&&) noexcept;
  ~JoinProbe();

  /// Replaces `out` by the next at most `max_pairs` output pairs (without a residual
  /// condition); false when the batch is done (`out` is then empty). Right semi and anti joins
  /// output nothing here: probing only marks the build rows that match.
  bool next(int64_t max_pairs, JoinPairs& out);

  /// Moves to the next chunk of candidate pairs (at most `max_pairs`, counting also the probe
  /// rows without candidates that the chunk decides, so that `resolve` outputs at most
  /// `max_pairs` pairs); false when the batch is done. After true, evaluate the condition on
  /// `candidates()` (maybe none) and call `resolve`.
  bool next_candidates(int64_t max_pairs);
  /// The candidate pairs of the current chunk.
  const JoinPairs& candidates() const { return candidates_; }
  /// Replaces `out` by the output pairs of the current chunk, given `passed` (boolean, one value
  /// per candidate; null counts as false, as a SQL condition does), and marks the build rows
  /// matched by passing pairs. Throws `InvalidArgument` without a pending chunk or on a mask of
  /// the wrong type or length.
  void resolve(const Array& passed, JoinPairs& out);

 private:
  friend class JoinHashTable;
  struct Lookup;
  struct Segment {
    int64_t probe_row;
    int64_t begin;  // candidates [begin, end) of the chunk
    int64_t end;
    bool finishes;       // the probe row has no candidates after these
    bool passed_before;  // a candidate of this probe row passed in an earlier chunk
  };

  JoinProbe(JoinHashTable& table, std::span<const Array> keys);
  /// The match of probe row `row_`, looking up the block of rows it starts when needed.
  const JoinHashTable::Match& current_match();
  void next_row();

  JoinHashTable* table_;
  std::unique_ptr<Lookup> lookup_;
  int64_t length_;
  int64_t row_ = 0;
  int64_t offset_ = 0;       // candidates of row_ already given out
  bool row_passed_ = false;  // with a residual: a candidate of row_ passed
  bool resolve_pending_ = false;
  JoinPairs candidates_;
  ScratchVector<Segment> segments_;
};

}  // namespace bowstring::compute
