#include "bowstring/udf/errors.h"

#include <utility>

namespace bowstring::udf {

namespace {

// The worker's traceback already ends with "<exception>: <message>"; without one (an error the
// worker found outside the user's code) the exception and message alone say what happened.
std::string python_exception_text(const std::string& exception_type, const std::string& message,
                                  const std::string& traceback) {
  if (!traceback.empty()) {
    return traceback;
  }
  return message.empty() ? exception_type : exception_type + ": " + message;
}

}  // namespace

PythonException::PythonException(std::string exception_type, std::string message,
                                 std::string traceback, std::optional<int64_t> batch)
    : Error(python_exception_text(exception_type, message, traceback)),
      exception_type_(std::move(exception_type)),
      message_(std::move(message)),
      traceback_(std::move(traceback)),
      batch_(batch) {}

}  // namespace bowstring::udf
