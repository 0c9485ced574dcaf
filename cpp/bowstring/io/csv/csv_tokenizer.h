#pragma once

#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string>
#include <string_view>
#include <vector>

#include "bowstring/io/csv/csv_options.h"

namespace bowstring::io::csv {

/// A set of up to four bytes searched for in text: 16 bytes at a time where SSE2 exists.
class ByteSet {
 public:
  ByteSet() = default;
  ByteSet(char a, char b, char c, char d);
  /// The first byte of [p, end) in the set, or `end`.
  const char* find(const char* p, const char* end) const {
#if defined(__SSE2__)
    while (end - p >= 16) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i hits =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, a_), _mm_cmpeq_epi8(chunk, b_)),
                       _mm_or_si128(_mm_cmpeq_epi8(chunk, c_), _mm_cmpeq_epi8(chunk, d_)));
      const int mask = _mm_movemask_epi8(hits);
      if (mask != 0) {
        return p + __builtin_ctz(static_cast<unsigned>(mask));
      }
      p += 16;
    }
#endif
    while (p < end && !members_[static_cast<uint8_t>(*p)]) {
      ++p;
    }
    return p;
  }

 private:
  bool members_[256] = {};
#if defined(__SSE2__)
  __m128i a_{};
  __m128i b_{};
  __m128i c_{};
  __m128i d_{};
#endif
};

/// One field of a record: its text (after unquoting and unescaping) and how it was written.
struct Field {
  std::string_view text;
  bool quoted = false;
  /// An unescaped quote with `unescapedQuoteHandling` SKIP_VALUE: the field reads as null.
  bool skipped = false;
};

/// One record: its fields, its raw text (for the corrupt-record column) and where it starts.
struct Record {
  std::vector<Field> fields;
  std::string_view raw;
  /// Line breaks before the record, counted from the start of the tokenized range.
  int64_t line = 0;
  /// More than `maxColumns` fields, or an unescaped quote with RAISE_ERROR.
  bool malformed = false;
  const char* malformed_reason = nullptr;
};

/// Splits CSV text into records as Spark's CSV reader (univocity) does: empty lines and
/// comment lines are skipped; without `multiLine` a line break always ends a record (also
/// inside quotes, as Spark reads line by line), with it quoted line breaks belong to the value.
/// Field texts point into the input or into the tokenizer's scratch memory (unescaped quoted
/// values) and stay valid until the next call of `next`.
class Tokenizer {
 public:
  Tokenizer(const CsvReadOptions& options, std::string_view text);

  /// Reads the next record into `record`; false at the end of the text.
  bool next(Record& record);
  /// Offset of the next unread byte from the start of the text.
  int64_t offset() const { return pos_ - begin_; }
  /// Line breaks consumed so far.
  int64_t lines() const { return lines_; }

 private:
  bool at_line_break(const char* p) const {
    if (options_.line_separator.any) {
      return *p == '\n' || *p == '\r';
    }
    return *p == options_.line_separator.character;
  }
  // Consumes the line break at `pos_`.
  void consume_line_break() {
    if (options_.line_separator.any && *pos_ == '\r' && pos_ + 1 < end_ && pos_[1] == '\n') {
      ++pos_;
    }
    ++pos_;
    ++lines_;
  }
  bool is_blank(char c) const {
    return static_cast<unsigned char>(c) <= ' ' && c != options_.separator && !at_line_break(&c);
  }
  // Reads one field from `pos_`; returns false when the record ended after it.
  bool read_field(Record& record);
  void read_quoted(Record& record, const char* start);
  // A quoted value without escapes, closed by a quote that ends the field: its text points
  // into the input. False (nothing consumed) for any other value.
  bool read_plain_quoted(Field& field);
  // Appends to the scratch the unquoted rest of a value up to the separator or line end.
  void append_unquoted_rest();
  bool at_field_end() const {
    return pos_ == end_ || *pos_ == options_.separator || at_line_break(pos_);
  }

  const CsvReadOptions& options_;
  const char* begin_;
  const char* pos_;
  const char* end_;
  int64_t lines_ = 0;
  // Bytes that end an unquoted value (the separator and line breaks), and those that end the
  // plain run of a quoted one (the quote, the escape and, without multiLine, line breaks).
  ByteSet ends_unquoted_;
  ByteSet ends_quoted_run_;
  // Unescaped texts of the current record; fields refer into it by offset until it is final.
  std::string scratch_;
  std::vector<std::pair<size_t, size_t>> scratch_fields_;  // (field index, scratch offset)
  std::vector<size_t> scratch_lengths_;
};

/// The offset of the first record starting at or after `offset` when records are lines: just
/// after the first line break ending at or after `offset` (0 for 0).
int64_t next_line_start(std::string_view text, int64_t offset, const LineSeparator& separator);

}  // namespace bowstring::io::csv
