// rdma port check against the fabric double: a healthy port, a port Down,
// a narrow port and an errored port, each a verdict and an exit status as
// diff(1)'s.
#include <algorithm>
#include <cstdio>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;
using madtest::Result;

class PortCheckCmd : public MadCmd {};

TEST_F(PortCheckCmd, AHealthyPortIsOkAndExitsZero) {
  Result r = run({"port", "check", "lid", "3"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "lid 3 port 1: ok\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(PortCheckCmd, APortDownFailsItsState) {
  fabric_.unlink(fabric_.node("sw2"), 2);  // hca4's link
  Result r = run({"port", "check", "lid", "4", "port", "2", "state"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "lid 4 port 2: state DOWN, physical state POLLING (expected ACTIVE, LINK_UP)\n");
  // The other ports of the switch are judged by `port all`.
  r = run({"port", "check", "lid", "4", "port", "all", "state"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("lid 4 port 1: ok\nlid 4 port 2: state DOWN, physical state POLLING "
                       "(expected ACTIVE, LINK_UP)\n"
                       "lid 4 port 3: ok\n"),
            std::string::npos)
      << r.out;
}

// hca1's port 2 is cabled to nothing: Down, named by the LID asked, and
// without a width or errors verdict (a CA's PMA keeps no counters for a
// port without a LID); port 1 is judged in full.
TEST_F(PortCheckCmd, AnUncabledCaPortFailsItsStateOnly) {
  nlohmann::json j = json({"port", "check", "lid", "1", "port", "all"}, 1);
  ASSERT_EQ(j.size(), 5u) << j;  // no width or speed for a link that is down
  EXPECT_EQ(j[3]["check"], "errors");
  EXPECT_EQ(j[3]["ok"], true);
  EXPECT_EQ(j[4]["lid"], 1);
  EXPECT_EQ(j[4]["port"], 2);
  EXPECT_EQ(j[4]["check"], "state");
  EXPECT_EQ(j[4]["ok"], false);
}

TEST_F(PortCheckCmd, ANarrowPortFailsItsWidth) {
  fabric_.set_link_active(fabric_.node("hca3"), 1, ibtest::kWidth1x, ibtest::kSpeedSdr);
  Result r = run({"port", "check", "lid", "5", "width"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "lid 5 port 1: width 1X (enabled 4X)\n");
  // state alone does not look at the width.
  EXPECT_EQ(run({"port", "check", "lid", "5", "state"}).status, 0);
}

TEST_F(PortCheckCmd, AnErroredPortFailsItsErrorsInJson) {
  fabric_.set_counter(fabric_.node("hca2"), 1, "SymbolErrorCounter", 12);
  nlohmann::json j = json({"port", "check", "lid", "3"}, 1);
  ASSERT_EQ(j.size(), 4u) << j;
  EXPECT_EQ(j[0],
            nlohmann::json::parse(R"({"lid":3,"port":1,"check":"state","ok":true,"reason":""})"));
  EXPECT_EQ(j[3]["check"], "errors");
  EXPECT_EQ(j[3]["ok"], false);
  EXPECT_EQ(j[3]["reason"], "errors: SymbolErrorCounter 12 over 0");
  Result r = run({"port", "check", "3", "errors"});
  EXPECT_EQ(r.out, "lid 3 port 1: errors: SymbolErrorCounter 12 over 0\n");
}

// A port enabled up to QDR on a link both ends run at SDR: below its
// enabled speed (what ibportstate's LinkSpeedEnabled shows beside
// LinkSpeedActive); the peer, enabled for SDR only, runs as asked.
TEST_F(PortCheckCmd, APortBelowItsEnabledSpeedFailsItsSpeed) {
  int hca3 = fabric_.node("hca3");
  fabric_.nodes()[hca3].ports[1].speed_enabled =
      ibtest::kSpeedSdr | ibtest::kSpeedDdr | ibtest::kSpeedQdr;
  Result r = run({"port", "check", "lid", "5", "speed"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "lid 5 port 1: speed SDR (enabled QDR)\n");
  EXPECT_EQ(run({"port", "check", "lid", "5", "state", "width"}).status, 0);
  nlohmann::json j = json({"port", "check", "lid", "4", "port", "1", "speed"}, 0);
  ASSERT_EQ(j.size(), 1u) << j;
  EXPECT_EQ(j[0]["check"], "speed");
}

// A ConnectX-3 enabled for FDR on a link running FDR10 (QDR in PortInfo):
// below FDR, and named FDR10 as its MlnxExtPortInfo says; enabled for no
// extended speed, FDR10 is as asked.
TEST_F(PortCheckCmd, Fdr10BelowAnEnabledFdrIsNamedFdr10) {
  int hca3 = fabric_.node("hca3");
  fabric_.set_link_active(hca3, 1, ibtest::kWidth4x, ibtest::kSpeedQdr);
  fabric_.nodes()[hca3].device_id = 0x1003;
  ibtest::FabricPort& p = fabric_.nodes()[hca3].ports[1];
  p.speed_enabled = p.speed_supported = ibtest::kSpeedSdr | ibtest::kSpeedDdr | ibtest::kSpeedQdr;
  p.mlnx_speed_enabled = p.mlnx_speed_active = 1;
  p.speed_ext_enabled = p.speed_ext_supported = ibtest::kSpeedExtFdr;
  Result r = run({"port", "check", "lid", "5", "speed"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "lid 5 port 1: speed FDR10 (enabled FDR)\n");
  p.speed_ext_enabled = 0;
  r = run({"port", "check", "lid", "5", "speed"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "lid 5 port 1: ok\n");
}

// `thresholds FILE`, the file `fabric errors` takes: a counter at or under
// its threshold passes; a missing file fails before anything is sent.
TEST_F(PortCheckCmd, ThresholdsFromAFile) {
  fabric_.set_counter(fabric_.node("hca2"), 1, "SymbolErrorCounter", 12);
  std::string file = ::testing::TempDir() + "port_check_thresholds";
  std::FILE* f = std::fopen(file.c_str(), "w");
  std::fputs("# as ibqueryerrors\nSymbolErrorCounter=12\n", f);
  std::fclose(f);
  Result r = run({"port", "check", "lid", "3", "errors", "thresholds", file});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "lid 3 port 1: ok\n");
  f = std::fopen(file.c_str(), "w");
  std::fputs("SymbolErrorCounter=10\n", f);
  std::fclose(f);
  r = run({"port", "check", "lid", "3", "thresholds", file, "errors"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "lid 3 port 1: errors: SymbolErrorCounter 12 over 10\n");
  std::remove(file.c_str());
  r = run({"port", "check", "lid", "3", "thresholds", file});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = run({"port", "check", "lid", "3", "thresholds"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("FILE"), std::string::npos) << r.err;
}

TEST_F(PortCheckCmd, BadInputAndSilenceExitTwo) {
  Result r = run({"port", "check", "lid", "3", "colour"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("unknown port check argument \"colour\""), std::string::npos) << r.err;
  r = run({"port", "check", "lid", "2", "port", "9"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  r = run({"port", "check", "lid", "9"});  // nobody's
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace rdma
