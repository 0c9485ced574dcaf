#pragma once

#include <stdexcept>
#include <string>

namespace bowstring {

/// Base of every error Bowstring raises. One subclass per kind of failure, so callers (and the
/// Python bindings, which map them to `pyspark.errors`-style exceptions) can tell them apart.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An argument is outside what the callee accepts (bad length, offset, option...).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A value or array has the wrong data type for the operation.
class TypeError : public Error {
 public:
  using Error::Error;
};

/// Data does not satisfy the Arrow format's invariants (found by validation or while reading).
class FormatError : public Error {
 public:
  using Error::Error;
};

/// A read, write, open or map of a file, pipe or socket failed.
class IoError : public Error {
 public:
  using Error::Error;
};

/// An allocation failed or would pass a memory budget.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

/// A feature that exists in the format but is not implemented for this case.
class NotImplemented : public Error {
 public:
  using Error::Error;
};

/// An index is outside an array, batch or table.
class IndexError : public Error {
 public:
  using Error::Error;
};

}  // namespace bowstring
