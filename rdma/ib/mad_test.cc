// rdma mad get by name or id, and rdma mad decode of a MAD on stdin.
#include <nlohmann/json.hpp>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

TEST_F(MadCmd, MadGetTakesTheAttributeByNameOrId) {
  Result by_name = run({"-j", "mad", "get", "NodeInfo", "lid", "2"});
  Result by_id = run({"-j", "mad", "get", "0x11", "lid", "2"});
  ASSERT_EQ(by_id.status, 0) << by_id.err;
  EXPECT_EQ(by_id.out, by_name.out);
  auto j = nlohmann::json::parse(by_id.out);
  EXPECT_EQ(j[0]["attribute"], "NodeInfo");
  EXPECT_EQ(j[0]["ports"], 8);
  Result ambiguous = run({"mad", "get", "0x12", "lid", "2"});
  EXPECT_EQ(ambiguous.status, 1);
  EXPECT_EQ(ambiguous.err,
            "attribute id 0x0012 is SwitchInfo and PortCounters; name the one you mean\n");
}

TEST_F(MadCmd, MadGetSendsTheModifier) {
  ASSERT_EQ(run({"mad", "get", "PortInfo", "lid", "2", "mod", "0x3"}).status, 0);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 3u);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrId), mad::kPortInfo.id);
}

TEST_F(MadCmd, MadDecodeReadsACapturedReplyOnStdin) {
  Result r = run({"-j", "mad", "decode"}, mad::captured::kPortCounters);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);  // header, attribute
  EXPECT_EQ(j[0]["class"], "0x04");
  EXPECT_EQ(j[0]["attribute"], "PortCounters");
  EXPECT_EQ(j[1]["symbol_errors"], 17);
  EXPECT_TRUE(sent_.empty());  // nothing sent: no local port needed
}

TEST_F(MadCmd, MadDecodeRefusesWhatIsNotAMad) {
  Result r = run({"mad", "decode"}, "01 02 03\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "truncated MAD: 3 bytes, a MAD has 256\n");
  r = run({"mad", "decode"}, "01 0x\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("x"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
