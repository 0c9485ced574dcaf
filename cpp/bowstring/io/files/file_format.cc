#include "bowstring/io/files/file_format.h"

namespace bowstring::io {

RecordBatch keep_matching(const RecordBatch& batch, const expr::BoundExpression* filter,
                          compute::ExecContext& context) {
  if (filter == nullptr) {
    return batch;
  }
  return expr::filter(batch, *filter, context);
}

}  // namespace bowstring::io
