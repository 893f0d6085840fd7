#include "lib/view/json_number.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace rdma::view {
namespace {

std::string json_whole_error(const char* text) {
  try {
    json_whole<uint8_t>(nlohmann::json::parse(text), "port");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsonWhole, TakesEveryValueOfTheType) {
  EXPECT_EQ(json_whole<uint8_t>(nlohmann::json::parse("0"), "port"), 0);
  EXPECT_EQ(json_whole<uint8_t>(nlohmann::json::parse("255"), "port"), 255);
  EXPECT_EQ(json_whole<uint64_t>(nlohmann::json::parse("18446744073709551615"), "guid"),
            UINT64_MAX);
}

TEST(JsonWhole, RefusesWhatGetWouldConvertOrWrap) {
  const std::string refused = "port is not a whole number from 0 to 255";
  EXPECT_EQ(json_whole_error("256"), refused);  // get<uint8_t> wraps it to 0
  EXPECT_EQ(json_whole_error("-1"), refused);   // and this to 255
  EXPECT_EQ(json_whole_error("1.5"), refused);
  EXPECT_EQ(json_whole_error("1.11111e+76"), refused);  // undefined in get<>
  EXPECT_EQ(json_whole_error("\"1\""), refused);
  EXPECT_EQ(json_whole_error("null"), refused);
}

}  // namespace
}  // namespace rdma::view
