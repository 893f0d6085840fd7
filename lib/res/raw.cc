#include "lib/res/raw.h"

#include <string>

namespace rdma::res {

void append_raw(std::span<const uint8_t> data, view::Record& r) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text = "data";
  view::Json json = view::Json::array();
  for (size_t i = 0; i < data.size(); ++i) {
    if (i % 4 == 0) text += ' ';
    text += kDigits[data[i] >> 4];
    text += kDigits[data[i] & 15];
    json.push_back(data[i]);
  }
  text += ' ';
  r.add("data", std::move(text), std::move(json));
}

}  // namespace rdma::res
