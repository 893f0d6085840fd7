// The verbs commands (dev limits, link status, gid show) through the whole
// front end: devices from the test kernel, verbs from a fake.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "lib/error.h"
#include "lib/testing/fake_verbs.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

using testkernel::KernelVersion;
using testkernel::TestKernel;
using verbs::FakeDeviceSpec;
using verbs::FakeVerbs;
using verbs::Gid;

using test::Borrowed;

Gid gid(uint32_t index, std::initializer_list<uint8_t> bytes, uint32_t type, std::string netdev) {
  Gid g;
  g.port = 1;
  g.index = index;
  std::copy(bytes.begin(), bytes.end(), g.raw);
  g.type = type;
  g.netdev = std::move(netdev);
  return g;
}

FakeDeviceSpec device(uint32_t max_qp, const char* netdev, uint8_t host) {
  FakeDeviceSpec s;
  s.attr.orig_attr.phys_port_cnt = 1;
  s.attr.orig_attr.max_qp = static_cast<int>(max_qp);
  s.attr.orig_attr.atomic_cap = IBV_ATOMIC_HCA;
  ibv_port_attr p{};
  p.state = IBV_PORT_ACTIVE;
  p.max_mtu = IBV_MTU_4096;
  p.active_mtu = IBV_MTU_1024;
  p.active_width = 1;
  p.active_speed = 8;
  p.phys_state = 5;
  p.link_layer = IBV_LINK_LAYER_ETHERNET;
  s.ports.push_back(p);
  s.gids.push_back(gid(0, {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0, 0, host},
                       IBV_GID_TYPE_ROCE_V1, netdev));
  s.gids.push_back(gid(1, {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0, 0, host},
                       IBV_GID_TYPE_ROCE_V2, netdev));
  s.gids.push_back(gid(2, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, host},
                       IBV_GID_TYPE_ROCE_V2, netdev));
  return s;
}

class VerbsCmdTest : public ::testing::Test {
 protected:
  TestKernel k{KernelVersion::k6_1};  // rxe0 over veth0, rxe1 over veth1
  std::map<std::string, FakeDeviceSpec> devs{{"rxe0", device(1000, "veth0", 1)},
                                             {"rxe1", device(2000, "veth1", 2)}};
  int loads = 0;  // how often the command asked for verbs
  std::vector<std::string> opened;

  test::Result run(std::vector<std::string> args) {
    return test::run_program(
        std::move(args), [&] { return std::make_unique<Borrowed>(k); }, "",
        [&]() -> std::unique_ptr<verbs::Verbs> {
          ++loads;
          return std::make_unique<FakeVerbs>(devs, &opened);
        });
  }
};

TEST_F(VerbsCmdTest, DevLimitsEveryDeviceTextAndJson) {
  test::Result r = run({"dev", "limits"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("dev rxe0\n    transport InfiniBand\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\n    max_qp 1000\n"), std::string::npos);
  EXPECT_NE(r.out.find("\ndev rxe1\n"), std::string::npos);
  EXPECT_NE(r.out.find("\n    max_qp 2000\n"), std::string::npos);
  r = run({"-j", "-p", "dev", "limits", "rxe1"});
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["dev"], "rxe1");
  EXPECT_EQ(j[0]["max_qp"], 2000);
  EXPECT_EQ(j[0]["atomic_cap"], "ATOMIC_HCA");
  EXPECT_EQ(j[0]["tso_caps"]["max_tso"], 0);
  EXPECT_EQ(opened, (std::vector<std::string>{"rxe0", "rxe1", "rxe1"}));
}

TEST_F(VerbsCmdTest, UnknownDeviceIsANetlinkErrorBeforeVerbsLoad) {
  test::Result r = run({"dev", "limits", "mlx5_0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "unknown device \"mlx5_0\"\n");
  EXPECT_EQ(loads, 0);
}

TEST_F(VerbsCmdTest, ADeviceThatCannotBeOpenedIsOneLineAndTheOthersStillShow) {
  devs["rxe0"].open_error =
      "cannot open verbs device \"rxe0\" (/dev/infiniband/uverbs0): Permission denied";
  test::Result r = run({"-j", "dev", "limits"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "cannot open verbs device \"rxe0\" (/dev/infiniband/uverbs0): Permission denied\n");
  nlohmann::json j = nlohmann::json::parse(r.out);  // still one valid document
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["dev"], "rxe1");
  // Both fail: one line each, exit 1, no output.
  devs["rxe1"].open_error = "device \"rxe1\" has no verbs interface";
  r = run({"gid", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "cannot open verbs device \"rxe0\" (/dev/infiniband/uverbs0): Permission denied\n"
            "device \"rxe1\" has no verbs interface\n");
  // Loading libibverbs itself fails.
  test::Result l = test::run_program(
      {"dev", "limits", "rxe0"}, [&] { return std::make_unique<Borrowed>(k); }, "",
      []() -> std::unique_ptr<verbs::Verbs> { throw Error("cannot load libibverbs"); });
  EXPECT_EQ(l.status, 1);
  EXPECT_EQ(l.err, "cannot load libibverbs\n");
}

TEST_F(VerbsCmdTest, CommandsWithoutVerbsNeverLoadThem) {
  for (std::vector<std::string> args : {std::vector<std::string>{"dev"},
                                        {"-d", "dev", "show", "rxe0"},
                                        {"link"},
                                        {"res"},
                                        {"res", "show", "qp"},
                                        {"system"},
                                        {"dev", "l"},
                                        {"link", "s"}}) {
    test::Result r = run(args);
    EXPECT_EQ(r.status, 0) << args[0] << ": " << r.err;
  }
  EXPECT_EQ(loads, 0);
  EXPECT_TRUE(opened.empty());
}

TEST_F(VerbsCmdTest, GidShowFilters) {
  test::Result r = run({"gid", "show"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "dev rxe0 port 1 index 0 gid fe80:0000:0000:0000:5054:00ff:fe00:0001 type roce-v1 "
            "netdev veth0\n"
            "dev rxe0 port 1 index 1 gid fe80:0000:0000:0000:5054:00ff:fe00:0001 type roce-v2 "
            "netdev veth0\n"
            "dev rxe0 port 1 index 2 gid 0000:0000:0000:0000:0000:ffff:c000:0201 ipv4 192.0.2.1 "
            "type roce-v2 netdev veth0\n"
            "dev rxe1 port 1 index 0 gid fe80:0000:0000:0000:5054:00ff:fe00:0002 type roce-v1 "
            "netdev veth1\n"
            "dev rxe1 port 1 index 1 gid fe80:0000:0000:0000:5054:00ff:fe00:0002 type roce-v2 "
            "netdev veth1\n"
            "dev rxe1 port 1 index 2 gid 0000:0000:0000:0000:0000:ffff:c000:0202 ipv4 192.0.2.2 "
            "type roce-v2 netdev veth1\n");
  r = run({"-j", "gid", "show", "type", "roce-v2", "netdev", "veth1"});
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0], nlohmann::json::parse(R"({"dev":"rxe1","port":1,"index":1,
      "gid":"fe80:0000:0000:0000:5054:00ff:fe00:0002","type":"roce-v2","netdev":"veth1"})"));
  EXPECT_EQ(j[1]["ipv4"], "192.0.2.2");
  r = run({"gid", "show", "rxe0/1", "type", "roce-v1"});
  EXPECT_EQ(r.out,
            "dev rxe0 port 1 index 0 gid fe80:0000:0000:0000:5054:00ff:fe00:0001 type roce-v1 "
            "netdev veth0\n");
  r = run({"gid", "show", "netdev", "eth9"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
}

TEST_F(VerbsCmdTest, GidShowBadInput) {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"gid", "show", "type", "v2"}, "unknown GID type \"v2\" (ib, roce-v1 or roce-v2)\n"},
      {{"gid", "show", "type"}, "missing GID type (ib, roce-v1 or roce-v2)\n"},
      {{"gid", "show", "rxe0/2"}, "device \"rxe0\" has no port 2 (ports: 1-1)\n"},
      {{"gid", "show", "rxe0/x"}, "invalid port \"x\" (expected DEV/PORT with PORT 1 or more)\n"},
      {{"gid", "show", "rxe0", "rxe1"}, "unknown gid show parameter \"rxe1\" (type or netdev)\n"},
      {{"gid", "show", "nosuch0"}, "unknown device \"nosuch0\"\n"},
      {{"gid", "frob"}, "unknown gid command \"frob\" (show, list or help)\n"},
  };
  for (const Case& c : cases) {
    test::Result r = run(c.args);
    EXPECT_EQ(r.status, 1) << c.args.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
  EXPECT_EQ(loads, 0);
}

TEST_F(VerbsCmdTest, LinkStatus) {
  test::Result r = run({"link", "status"});
  EXPECT_EQ(r.status, 0) << r.err;
  // ibstat's Rate (1X FDR10: 10) and Port GUID (GID 0's interface ID).
  EXPECT_EQ(r.out,
            "link rxe0/1 link_layer Ethernet state ACTIVE physical_state LINK_UP max_mtu 4096 "
            "active_mtu 1024 width 1X rate 10 port_guid 0x505400fffe000001\n"
            "link rxe1/1 link_layer Ethernet state ACTIVE physical_state LINK_UP max_mtu 4096 "
            "active_mtu 1024 width 1X rate 10 port_guid 0x505400fffe000002\n");
  r = run({"-j", "-d", "link", "st", "rxe1/1"});
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["ifname"], "rxe1");
  EXPECT_EQ(j[0]["active_mtu"], 1024);
  EXPECT_EQ(j[0]["speed"], "10.0");  // the lane speed, a detail
  EXPECT_EQ(j[0]["rate"], 10);
  EXPECT_EQ(j[0]["port_guid"], "0x505400fffe000002");
  EXPECT_TRUE(j[0].contains("gid_tbl_len"));
  r = run({"link", "status", "rxe1/3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "device \"rxe1\" has no port 3 (ports: 1-1)\n");
}

// ibv_query_port_speed needs rdma-core 62; Debian 12 has 44, so the VM's
// link status has no effective speed and the fake verbs shows it here.
TEST_F(VerbsCmdTest, LinkStatusEffectiveSpeedWhereLibibverbsHasIt) {
  devs["rxe1"].port_speeds[1] = 1000;  // 100 Gb/s (100 Mb/s units)
  test::Result r = run({"link", "status"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "link rxe0/1 link_layer Ethernet state ACTIVE physical_state LINK_UP max_mtu 4096 "
            "active_mtu 1024 width 1X rate 10 port_guid 0x505400fffe000001\n"
            "link rxe1/1 link_layer Ethernet state ACTIVE physical_state LINK_UP max_mtu 4096 "
            "active_mtu 1024 width 1X rate 10 port_guid 0x505400fffe000002 "
            "effective_speed 100Gb/s\n");
  r = run({"-j", "link", "status", "rxe1/1"});
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j[0]["effective_speed_mbps"], 100000);
  r = run({"-j", "link", "status", "rxe0/1"});
  EXPECT_FALSE(nlohmann::json::parse(r.out)[0].contains("effective_speed_mbps"));
}

TEST_F(VerbsCmdTest, HelpNamesTheNewCommands) {
  test::Result r = run({"dev", "help"});
  EXPECT_NE(r.out.find("rdma dev limits [DEV]"), std::string::npos);
  r = run({"link", "help"});
  EXPECT_NE(r.out.find("rdma link status [DEV[/PORT_INDEX]]"), std::string::npos);
  r = run({"gid", "help"});
  EXPECT_NE(r.out.find("rdma gid show [ DEV[/PORT] ] [ type GID_TYPE ] [ netdev NAME ]"),
            std::string::npos);
  r = run({"help"});
  EXPECT_NE(r.out.find("| gid |"), std::string::npos);
}

}  // namespace
}  // namespace rdma
