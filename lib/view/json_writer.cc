#include "lib/view/json_writer.h"

namespace rdma::view {

void JsonWriter::separate() {
  if (sep_) std::fputc(sep_, out_);
  sep_ = ',';
}

void JsonWriter::newline() {
  if (!pretty_) return;
  std::fputc('\n', out_);
  for (int i = 0; i < depth_; ++i) std::fputs("    ", out_);
}

void JsonWriter::begin(char c) {
  separate();
  std::fputc(c, out_);
  ++depth_;
  sep_ = '\0';
}

void JsonWriter::end(char c) {
  --depth_;
  if (sep_) newline();
  std::fputc(c, out_);
  sep_ = ',';
}

void JsonWriter::start_array() {
  begin('[');
  if (pretty_) std::fputc(' ', out_);
}

void JsonWriter::end_array() {
  if (pretty_ && sep_) std::fputc(' ', out_);
  sep_ = '\0';
  end(']');
}

void JsonWriter::start_object() {
  begin('{');
}
void JsonWriter::end_object() {
  end('}');
}

void JsonWriter::name(std::string_view key) {
  separate();
  newline();
  sep_ = '\0';
  string(key);
  std::fputc(':', out_);
  if (pretty_) std::fputc(' ', out_);
}

void JsonWriter::string(std::string_view s) {
  std::fputc('"', out_);
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        std::fputs("\\\"", out_);
        break;
      case '\\':
        std::fputs("\\\\", out_);
        break;
      case '\n':
        std::fputs("\\n", out_);
        break;
      case '\t':
        std::fputs("\\t", out_);
        break;
      case '\r':
        std::fputs("\\r", out_);
        break;
      case '\b':
        std::fputs("\\b", out_);
        break;
      case '\f':
        std::fputs("\\f", out_);
        break;
      default:
        if (c < 0x20)
          std::fprintf(out_, "\\u%04x", c);
        else
          std::fputc(c, out_);
    }
  }
  std::fputc('"', out_);
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
      std::fprintf(out_, "%llu", static_cast<unsigned long long>(v.get<uint64_t>()));
      break;
    case Json::value_t::number_integer:
      std::fprintf(out_, "%lld", static_cast<long long>(v.get<int64_t>()));
      break;
    case Json::value_t::number_float:
      std::fputs(v.dump().c_str(), out_);
      break;
    case Json::value_t::boolean:
      std::fputs(v.get<bool>() ? "true" : "false", out_);
      break;
    default:
      std::fputs("null", out_);
      break;
  }
}

}  // namespace rdma::view
