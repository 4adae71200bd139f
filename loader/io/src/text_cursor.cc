#include "waymesh/io/text_cursor.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace waymesh::importer {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

constexpr size_t kMaxQuotedBytes = 40;

}  // namespace

std::string QuoteToken(std::string_view token) {
  std::string out = "'";
  for (size_t i = 0; i < token.size() && i < kMaxQuotedBytes; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(c, absl::kZeroPad2));
    }
  }
  out += token.size() > kMaxQuotedBytes ? "...'" : "'";
  return out;
}

void TextCursor::SkipBlanks(bool newlines) {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (IsBlank(c)) {
      ++pos_;
    } else if (c == '\n' && newlines) {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else {
      break;
    }
  }
  token_line_ = line_;
  token_column_ = static_cast<int64_t>(pos_ - line_start_) + 1;
}

std::string_view TextCursor::TakeToken() {
  const size_t begin = pos_;
  while (pos_ < text_.size() && !IsBlank(text_[pos_]) && text_[pos_] != '\n') ++pos_;
  return text_.substr(begin, pos_ - begin);
}

std::string_view TextCursor::NextToken() {
  const int64_t previous_line = token_line_;
  SkipBlanks(/*newlines=*/true);
  // At the end, report the line of the last token: that is where the file stops making sense.
  if (pos_ >= text_.size()) token_line_ = previous_line;
  return TakeToken();
}

std::string_view TextCursor::NextTokenInLine(char comment) {
  SkipBlanks(/*newlines=*/false);
  if (comment != '\0' && pos_ < text_.size() && text_[pos_] == comment) {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }
  return TakeToken();
}

bool TextCursor::NextLine() {
  while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  if (pos_ >= text_.size()) return false;
  ++pos_;
  ++line_;
  line_start_ = pos_;
  token_line_ = line_;
  token_column_ = 1;
  return true;
}

bool TextCursor::AtEnd() {
  SkipBlanks(/*newlines=*/true);
  return pos_ >= text_.size();
}

absl::Status TextCursor::ErrorAtToken(std::string_view message) const {
  return absl::InvalidArgumentError(
      absl::StrFormat("%s:%d:%d: %s", origin_, token_line_, token_column_, message));
}

absl::Status TextCursor::ErrorAtLine(std::string_view message) const {
  return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", origin_, token_line_, message));
}

}  // namespace waymesh::importer
