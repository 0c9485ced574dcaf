#pragma once

// What the IPC fuzz targets do with each batch they manage to read: the reader validated it in
// full, so printing it and comparing it with itself must work without any sanitizer report.

#include "bowstring/table/record_batch.h"

namespace bowstring::fuzz {

inline void use_batch(const RecordBatch& batch) {
  batch.validate_full();
  static_cast<void>(batch.to_string());
  static_cast<void>(batch.equals(batch.slice(0)));
}

}  // namespace bowstring::fuzz
