#pragma once

// The partition layout, peer groups and frames of a window input: what every window function
// of `evaluate_window` is computed from (internal to compute/window).

#include <cstdint>
#include <span>
#include <string>

#include "bowstring/compute/core/exec_context.h"
#include "bowstring/compute/window/window.h"
#include "bowstring/memory/scratch.h"

namespace bowstring::compute::window_detail {

/// The frame of each row: rows [begin[i], end[i]) of the input, empty when begin >= end.
struct Frames {
  ScratchVector<int64_t> begin;
  ScratchVector<int64_t> end;
};

/// The input's partitions, with the peer groups and partition ids computed on first use.
class WindowLayout {
 public:
  /// Checks the shape of `input` (offsets, key lengths) and keeps references to it.
  WindowLayout(const WindowInput& input, ExecContext& context);

  int64_t rows() const { return rows_; }
  int64_t num_partitions() const { return static_cast<int64_t>(offsets_.size()) - 1; }
  std::span<const int64_t> partition_offsets() const { return offsets_; }
  bool ordered() const { return !input_.order_keys.empty(); }
  Allocator* allocator() const { return context_.allocator; }
  ExecContext& context() const { return context_; }

  /// The partition of each row.
  std::span<const uint32_t> partition_ids();
  /// The first row of each row's peer group (rows of its partition with equal order keys, all
  /// of the partition without keys) and the row after its last one.
  std::span<const int64_t> peer_begin();
  std::span<const int64_t> peer_end();

  /// The frame of every row; `frame` was checked by `check_window_frame`.
  Frames frames(const WindowFrame& frame);

 private:
  void compute_peers();
  /// The frame ends of a RANGE frame with an offset on at least one side.
  void range_offset_frames(const WindowFrame& frame, Frames& frames);

  const WindowInput& input_;
  ExecContext& context_;
  std::span<const int64_t> offsets_;
  int64_t rows_ = 0;
  ScratchVector<uint32_t> partition_ids_;
  ScratchVector<int64_t> peer_begin_;
  ScratchVector<int64_t> peer_end_;
  bool peers_computed_ = false;
};

/// Whether a frame bound has the kind `kind`.
inline bool is(const FrameBound& bound, FrameBound::Kind kind) { return bound.kind == kind; }

/// A frame bound and a frame as Spark's SQL spells them ("2 PRECEDING" shows as its value).
std::string bound_sql(const FrameBound& bound);
std::string frame_sql(const WindowFrame& frame);

/// The integer value of a ROWS offset (checked by `check_window_frame`).
int64_t rows_offset(const FrameBound& bound);

}  // namespace bowstring::compute::window_detail
