// A decoded record: the fields of one object (a device, a port, a QP...) in
// output order, each with its text and its JSON form, ready for a printer.
#pragma once

#include <charconv>
#include <concepts>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rdma::view {

using Json = nlohmann::ordered_json;

struct Field {
  std::string key;   // JSON key; empty: text only
  std::string text;  // text form including label and separator; empty: JSON only
  Json value;        // JSON form
  // The JSON form already written out (a number, or a quoted and escaped
  // string); when set, printers use it instead of value. Long listings fill
  // this to skip building Json values.
  std::string json;
  // json holds whole members, keys included: `"key":value` (`"key": value`
  // for -p), or in compact output several joined by commas. Long listings
  // write them so instead of storing keys to be quoted again for every
  // object. key is unused then.
  bool member = false;
};

// clear() keeps the fields' storage, so a view that renders one object after
// another into the same Record allocates nothing once warm: listing 10k QPs
// costs the formatting, not 10k x fields allocations.
class Record {
 public:
  void add(std::string_view key, std::string_view text, Json value) {
    Field& f = next();
    f.text.assign(text);
    if (text_only_) return;
    f.key.assign(key);
    f.value = std::move(value);
  }
  // A pair in both forms in one call, as iproute2's print_string(PRINT_ANY,
  // key, "key %s ", value): text "key value ", JSON "key": value.
  void pair(std::string_view key, std::string_view value) {
    if (text_only_) {
      pair_text(key, value);
      return;
    }
    pair(key, value, Json(std::string(value)));
  }
  template <std::integral T>
  requires(!std::same_as<T, bool>) void pair(std::string_view key, T value) {
    char num[24];
    std::string_view text{
        num, static_cast<size_t>(std::to_chars(num, num + sizeof num, value).ptr - num)};
    if (text_only_) {
      pair_text(key, text);
      return;
    }
    pair(key, text, value);
  }
  // The same where the text shows value_text and JSON another form (a list,
  // a shortened string).
  void pair(std::string_view key, std::string_view value_text, Json value) {
    Field& f = pair_text(key, value_text);
    if (text_only_) return;
    f.key.assign(key);
    f.value = std::move(value);
  }
  // A string that may hold blanks (a finding's sentence): quoted in text, so
  // that the line stays "key value" pairs; plain in JSON.
  void pair_quoted(std::string_view key, std::string_view value) {
    pair(key, "\"" + std::string(value) + "\"", Json(std::string(value)));
  }
  // A fresh field (empty key and text, null value) to fill in place.
  Field& next() {
    if (n_ == fields_.size()) grow();
    Field& f = fields_[n_++];
    f.key.clear();
    f.text.clear();
    f.json.clear();
    f.member = false;
    if (!f.value.is_null()) f.value = nullptr;
    return f;
  }
  void clear() { n_ = 0; }
  // A record only a text printer reads (Printer::scratch() of one): its
  // fields need only their text, so the JSON forms (keys, Json values, the
  // written-out json) are not built. The printers' output is the same.
  void set_text_only(bool on) { text_only_ = on; }
  bool text_only() const { return text_only_; }
  Field& back() { return fields_[n_ - 1]; }

  const Field* begin() const { return fields_.data(); }
  const Field* end() const { return fields_.data() + n_; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const Field& operator[](size_t i) const { return fields_[i]; }

 private:
  // Out of line and rare (a warm record has its fields): inlined, it made
  // next(), which runs for every field, save and restore six registers.
  [[gnu::noinline]] void grow() {
    // Room for a usual object's fields at once: growing one field at a time
    // moved every field (strings and JSON values) again and again.
    if (fields_.empty()) fields_.reserve(kUsualFields);
    fields_.emplace_back();
  }
  Field& pair_text(std::string_view key, std::string_view value_text) {
    Field& f = next();
    f.text.reserve(key.size() + value_text.size() + 2);
    f.text.append(key).append(" ").append(value_text).append(" ");
    return f;
  }

  static constexpr size_t kUsualFields = 24;
  std::vector<Field> fields_;
  size_t n_ = 0;
  bool text_only_ = false;
};

}  // namespace rdma::view
