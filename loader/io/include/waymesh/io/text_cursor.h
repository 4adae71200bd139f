#pragma once
// Forward-only tokenizer over a text file that knows the line and column of every token, so
// errors read `file:line:column: what`. Serves both line-oriented formats (OBJ) and
// whitespace-insensitive ones (Polyanya .mesh).

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace waymesh::importer {

// `token` in single quotes for a message: at most 40 bytes, other bytes than printable ASCII
// escaped as \xNN, so binary garbage cannot flood or corrupt a log line.
std::string QuoteToken(std::string_view token);

class TextCursor {
 public:
  // `text` and `origin` must outlive the cursor.
  TextCursor(std::string_view text, std::string_view origin) : text_(text), origin_(origin) {}

  // Next whitespace-separated token, crossing line breaks; empty at end of input.
  std::string_view NextToken();
  // Next token on the current line; empty at the end of the line. With `comment` set, a token
  // starting with that character ends the line (the rest is skipped).
  std::string_view NextTokenInLine(char comment = '\0');
  // Moves to the start of the next line; false when there is none.
  bool NextLine();
  // True when only whitespace remains.
  bool AtEnd();

  // 1-based line and column of the last token returned (or of the current position before the
  // first token).
  int64_t line() const { return token_line_; }
  int64_t column() const { return token_column_; }
  std::string_view origin() const { return origin_; }

  // InvalidArgument "origin:line:column: message" at the last token.
  absl::Status ErrorAtToken(std::string_view message) const;
  // InvalidArgument "origin:line: message" for problems of a whole line (or end of file).
  absl::Status ErrorAtLine(std::string_view message) const;

 private:
  // Skips spaces, tabs, CR, vertical tab and form feed, and with `newlines` also line breaks.
  void SkipBlanks(bool newlines);
  std::string_view TakeToken();

  std::string_view text_;
  std::string_view origin_;
  size_t pos_ = 0;
  int64_t line_ = 1;       // line of pos_
  size_t line_start_ = 0;  // offset of the first byte of line_
  int64_t token_line_ = 1;
  int64_t token_column_ = 1;
};

}  // namespace waymesh::importer
