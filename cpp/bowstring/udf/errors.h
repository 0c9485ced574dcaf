#pragma once

#include <optional>
#include <string>

#include "bowstring/util/error.h"

namespace bowstring::udf {

/// The user's Python function raised, or returned something that does not match the declared
/// output. `what()` is the worker's message: the exception and its traceback, trimmed to the
/// user's frames, as PySpark's `PythonException` shows it.
class PythonException : public Error {
 public:
  PythonException(std::string exception_type, std::string message, std::string traceback,
                  std::optional<int64_t> batch);
  /// The Python exception's class name ("ZeroDivisionError").
  const std::string& exception_type() const { return exception_type_; }
  const std::string& message() const { return message_; }
  const std::string& traceback() const { return traceback_; }
  /// Index of the input batch (within the partition) being processed, when known.
  std::optional<int64_t> batch() const { return batch_; }

 private:
  std::string exception_type_;
  std::string message_;
  std::string traceback_;
  std::optional<int64_t> batch_;
};

/// A worker process could not do the call: it exited or was killed (signal, memory, timeout),
/// broke the protocol, or could not be started. The message names the worker, how it ended and
/// the last lines it wrote.
class WorkerFailure : public Error {
 public:
  using Error::Error;
};

}  // namespace bowstring::udf
