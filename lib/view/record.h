// A decoded record: the fields of one object (a device, a port, a QP...) in
// output order, each with its text and its JSON form, ready for a printer.
#pragma once

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
    f.key.assign(key);
    f.text.assign(text);
    f.value = std::move(value);
  }
  // A fresh field (empty key and text, null value) to fill in place.
  Field& next() {
    if (n_ == fields_.size()) fields_.emplace_back();
    Field& f = fields_[n_++];
    f.key.clear();
    f.text.clear();
    f.json.clear();
    f.member = false;
    if (!f.value.is_null()) f.value = nullptr;
    return f;
  }
  void clear() { n_ = 0; }
  Field& back() { return fields_[n_ - 1]; }

  const Field* begin() const { return fields_.data(); }
  const Field* end() const { return fields_.data() + n_; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const Field& operator[](size_t i) const { return fields_[i]; }

 private:
  std::vector<Field> fields_;
  size_t n_ = 0;
};

}  // namespace rdma::view
