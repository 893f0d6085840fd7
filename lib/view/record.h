// A decoded record: the fields of one object (a device, a port, a QP...) in
// output order, each with its text and its JSON form, ready for a printer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rdma::view {

using Json = nlohmann::ordered_json;

struct Field {
  std::string key;   // JSON key; empty: text only
  std::string text;  // text form including label and separator; empty: JSON only
  Json value;        // JSON form
};

struct Record {
  std::vector<Field> fields;

  void add(std::string key, std::string text, Json value) {
    fields.push_back({std::move(key), std::move(text), std::move(value)});
  }
  void clear() { fields.clear(); }
};

}  // namespace rdma::view
