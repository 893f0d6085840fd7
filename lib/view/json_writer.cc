#include "lib/view/json_writer.h"

#include <charconv>

namespace rdma::view {

void JsonWriter::separate() {
  if (sep_) buf_ += sep_;
  sep_ = ',';
}

void JsonWriter::newline() {
  if (!pretty_) return;
  buf_ += '\n';
  buf_.append(4 * depth_, ' ');
}

void JsonWriter::begin(char c) {
  separate();
  buf_ += c;
  ++depth_;
  sep_ = '\0';
}

void JsonWriter::end(char c) {
  --depth_;
  if (sep_) newline();
  buf_ += c;
  sep_ = ',';
}

void JsonWriter::start_array() {
  begin('[');
  if (pretty_) buf_ += ' ';
}

void JsonWriter::end_array() {
  if (pretty_ && sep_) buf_ += ' ';
  sep_ = '\0';
  end(']');
}

void JsonWriter::start_object() {
  begin('{');
}
void JsonWriter::end_object() {
  end('}');
}

namespace {

bool plain(unsigned char c) {
  return c >= 0x20 && c != '"' && c != '\\';
}

}  // namespace

void JsonWriter::name(std::string_view key) {
  separate();
  newline();
  sep_ = '\0';
  quote(key, buf_);
  buf_.append(pretty_ ? ": " : ":");
}

void JsonWriter::raw(std::string_view json) {
  separate();
  buf_.append(json);
}

void JsonWriter::members(const Record& r) {
  for (const Field& f : r) {
    if (f.member) {
      separate();
      newline();
      buf_.append(f.json);
      continue;
    }
    if (f.key.empty()) continue;
    name(f.key);
    if (!f.json.empty())
      raw(f.json);
    else
      value(f.value);
  }
}

void JsonWriter::string(std::string_view s) {
  quote(s, buf_);
}

void JsonWriter::quote(std::string_view s, std::string& out) {
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    // Runs of characters that need no escape go in one append.
    size_t j = i;
    while (j < s.size() && plain(static_cast<unsigned char>(s[j]))) ++j;
    out.append(s.data() + i, j - i);
    if (j == s.size()) break;
    unsigned char c = static_cast<unsigned char>(s[j]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default: {
        static const char kHex[] = "0123456789abcdef";
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      }
    }
    i = j + 1;
  }
  out += '"';
}

void JsonWriter::value(const Json& v) {
  switch (v.type()) {
    case Json::value_t::array:
      start_array();
      for (const Json& e : v) value(e);
      end_array();
      return;
    case Json::value_t::object:
      start_object();
      for (const auto& [k, e] : v.items()) {
        name(k);
        value(e);
      }
      end_object();
      return;
    default:
      break;
  }
  separate();
  switch (v.type()) {
    case Json::value_t::string:
      string(v.get_ref<const std::string&>());
      break;
    case Json::value_t::number_unsigned:
      number(v.get<uint64_t>());
      break;
    case Json::value_t::number_integer:
      number(v.get<int64_t>());
      break;
    case Json::value_t::number_float:
      buf_ += v.dump();
      break;
    case Json::value_t::boolean:
      buf_ += v.get<bool>() ? "true" : "false";
      break;
    default:
      buf_ += "null";
      break;
  }
}

void JsonWriter::number(uint64_t n) {
  char tmp[24];
  buf_.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, n).ptr);
}

void JsonWriter::number(int64_t n) {
  char tmp[24];
  buf_.append(tmp, std::to_chars(tmp, tmp + sizeof tmp, n).ptr);
}

void JsonWriter::flush() {
  if (buf_.empty()) return;
  std::fwrite(buf_.data(), 1, buf_.size(), out_);
  buf_.clear();
}

}  // namespace rdma::view
