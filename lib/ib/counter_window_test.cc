// Two readings judged by their increase; the saved form read back.
#include "lib/ib/counter_window.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma::ib {
namespace {

PortReading window_port(uint64_t guid, uint8_t port, bool wide) {
  PortReading p;
  p.node_guid = guid;
  p.port = port;
  p.lid = 7;
  p.description = "sw \"a\"";
  p.wide = wide;
  p.values.assign(error_counters().size(), 0);
  return p;
}

size_t window_index(const char* name) {
  const auto& all = error_counters();
  for (size_t i = 0; i < all.size(); ++i)
    if (std::string_view(all[i]->name) == name) return i;
  return all.size();
}

TEST(CounterWindow, SavedReadingReadsBackTheSame) {
  Reading r{1700000000.5, {window_port(0x1234, 3, false), window_port(0x99, 1, true)}};
  r.ports[1].port_guid = 0x98;
  r.ports[1].values[window_index("PortXmitWait")] = ~uint64_t{0} - 1;
  Reading back = parse_reading(reading_json(r), "f");
  ASSERT_EQ(back.ports.size(), 2u);
  EXPECT_DOUBLE_EQ(back.time, r.time);
  EXPECT_EQ(back.ports[1].values, r.ports[1].values);
  EXPECT_EQ(back.ports[1].port_guid, 0x98u);
  EXPECT_TRUE(back.ports[1].wide);
  EXPECT_EQ(back.ports[0].description, "sw \"a\"");
  EXPECT_THROW(parse_reading("{}", "f"), Error);
  EXPECT_THROW(parse_reading("[1]", "f"), Error);
}

// Numbers outside their field's type are errors naming the file and the
// value, not conversions (a float past the type is undefined behaviour) or
// wrapped values.
TEST(CounterWindow, SavedNumbersOutsideTheirTypeAreErrors) {
  Reading r{1700000000.5, {window_port(0x1234, 3, false)}};
  std::string saved = reading_json(r);
  auto error = [&](const std::string& from, const std::string& to) -> std::string {
    std::string bad = saved;
    size_t at = bad.find(from);
    if (at == std::string::npos) return "(no " + from + ")";
    bad.replace(at, from.size(), to);
    try {
      parse_reading(bad, "f.json");
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(error("\"port\":3", "\"port\":1.11111e+76"),
            "f.json: \"port\" is not a whole number from 0 to 255");
  EXPECT_EQ(error("\"port\":3", "\"port\":259"),
            "f.json: \"port\" is not a whole number from 0 to 255");
  EXPECT_EQ(error("\"bits\":32", "\"bits\":-32"),
            "f.json: \"bits\" is not a whole number from 0 to 4294967295");
  EXPECT_EQ(error("\"rdma_error_counters\":1", "\"rdma_error_counters\":1e300"),
            "f.json: not a file of `rdma fabric errors save`");
  EXPECT_EQ(error("\"SymbolErrorCounter\":", "\"SymbolErrorCounter\":1e30,\"x\":"),
            "f.json: counter \"SymbolErrorCounter\" is not a whole number from 0 to "
            "18446744073709551615");
}

TEST(CounterWindow, IncreaseOverThresholdSaturatedAndWidthChange) {
  Reading a{100, {window_port(1, 1, false), window_port(1, 2, false), window_port(2, 1, false)}};
  Reading b = a;
  b.time = 110;
  size_t sym = window_index("SymbolErrorCounter"), vl15 = window_index("VL15Dropped");
  a.ports[0].values[sym] = 10;
  b.ports[0].values[sym] = 15;       // +5
  b.ports[1].values[vl15] = 0xffff;  // 16 bits: at its maximum
  b.ports[2].wide = true;            // read through the other attribute
  Thresholds t;
  WindowJudgement j = judge_window(a, b, error_counters(), t);
  EXPECT_DOUBLE_EQ(j.seconds, 10);
  EXPECT_EQ(j.ports_compared, 3u);
  ASSERT_EQ(j.ports.size(), 3u);
  EXPECT_TRUE(j.ports[0].over());
  EXPECT_EQ(j.ports[0].counters[0].increase, 5u);
  EXPECT_NE(j.ports[1].counters[0].cannot_judge.find("saturated at 65535"), std::string::npos);
  EXPECT_TRUE(j.ports[2].cannot_judge());
  t.set("SymbolErrorCounter", 5, Thresholds::Kind::Increase);
  t.set("SymbolErrorCounter", 1);  // the value's threshold does not judge a window
  WindowJudgement k = judge_window(a, b, error_counters(), t);
  EXPECT_EQ(k.ports.size(), 2u);  // +5 is not over 5
  EXPECT_EQ(k.ports_over, 0u);
}

}  // namespace
}  // namespace rdma::ib
