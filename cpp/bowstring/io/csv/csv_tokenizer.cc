#include "bowstring/io/csv/csv_tokenizer.h"

namespace bowstring::io::csv {

ByteSet::ByteSet(char a, char b, char c, char d) {
  for (const char member : {a, b, c, d}) {
    members_[static_cast<uint8_t>(member)] = true;
  }
#if defined(__SSE2__)
  a_ = _mm_set1_epi8(a);
  b_ = _mm_set1_epi8(b);
  c_ = _mm_set1_epi8(c);
  d_ = _mm_set1_epi8(d);
#endif
}

Tokenizer::Tokenizer(const CsvReadOptions& options, std::string_view text)
    : options_(options), begin_(text.data()), pos_(text.data()), end_(text.data() + text.size()) {
  const char newline = options.line_separator.any ? '\n' : options.line_separator.character;
  const char carriage_return = options.line_separator.any ? '\r' : newline;
  ends_unquoted_ = ByteSet(options.separator, newline, carriage_return, newline);
  // With multiLine line breaks belong to quoted values: the quote stands in for them.
  ends_quoted_run_ = options.multi_line
                         ? ByteSet(options.quote, options.escape, options.quote, options.quote)
                         : ByteSet(options.quote, options.escape, newline, carriage_return);
}

bool Tokenizer::next(Record& record) {
  record.fields.clear();
  record.malformed = false;
  record.malformed_reason = nullptr;
  scratch_.clear();
  scratch_fields_.clear();
  scratch_lengths_.clear();
  // Empty lines and comment lines are no records.
  while (pos_ < end_) {
    if (at_line_break(pos_)) {
      consume_line_break();
    } else if (options_.comment != '\0' && *pos_ == options_.comment) {
      while (pos_ < end_ && !at_line_break(pos_)) {
        ++pos_;
      }
      if (pos_ < end_) {
        consume_line_break();
      }
    } else {
      break;
    }
  }
  if (pos_ == end_) {
    return false;
  }
  record.line = lines_;
  const char* start = pos_;
  while (read_field(record)) {
  }
  const char* raw_end = pos_;
  if (pos_ < end_) {
    consume_line_break();
  }
  record.raw = std::string_view(start, static_cast<size_t>(raw_end - start));
  for (size_t i = 0; i < scratch_fields_.size(); ++i) {
    const auto [field, offset] = scratch_fields_[i];
    record.fields[field].text = std::string_view(scratch_.data() + offset, scratch_lengths_[i]);
  }
  if (static_cast<int64_t>(record.fields.size()) > options_.max_columns) {
    record.malformed = true;
    record.malformed_reason = "the record has more fields than maxColumns";
  }
  return true;
}

bool Tokenizer::read_field(Record& record) {
  record.fields.emplace_back();
  if (options_.ignore_leading_whitespace) {
    while (pos_ < end_ && is_blank(*pos_)) {
      ++pos_;
    }
  }
  const char* start = pos_;
  if (options_.quote != '\0' && pos_ < end_ && *pos_ == options_.quote) {
    if (!read_plain_quoted(record.fields.back())) {
      read_quoted(record, start);
    }
  } else {
    pos_ = ends_unquoted_.find(pos_, end_);
    const char* value_end = pos_;
    if (options_.ignore_trailing_whitespace) {
      while (value_end > start && static_cast<unsigned char>(value_end[-1]) <= ' ') {
        --value_end;
      }
    }
    record.fields.back().text = std::string_view(start, static_cast<size_t>(value_end - start));
  }
  if (pos_ < end_ && *pos_ == options_.separator) {
    ++pos_;
    if (pos_ == end_ || at_line_break(pos_)) {
      // A separator at the end of the line: one more, empty field.
      record.fields.emplace_back();
      return false;
    }
    return true;
  }
  return false;
}

void Tokenizer::append_unquoted_rest() {
  while (!at_field_end()) {
    scratch_.push_back(*pos_++);
  }
}

bool Tokenizer::read_plain_quoted(Field& field) {
  const char* content = pos_ + 1;
  const char* p = content;
  p = ends_quoted_run_.find(p, end_);
  if (p == end_ || *p != options_.quote) {
    return false;
  }
  const char* after = p + 1;
  if (after < end_ && *after != options_.separator && !at_line_break(after)) {
    return false;  // a doubled quote, an unescaped quote or blanks after the closing quote
  }
  field.text = std::string_view(content, static_cast<size_t>(p - content));
  field.quoted = true;
  pos_ = after;
  return true;
}

void Tokenizer::read_quoted(Record& record, const char* start) {
  const char quote = options_.quote;
  const char escape = options_.escape;
  const size_t offset = scratch_.size();
  ++pos_;  // the opening quote
  while (pos_ < end_) {
    const char c = *pos_;
    if (c == escape && escape != quote && pos_ + 1 < end_ && pos_[1] == quote) {
      scratch_.push_back(pos_[1]);
      pos_ += 2;
      continue;
    }
    if (c == quote) {
      if (escape == quote && pos_ + 1 < end_ && pos_[1] == quote) {
        scratch_.push_back(quote);
        pos_ += 2;
        continue;
      }
      ++pos_;  // a closing quote, if what follows ends the field
      const char* after = pos_;
      while (pos_ < end_ && is_blank(*pos_)) {
        ++pos_;
      }
      if (at_field_end()) {
        break;
      }
      pos_ = after;
      // An unescaped quote inside the value.
      switch (options_.unescaped_quote_handling) {
        case UnescapedQuoteHandling::kStopAtClosingQuote:
          scratch_.push_back(quote);
          continue;
        case UnescapedQuoteHandling::kRaiseError:
          record.malformed = true;
          record.malformed_reason = "an unescaped quote inside a quoted value";
          [[fallthrough]];
        case UnescapedQuoteHandling::kStopAtDelimiter:
          scratch_.push_back(quote);
          append_unquoted_rest();
          break;
        case UnescapedQuoteHandling::kBackToDelimiter:
          pos_ = start;
          scratch_.resize(offset);
          append_unquoted_rest();
          break;
        case UnescapedQuoteHandling::kSkipValue:
          while (!at_field_end()) {
            ++pos_;
          }
          record.fields.back().skipped = true;
          break;
      }
      break;
    }
    if (!options_.multi_line && at_line_break(pos_)) {
      break;  // records are lines: the quote is never closed
    }
    scratch_.push_back(c);
    ++pos_;
  }
  Field& field = record.fields.back();
  field.quoted = true;
  scratch_fields_.emplace_back(record.fields.size() - 1, offset);
  scratch_lengths_.push_back(scratch_.size() - offset);
}

int64_t next_line_start(std::string_view text, int64_t offset, const LineSeparator& separator) {
  if (offset <= 0) {
    return 0;
  }
  const int64_t size = static_cast<int64_t>(text.size());
  for (int64_t i = offset - 1; i < size; ++i) {
    const char c = text[static_cast<size_t>(i)];
    if (separator.any) {
      if (c == '\n' || (c == '\r' && (i + 1 == size || text[static_cast<size_t>(i) + 1] != '\n'))) {
        return i + 1;
      }
    } else if (c == separator.character) {
      return i + 1;
    }
  }
  return size;
}

}  // namespace bowstring::io::csv
