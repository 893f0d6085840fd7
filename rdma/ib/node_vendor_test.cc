// rdma node ping, sysstat and vendor against the fabric double's vendor
// agents (lib/testing/fabric/fabric_vendor.cc): ibsim carries no
// vendor-class MADs (its ports give every one back at once, even with
// ibping -S running; tests/ibsim/run.sh checks our error there), so the
// answers are tested here. hca2 is LID 3, sw1 LID 2.
#include <gtest/gtest.h>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;
using madtest::Result;

TEST_F(MadCmd, NodePingPrintsEachPongAndIbpingsSummary) {
  node("hca2").vendor.ping_server = true;
  node("hca2").vendor.host = "hca2.example";
  Result r = run({"node", "ping", "lid", "3", "count", "1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("Pong from hca2.example (Lid 3): time ")) << r.out;
  EXPECT_NE(r.out.find("\n\n--- hca2.example (Lid 3) ibping statistics ---\n"
                       "1 packets transmitted, 1 received, 0% packet loss, time "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nrtt min/avg/max = "), std::string::npos) << r.out;
  // The request: class 0x32, OUI 0x001405, a Get.
  ASSERT_FALSE(sent_.empty());
  EXPECT_EQ(sent_.back().mgmt_class(), 0x32);
  EXPECT_EQ(mad::vendor_oui(sent_.back()), 0x001405u);
}

TEST_F(MadCmd, NodePingFloodAndJson) {
  node("hca2").vendor.ping_server = true;
  Result r = run({"node", "ping", "hca2", "count", "3", "flood"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.find("Pong"), std::string::npos) << r.out;  // flood: the summary only
  EXPECT_NE(r.out.find("3 packets transmitted, 3 received, 0% packet loss"), std::string::npos);
  auto j = json({"node", "ping", "3", "count", "2", "flood"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["target"], "lid 3");
  EXPECT_EQ(j[0]["host"], "fake-host");
  EXPECT_EQ(j[0]["transmitted"], 2);
  EXPECT_EQ(j[0]["received"], 2);
  EXPECT_EQ(j[0]["loss_percent"], 0);
  EXPECT_EQ(j[0]["rtt_ms"].size(), 2u);
  EXPECT_TRUE(j[0]["rtt_avg_ms"].is_number());
}

TEST_F(MadCmd, NodePingAndSysstatCarryTheOuiGiven) {
  node("hca2").vendor.ping_server = true;
  node("hca2").vendor.sysstat_server = true;
  // The double's servers serve the OpenIB OUI only: another goes unanswered.
  Result r = run(
      {"--timeout", "5", "--retries", "0", "node", "ping", "3", "count", "1", "oui", "0x0002c9"});
  EXPECT_EQ(r.status, 1);
  ASSERT_FALSE(sent_.empty());
  EXPECT_EQ(mad::vendor_oui(sent_.back()), 0x0002c9u);
  r = run({"node", "sysstat", "3", "oui", "0x001405", "host"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "fake-host\n");
  r = run({"--timeout", "5", "--retries", "0", "node", "sysstat", "3", "oui", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(mad::vendor_oui(sent_.back()), 5u);
}

TEST_F(MadCmd, NodePingWithoutAServerSaysSoAndFails) {
  // No server on sw1: every ping is lost, the summary still printed.
  Result r = run({"--timeout", "5", "--retries", "1", "node", "ping", "2", "count", "2", "flood"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("2 packets transmitted, 0 received, 100% packet loss"), std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("no answer from lid 2"), std::string::npos) << r.err;
}

TEST_F(MadCmd, NodePingAndSysstatWordsAreChecked) {
  Result r = run({"node", "ping", "3", "bogus"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("unknown node ping argument \"bogus\""), std::string::npos) << r.err;
  r = run({"node", "ping", "3", "count", "0"});
  EXPECT_NE(r.status, 0);
  r = run({"node", "sysstat", "3", "disk"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("(ping, host, cpu or oui)"), std::string::npos) << r.err;
  r = run({"node", "ping", "3", "oui", "0x1000000"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("oui"), std::string::npos) << r.err;
  r = run({"node", "ping"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("missing target of node ping"), std::string::npos) << r.err;
  EXPECT_TRUE(sent_.empty());  // nothing was sent for bad words
}

TEST_F(MadCmd, NodePingServeNeedsAPortThatTakesRequests) {
  // The double's transport cannot register to serve (umad's can; the
  // server itself is tested in lib/ib/vendor_test.cc).
  Result r = run({"node", "ping", "serve", "count", "1"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("cannot receive requests"), std::string::npos) << r.err;
  r = run({"node", "sysstat", "serve", "often"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("unknown node sysstat serve argument"), std::string::npos) << r.err;
}

TEST_F(MadCmd, NodeSysstatHostCpuAndPing) {
  auto& v = node("hca2").vendor;
  v.sysstat_server = true;
  v.host = "hca2.example";
  v.cpus = "cpu 0: model  X MHZ  1.0\ncpu 1: model  X MHZ  2.0\n";
  Result r = run({"node", "sysstat", "3"});
  EXPECT_EQ(r.out, "sysstat ping succeeded\n") << r.err;
  r = run({"node", "sysstat", "3", "host"});
  EXPECT_EQ(r.out, "hca2.example\n") << r.err;
  r = run({"node", "sysstat", "3", "cpu"});
  // ibsysstat puts() the answer, whose lines each end: a blank line after.
  EXPECT_EQ(r.out, "cpu 0: model  X MHZ  1.0\ncpu 1: model  X MHZ  2.0\n\n") << r.err;
  EXPECT_EQ(sent_.back().mgmt_class(), 0x33);
  v.cpus.clear();  // a server without /proc/cpuinfo: puts("") is a blank line
  r = run({"node", "sysstat", "3", "cpu"});
  EXPECT_EQ(r.out, "\n") << r.err;
  auto j = json({"node", "sysstat", "3", "host"});
  EXPECT_EQ(
      j, nlohmann::json::parse(R"([{"target":"lid 3","query":"host","answer":"hca2.example"}])"));
  // No server there: the error names the query, bounded by the retries.
  r = run({"--timeout", "5", "--retries", "1", "node", "sysstat", "2", "host"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no reply to sysstat host from lid 2"), std::string::npos) << r.err;
}

TEST_F(MadCmd, NodeVendorGeneralAsVendstat) {
  auto& v = node("sw1").vendor;
  v.mellanox = true;
  v.general.hw_revision = 0xa0;
  v.general.device_id = 0xcb20;  // Switch-IB: the version in the extended part
  v.general.uptime = 0x1234;
  v.general.fw_major = 11, v.general.fw_minor = 2008, v.general.fw_sub_minor = 4;
  v.general.fw_build_id = 0x33;
  v.general.fw_month = 0x12, v.general.fw_day = 0x31, v.general.fw_year = 0x2020;
  v.general.psid = "MT_1870110032";
  v.general.fw_ini_version = 5;
  v.general.sw_major = 1, v.general.sw_minor = 2, v.general.sw_sub_minor = 3;
  Result r = run({"node", "vendor", "2"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "hw_dev_rev:  0x00a0\n"
            "hw_dev_id:   0xcb20\n"
            "hw_uptime:   0x00001234\n"
            "fw_version:  11.2008.04\n"
            "fw_build_id: 0x0033\n"
            "fw_date:     12/31/2020\n"
            "fw_psid:     'MT_1870110032'\n"
            "fw_ini_ver:  5\n"
            "sw_version:  01.02.03\n");
  auto j = json({"node", "vendor", "2", "general"});
  EXPECT_EQ(j[0]["hw_dev_id"], 0xcb20);
  EXPECT_EQ(j[0]["fw_version"], "11.2008.04");
  EXPECT_EQ(j[0]["fw_psid"], "MT_1870110032");
  // Not a Mellanox agent: ClassPortInfo goes unanswered, as vendstat's.
  r = run({"--timeout", "5", "--retries", "1", "node", "vendor", "3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no reply to ClassPortInfo from lid 3"), std::string::npos) << r.err;
}

TEST_F(MadCmd, NodeVendorXmitWaitAsVendstatW) {
  auto& v = node("sw1").vendor;
  v.mellanox = true;
  v.general.device_id = 47396;  // InfiniScale III
  v.config[0x10113c] = 0x10;    // block 1: vendstat's port 4
  v.config[0x11013c] = 0x2;     // block 16: port 19
  v.config[0x11113c] = 0xabc;   // block 17: port 21
  v.config[0x11513c] = 0x7;     // block 21: port 1
  Result r = run({"node", "vendor", "2", "xmitwait"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "Port 4: PortXmitWait 0x10\n"
            "Port 19: PortXmitWait 0x2\n"
            "Port 21: PortXmitWait 0xabc\n"
            "Port 1: PortXmitWait 0x7\n");
  // ClassPortInfo, GeneralInfo, then the two reads of 16 and 8 records.
  ASSERT_GE(sent_.size(), 2u);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrId), 0x50u);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 0x00880000u);
  auto j = json({"node", "vendor", "2", "xmitwait"});
  ASSERT_EQ(j[0]["xmit_wait"].size(), 24u);
  EXPECT_EQ(j[0]["xmit_wait"][0]["port"], 4);
  EXPECT_EQ(j[0]["xmit_wait"][0]["xmit_wait"], 0x10);
  EXPECT_EQ(j[0]["xmit_wait"][1]["xmit_wait"], 0);
  // Another device has no such counters: named, a failure.
  v.general.device_id = 0xcb20;
  r = run({"node", "vendor", "2", "xmitwait"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("lid 2 is device 0xcb20: port xmit wait counters are an InfiniScale III's"),
            std::string::npos)
      << r.err;
}

TEST_F(MadCmd, NodeVendorGroupsInfoAndSetReadBack) {
  auto& v = node("sw1").vendor;
  v.mellanox = true;
  v.counter_groups.groups = 2;
  v.counter_groups.masks = {0x3, 0};
  Result r = run({"node", "vendor", "2", "groups", "port", "12"});
  EXPECT_EQ(r.status, 0) << r.err;
  // vendstat's %#x: 0 without its 0x.
  EXPECT_EQ(r.out, "counter_group_info:\n2 counter groups\ngroup0 mask 0x3\ngroup1 mask 0\n");
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 12u);
  r = run({"node", "vendor", "2", "groups", "set", "2", "8", "port", "12"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "counter_groups_config: configuring group0 2 group1 8\n");
  EXPECT_EQ((v.group_selects[12]), (mad::CounterGroupSelect{2, 8}));
  EXPECT_EQ(sent_.back().get(mad::hdr::kMethod), mad::kGet);  // read back
  auto j = json({"node", "vendor", "2", "groups", "port", "12"});
  EXPECT_EQ(j[0]["groups"], 2);
  EXPECT_EQ(j[0]["masks"][0], 3);
  j = json({"node", "vendor", "2", "groups", "set", "0", "1"});
  EXPECT_EQ(j[0]["port"], 0);
  EXPECT_EQ(j[0]["selects"][1], 1);
  r = run({"node", "vendor", "2", "groups", "set", "2", "256"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("group"), std::string::npos) << r.err;
}

TEST_F(MadCmd, NodeVendorConfigReadAndWriteReadBack) {
  auto& v = node("sw1").vendor;
  v.mellanox = true;
  v.config[0x1000] = 0x12345678;
  Result r =
      run({"node", "vendor", "2", "config", "read", "1000", "read", "0x2000", "mask", "ff00"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "Config space record at 0x1000: 0x12345678\n"
            "Config space record at 0x2000: 0x0\n");
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 0x00820000u);
  r = run({"node", "vendor", "2", "config", "write", "1000", "abcd", "mask", "ffff"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "Config space record at 0x1000: 0xabcd\n");
  EXPECT_EQ(v.config[0x1000], 0x1234abcdu);  // the mask's bits only
  auto j = json({"node", "vendor", "2", "config", "write", "3000", "5"});
  EXPECT_EQ(j[0]["op"], "write");
  EXPECT_EQ(j[0]["address"], 0x3000);
  EXPECT_EQ(j[0]["data"], 5);
  // A word that drops the write: the read back says so, a failure.
  v.read_only = {0x4000};
  r = run({"node", "vendor", "2", "config", "write", "4000", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("config space record at 0x4000 of lid 2 reads back 0x0 after writing 0x1"),
            std::string::npos)
      << r.err;
}

TEST_F(MadCmd, NodeVendorWordsAreChecked) {
  size_t before = sent_.size();
  Result r = run({"node", "vendor", "2", "config"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("needs read ADDRESS or write ADDRESS VALUE"), std::string::npos) << r.err;
  r = run({"node", "vendor", "2", "config", "read", "xyz"});
  EXPECT_NE(r.status, 0);
  r = run({"node", "vendor", "2", "config", "poke", "1"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("(read or write)"), std::string::npos) << r.err;
  std::vector<std::string> many = {"node", "vendor", "2", "config"};
  for (int i = 0; i < 19; ++i) many.insert(many.end(), {"read", "1"});
  r = run(many);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("1 to 18 read records, not 19"), std::string::npos) << r.err;
  r = run({"node", "vendor", "2", "counters"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("(general, xmitwait, groups or config)"), std::string::npos) << r.err;
  EXPECT_EQ(sent_.size(), before);  // nothing was sent for bad words
}

}  // namespace
}  // namespace rdma
