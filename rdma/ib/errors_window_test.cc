// fabric errors save / since / window against the fabric double: the
// increase judged without a reset, counters that cannot be judged, flaps,
// 64-bit counters where the PMA has them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/mad/attrs_pma.h"
#include "lib/testing/fabric/fabric.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using test::Result;

class ErrorsWindowCmd : public madtest::MadCmd {
 protected:
  ErrorsWindowCmd() : file_(::testing::TempDir() + "rdma-errors-window.json") {}
  ~ErrorsWindowCmd() override { std::remove(file_.c_str()); }
  // The one object -j prints.
  nlohmann::json since(std::vector<std::string> more = {}) {
    std::vector<std::string> w = {"-j", "fabric", "errors", "since", file_};
    w.insert(w.end(), more.begin(), more.end());
    last_ = run(w);
    nlohmann::json doc = nlohmann::json::parse(last_.out);
    return doc.at(0);
  }
  std::string file_;
  Result last_;
};

TEST_F(ErrorsWindowCmd, SinceJudgesTheIncreaseNotTheValue) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 100);  // high, but it will not move
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 5);
  ASSERT_EQ(run({"fabric", "errors", "save", file_}).status, 0);
  EXPECT_EQ(fabric_.counter(sw2, 3, "SymbolErrorCounter"), 100u);  // never reset
  nlohmann::json j = since();
  EXPECT_EQ(last_.status, 0) << last_.err;
  EXPECT_EQ(j["ports"], nlohmann::json::array());
  EXPECT_EQ(j["summary"]["ports_compared"], 20);
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 17);
  j = since();
  EXPECT_EQ(last_.status, 1);
  ASSERT_EQ(j["ports"].size(), 1u) << j;
  const nlohmann::json& p = j["ports"][0];
  EXPECT_EQ(p["description"], "hca3");
  EXPECT_EQ(p["rcv_errors"]["before"], 5);
  EXPECT_EQ(p["rcv_errors"]["after"], 17);
  EXPECT_EQ(p["rcv_errors"]["increase"], 12);
  EXPECT_FALSE(p.contains("symbol_errors"));
  EXPECT_EQ(j["summary"]["ports_over_threshold"], 1);
  // A threshold of the increase: 12 is not over 12.
  j = since({"threshold", "PortRcvErrors=12"});
  EXPECT_EQ(last_.status, 0);
  EXPECT_EQ(j["ports"].size(), 0u);
  // Text: one line a port, then the summary.
  Result t = run({"fabric", "errors", "since", file_});
  EXPECT_NE(t.out.find("description \"hca3\" port 1 "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(" rcv_errors 5->17 (+12, "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("\nwindow: 20 ports compared over "), std::string::npos) << t.out;
}

TEST_F(ErrorsWindowCmd, AResetASaturatedCounterAndAFlapAreSaidSo) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3"), hca2 = fabric_.node("hca2");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 40);
  fabric_.set_counter(hca2, 1, "PortXmitDiscards", 0xffff);  // 16 bits: stopped there
  ASSERT_EQ(run({"fabric", "errors", "save", file_}).status, 0);
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 2);  // someone reset it
  fabric_.set_counter(hca3, 1, "LinkDownedCounter", 3);
  nlohmann::json j = since();
  EXPECT_EQ(last_.status, 1);  // the flap
  std::map<std::string, nlohmann::json> by;
  for (const auto& p : j["ports"]) by[p["description"]] = p;
  ASSERT_EQ(by.size(), 3u) << j;
  EXPECT_EQ(by["sw2"]["symbol_errors"]["cannot_judge"],
            "went down from 40 to 2 (reset or wrapped)");
  EXPECT_FALSE(by["sw2"]["symbol_errors"].contains("increase"));
  EXPECT_NE(
      by["hca2"]["xmit_discards"]["cannot_judge"].get<std::string>().find("saturated at 65535"),
      std::string::npos);
  EXPECT_EQ(by["hca3"]["link_downed"]["increase"], 3);
  EXPECT_EQ(by["hca3"]["flap"].get<std::string>().rfind("link down 3 times in ", 0), 0u);
  EXPECT_EQ(j["summary"]["ports_cannot_judge"], 2);
  EXPECT_EQ(j["summary"]["ports_flapped"], 1);
}

TEST_F(ErrorsWindowCmd, MetricsCarryIncreasesAndFlapsAsGauges) {
  int hca3 = fabric_.node("hca3");
  ASSERT_EQ(run({"fabric", "errors", "save", file_}).status, 0);
  fabric_.set_counter(hca3, 1, "LinkDownedCounter", 2);
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 7);
  Result r = run({"--prometheus", "fabric", "errors", "since", file_});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_link_downs gauge\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_rcv_errors_increase gauge\n"), std::string::npos);
  size_t flaps = 0, rises = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    bool hca = line.find("local_name=\"hca3\"") != std::string::npos;
    flaps += hca && line.starts_with("rdma_ib_port_link_downs{") && line.ends_with(" 2");
    rises += hca && line.starts_with("rdma_ib_port_rcv_errors_increase{") && line.ends_with(" 7");
  }
  EXPECT_EQ(flaps, 1u) << r.out;
  EXPECT_EQ(rises, 1u) << r.out;
  EXPECT_NE(r.out.find("\nrdma_ib_fabric_errors_window_up 1\n"), std::string::npos) << r.out;
  EXPECT_EQ(run({"--prometheus", "fabric", "errors", "save", file_}).status, 2);
}

TEST_F(ErrorsWindowCmd, SixtyFourBitCountersWhereThePmaHasThem) {
  int hca3 = fabric_.node("hca3");
  fabric_.nodes()[hca3].additional_ext_counters = true;
  fabric_.set_counter(hca3, 1, "SymbolErrorCounter", 0xffff);  // PortCounters' 16 bits are full
  ASSERT_EQ(run({"fabric", "errors", "save", file_}).status, 0);
  nlohmann::json saved;
  {
    std::FILE* f = std::fopen(file_.c_str(), "r");
    ASSERT_NE(f, nullptr);
    saved = nlohmann::json::parse(f);
    std::fclose(f);
  }
  size_t wide = 0;
  for (const auto& p : saved["ports"]) wide += p["bits"] == 64;
  EXPECT_EQ(wide, 1u);
  fabric_.set_counter(hca3, 1, "SymbolErrorCounter", 0x10010);
  nlohmann::json j = since();
  ASSERT_EQ(j["ports"].size(), 1u) << j;
  EXPECT_EQ(j["ports"][0]["symbol_errors"]["increase"], 0x10010 - 0xffff);
}

TEST_F(ErrorsWindowCmd, WindowReadsTwiceAndBadWordsFailWithTwo) {
  Result r = run({"-j", "fabric", "errors", "window", "1"});
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out)[0];
  EXPECT_GE(j["summary"]["window_seconds"].get<double>(), 0.9);
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"fabric", "errors", "window", "0"},
           {"fabric", "errors", "window", "x"},
           {"fabric", "errors", "window", "1", "since", "f"},
           {"fabric", "errors", "window", "1", "clear"},
           {"fabric", "errors", "since", "/nonexistent"},
           {"fabric", "errors", "since", "/etc/hostname"},
       }) {
    Result b = run(bad);
    EXPECT_EQ(b.status, 2) << bad.back() << b.err;
    EXPECT_EQ(b.out, "");
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

// The saved reading, taken `ago` seconds earlier: the window is then known
// to the millisecond, and so the wait share the formula gives.
void backdate(const std::string& file, double ago) {
  std::FILE* f = std::fopen(file.c_str(), "r");
  ASSERT_NE(f, nullptr);
  nlohmann::json saved = nlohmann::json::parse(f);
  std::fclose(f);
  saved["time"] = saved["time"].get<double>() - ago;
  f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::string text = saved.dump();
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

// The simulator's PMA has no PortSamplesControl, so there the default tick
// (7) is used; this double's answers it, and one PMA here says tick 31:
// its port's share counts four times the wait a tick. Every link runs 4X
// SDR, 10 Gb/s, 1.25e9 bytes/s; a quarter of that lost in 10 s is
// 1.25e9 x 0.25 x 10 / ((tick + 1) x 8) waits.
TEST_F(ErrorsWindowCmd, WaitShareByThePmasTickOrTheDefault) {
  int hca2 = fabric_.node("hca2"), hca3 = fabric_.node("hca3"), sw2 = fabric_.node("sw2");
  fabric_.set_counter(hca3, 1, "Tick", 31);
  fabric_.nodes()[hca2].pma_refused.insert(mad::kPortSamplesControl.id);
  ASSERT_EQ(run({"fabric", "errors", "save", file_}).status, 0);
  backdate(file_, 10);
  fabric_.set_counter(hca3, 1, "PortXmitWait", 12207031);  // tick 31: 25%
  fabric_.set_counter(hca2, 1, "PortXmitWait", 48828125);  // tick 7: 25%
  fabric_.set_counter(sw2, 3, "PortXmitWait", 48828);      // the double's tick, 0: 0.03%
  nlohmann::json j = since({"congestion", "20"});
  EXPECT_EQ(last_.status, 1) << last_.err;
  EXPECT_EQ(last_.err, "");  // a PMA without PortSamplesControl is no warning
  double secs = j["summary"]["window_seconds"].get<double>();
  ASSERT_GE(secs, 10);
  std::map<std::string, nlohmann::json> by;
  for (const auto& p : j["ports"])
    by[p["description"].get<std::string>() + "/" + p["port"].dump()] = p;
  const nlohmann::json& w3 = by["hca3/1"]["xmit_wait_share"];
  EXPECT_EQ(w3["tick"], 31);
  EXPECT_EQ(w3["tick_source"], "pma");
  EXPECT_NEAR(w3["percent"].get<double>(), 25 * 10 / secs, 0.01) << w3;
  EXPECT_EQ(w3["congested"], true);
  const nlohmann::json& w2 = by["hca2/1"]["xmit_wait_share"];
  EXPECT_EQ(w2["tick"], 7);
  EXPECT_EQ(w2["tick_source"], "default");
  EXPECT_NEAR(w2["percent"].get<double>(), 25 * 10 / secs, 0.01) << w2;
  const nlohmann::json& s3 = by["sw2/3"]["xmit_wait_share"];
  EXPECT_EQ(s3["tick"], 0);
  EXPECT_EQ(s3["tick_source"], "pma");
  EXPECT_NEAR(s3["percent"].get<double>(), 48828.0 * 8 / (secs * 1.25e9) * 100, 1e-4) << s3;
  EXPECT_EQ(s3["congested"], false);
  EXPECT_EQ(j["summary"]["ports_congested"], 2);
  EXPECT_EQ(j["summary"]["congestion_percent"], 20);
  // Text: the share with its tick, and the summary's count.
  Result t = run({"fabric", "errors", "since", file_, "congestion", "20"});
  EXPECT_NE(t.out.find("description \"hca3\" port 1 "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(" (tick 31, pma)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(" (tick 7, default)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(", 2 congested (wait share at or over 20%)\n"), std::string::npos) << t.out;
  // The metrics: the share as a gauge, a fraction of 1.
  Result m = run({"--prometheus", "fabric", "errors", "since", file_});
  EXPECT_NE(m.out.find("# TYPE rdma_ib_port_xmit_wait_ratio gauge\n"), std::string::npos) << m.out;
  std::istringstream in(m.out);
  double ratio = -1;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("rdma_ib_port_xmit_wait_ratio{") &&
        line.find("local_name=\"hca3\"") != std::string::npos)
      ratio = std::stod(line.substr(line.rfind(' ') + 1));
  EXPECT_NEAR(ratio, 0.25 * 10 / secs, 0.001) << m.out;
  // congestion needs a window; its PERCENT is 1 to 100.
  for (std::vector<std::string> bad : {std::vector<std::string>{"fabric", "errors", "congestion"},
                                       {"fabric", "errors", "since", file_, "congestion", "0"},
                                       {"fabric", "errors", "since", file_, "congestion", "101"}}) {
    Result b = run(bad);
    EXPECT_EQ(b.status, 2) << b.err;
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

// A link taken down between the readings (ibsim's Unlink; here the
// double's): both its ends were Active and are not at the second reading,
// a flap though LinkDownedCounter did not move. The double's PMAs behind
// the link (sw2's side) are not reached after it, so only sw1's end is
// judged here (ibsim shows both: tests/ibsim/fabric.sh).
TEST_F(ErrorsWindowCmd, APortThatLeftActiveIsAFlap) {
  ASSERT_EQ(run({"fabric", "errors", "save", file_}).status, 0);
  fabric_.unlink(fabric_.node("sw2"), 3);
  nlohmann::json j = since();
  EXPECT_EQ(last_.status, 1) << last_.err;
  std::map<std::string, nlohmann::json> by;
  for (const auto& p : j["ports"])
    by[p["description"].get<std::string>() + "/" + p["port"].dump()] = p;
  EXPECT_EQ(by.size(), 1u) << j;
  EXPECT_EQ(by["sw1/3"]["flap"], "left Active: now DOWN") << j;
  EXPECT_EQ(j["summary"]["ports_flapped"], 1);
  Result m = run({"--prometheus", "fabric", "errors", "since", file_});
  EXPECT_EQ(m.status, 1);
  size_t left = 0;
  std::istringstream in(m.out);
  for (std::string line; std::getline(in, line);)
    left += line.starts_with("rdma_ib_port_left_active{") && line.ends_with(" 1");
  EXPECT_EQ(left, 1u) << m.out;
}

}  // namespace
}  // namespace rdma
