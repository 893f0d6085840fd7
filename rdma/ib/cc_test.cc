// rdma cc show / cc set against the fabric double's CC agent
// (lib/testing/fabric/fabric_cc.cc): ibsim answers congestion control MADs
// wrongly, so these attributes are covered here only. sw1 is LID 2 (a
// switch), hca2 LID 3 (a CA).
#include <gtest/gtest.h>

#include "lib/mad/attrs_cc.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

TEST(CcAttrs, NamesPrefixesAndIbccqueryCodes) {
  EXPECT_EQ(mad::find_cc_attr("SS"), &mad::kSwitchCongestionSetting);
  EXPECT_EQ(mad::find_cc_attr("ct"), &mad::kCongestionControlTable);
  EXPECT_EQ(mad::find_cc_attr("SwitchPort"), &mad::kSwitchPortCongestionSetting);
  EXPECT_EQ(mad::find_cc_attr("CACongestionSetting"), &mad::kCACongestionSetting);
  EXPECT_EQ(mad::find_cc_attr("timestamp"), &mad::kTimestamp);
  EXPECT_EQ(mad::find_cc_attr("classport"), &mad::kClassPortInfo);
  EXPECT_EQ(mad::find_cc_attr("bogus"), nullptr);
  EXPECT_EQ(mad::find_cc_attr("CP"), &mad::kClassPortInfo);  // ibccquery's ClassPortInfo
  EXPECT_EQ(mad::find_cc_attr("C"), &mad::kCongestionInfo);  // a prefix: the first
  EXPECT_EQ(mad::cc_data_offset(mad::kCongestionLogSwitch.id), 32u);
  EXPECT_EQ(mad::cc_data_offset(mad::kTimestamp.id), 64u);
}

TEST_F(MadCmd, CcShowReadsTheAttributeWithTheCcKey) {
  auto j = json({"--cckey", "0x1234", "cc", "show", "lid", "3"});
  EXPECT_EQ(j[0]["attribute"], "CongestionInfo");
  EXPECT_EQ(j[0]["control_table_cap"], 2);
  const Mad& q = sent_.back();
  EXPECT_EQ(q.mgmt_class(), mad::kClassCc);
  EXPECT_EQ(q.get(mad::hdr::kClassVersion), 2u);
  EXPECT_EQ(q.get(mad::hdr::kCcKey), 0x1234u);
  EXPECT_EQ(q.get(mad::hdr::kAttrId), mad::kCongestionInfo.id);
  j = json({"cc", "show", "lid", "2", "CL"});
  EXPECT_EQ(j[0]["attribute"], "CongestionLog");
  EXPECT_EQ(j[0]["log_type"], 1);  // a switch's log
  EXPECT_TRUE(j[0].contains("event_dlid"));
  j = json({"cc", "show", "lid", "3", "CongestionLog"});
  EXPECT_EQ(j[0]["log_type"], 2);  // a CA's
  EXPECT_TRUE(j[0].contains("event_remote_qp"));
  EXPECT_EQ(json({"cc", "show", "lid", "3", "TI"})[0]["timestamp"], 1);  // counts each Get
  EXPECT_EQ(json({"cc", "show", "lid", "3", "TI"})[0]["timestamp"], 2);
  // The class's ClassPortInfo, as ibccquery CP: a CC MAD, the CC version.
  j = json({"cc", "show", "lid", "2", "CP"});
  EXPECT_EQ(j[0]["attribute"], "ClassPortInfo");
  EXPECT_EQ(j[0]["class_version"], 2);
  EXPECT_EQ(sent_.back().mgmt_class(), mad::kClassCc);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrId), mad::kClassPortInfo.id);
}

// ibccquery CP: the CC class's ClassPortInfo, from the CC data's place
// (byte 64; ibsim has no CC agent: the double's).
TEST_F(MadCmd, CcShowClassPortInfo) {
  auto j = json({"--cckey", "7", "cc", "show", "lid", "2", "CP"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["attribute"], "ClassPortInfo");
  EXPECT_EQ(j[0]["base_version"], 1);
  EXPECT_EQ(j[0]["class_version"], 2);  // the CC class's version, as the agent put it there
  const Mad& q = sent_.back();
  EXPECT_EQ(q.mgmt_class(), mad::kClassCc);
  EXPECT_EQ(q.get(mad::hdr::kAttrId), 0x0001u);
  EXPECT_EQ(q.get(mad::hdr::kCcKey), 7u);
  Result t = run({"cc", "show", "lid", "2", "ClassPortInfo"});
  EXPECT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.out.rfind("lid 2: attribute ClassPortInfo base_version 1 class_version 2 ", 0), 0u)
      << t.out;
  EXPECT_EQ(run({"cc", "set", "lid", "2", "CP", "RespTimeValue=3"}).err,
            "ClassPortInfo is read-only\n");
}

TEST_F(MadCmd, CcSetWritesAndShowsTheAnswer) {
  auto j = json({"cc", "set", "lid", "2", "SwitchCongestionSetting", "Control_Map=0x3",
                 "threshold=0xf", "Marking_Rate=10"});
  EXPECT_EQ(j[0]["control_map"], "0x00000003");
  EXPECT_EQ(j[0]["threshold"], "0xf");
  EXPECT_EQ(j[0]["marking_rate"], 10);
  j = json({"cc", "show", "lid", "2", "SS"});
  EXPECT_EQ(j[0]["marking_rate"], 10);
  // One port's element (block 0, element 3).
  j = json({"cc", "set", "lid", "2", "SP", "port", "3", "Valid=1", "Packet_Size=8"});
  EXPECT_EQ(j[0]["port"], 3);
  EXPECT_EQ(j[0]["valid"], 1);
  EXPECT_EQ(j[0]["packet_size"], 8);
  EXPECT_EQ(json({"cc", "show", "lid", "2", "SP"})[0]["packet_size"][3], 8);
  // Per SL on a CA; the table in blocks.
  j = json({"cc", "set", "lid", "3", "CS", "CCTI_Timer[5]=100", "Control_Map=0x20"});
  EXPECT_EQ(j[0]["ccti_timer"][5], 100);
  j = json({"cc", "set", "lid", "3", "CT", "block", "1", "CCTI_Limit=127", "CCT_Multiplier[0]=9"});
  EXPECT_EQ(j[0]["block"], 1);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 1u);
  EXPECT_EQ(j[0]["cct_multiplier"][0], 9);
}

TEST_F(MadCmd, CcKeyGuardsTheAgent) {
  Result r = run({"cc", "set", "lid", "3", "CK", "CC_Key=0x99", "CC_KeyLeasePeriod=60"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(node("hca2").cc.key, 0x99u);
  // Without the key: dropped, a timeout; with it: answered.
  r = run({"--timeout", "5", "--retries", "1", "cc", "show", "lid", "3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "no reply to CongestionInfo from lid 3 (2 tries, each given back at once by the local "
            "port: Connection timed out)\n");
  EXPECT_EQ(node("hca2").cc.key_violations, 2u);
  auto j = json({"--cckey", "0x99", "--show-keys", "cc", "show", "lid", "3", "CK"});
  EXPECT_EQ(j[0]["cc_key"], "0x0000000000000099");
  EXPECT_EQ(j[0]["cc_key_violations"], 2);
}

// A write is read back: the double's agent keeps its own count of key
// violations, so a Set of it comes back as it was, which is said (status 1).
TEST_F(MadCmd, CcSetSaysWhatTheAgentDidNotTake) {
  Result r = run({"cc", "set", "lid", "3", "CK", "CC_KeyViolations=5", "CC_KeyLeasePeriod=30"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "warning: CongestionKeyInfo did not take CC_KeyViolations=5 (it has 0)\n");
  EXPECT_EQ(node("hca2").cc.key_lease, 30u);  // the rest was taken
}

TEST_F(MadCmd, CcRefusalsAndWrongWords) {
  Result r = run({"cc", "set", "lid", "3", "SS", "Marking_Rate=1"});  // a CA has no switch setting
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "SwitchCongestionSetting from lid 3 failed: status 0x000c (method/attribute "
            "combination not supported)\n");
  size_t sent = sent_.size();
  auto err = [&](std::vector<std::string> args) { return run(std::move(args)).err; };
  EXPECT_EQ(err({"cc", "set", "lid", "3", "TI", "Timestamp=1"}), "Timestamp is read-only\n");
  EXPECT_EQ(err({"cc", "set", "lid", "3", "CS"}),
            "nothing to set: name fields as FIELD=VALUE (e.g. Control_Map=...)\n");
  EXPECT_EQ(err({"cc", "set", "lid", "3", "CS", "CCTI_Min[16]=1"}),
            "CACongestionSetting CCTI_Min has 16 elements, not 17\n");
  EXPECT_EQ(err({"cc", "show", "lid", "3", "CS", "port", "1"}),
            "\"port\" is for SwitchPortCongestionSetting; CACongestionSetting takes neither\n");
  EXPECT_EQ(err({"cc", "show", "lid", "3", "frob"}),
            "unknown cc show argument \"frob\" (block, port, CongestionInfo, CongestionKeyInfo, "
            "CongestionLog, SwitchCongestionSetting, SwitchPortCongestionSetting, "
            "CACongestionSetting, CongestionControlTable, Timestamp or ClassPortInfo)\n");
  EXPECT_EQ(err({"cc", "set", "lid", "3", "CP", "BaseVersion=1"}), "ClassPortInfo is read-only\n");
  EXPECT_EQ(err({"--cckey", "x", "cc", "show", "lid", "3"}),
            "invalid --cckey \"x\" (expected a number, decimal or 0x hex)\n");
  EXPECT_EQ(sent_.size(), sent);
}

}  // namespace
}  // namespace rdma
