// The MAD client against the fabric double (the suite's fabric, swept: hca1
// LID 1 with the SM, sw1 2, hca2 3, sw2 4, hca3 5, hca4 6): the port it
// opens, routes, SMPs, the SA's records about a target, the trace.
#include "lib/ib/client.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "lib/error.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class Lent : public mad::Transport {
 public:
  explicit Lent(mad::Transport& t) : t_(t) {}
  void send(const mad::Mad& m, const mad::Address& a, int timeout) override {
    ++sent;
    t_.send(m, a, timeout);
  }
  std::optional<mad::Received> receive(int timeout) override { return t_.receive(timeout); }
  int sent = 0;

 private:
  mad::Transport& t_;
};

class Client : public ::testing::Test {
 protected:
  Client() { fabric_->assign_lids(); }
  static std::unique_ptr<ibtest::FakeFabric> unswept() {
    ibtest::FabricOptions o;
    o.rmpp = ibtest::RmppMode::Reassembled;  // as the kernel gives an SA table
    return std::make_unique<ibtest::FakeFabric>(
        ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net"), o);
  }
  mad::Access access() {
    return {[this](const std::string& via) {
              via_ = via;
              return fabric_->local_port();
            },
            [this](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
              auto t = std::make_unique<Lent>(*fabric_);
              lent_ = t.get();
              return t;
            }};
  }
  MadClient client(MadTrace trace = {}) {
    return MadClient(access(), "mlx5_0/1", {100, 1, 4}, trace);
  }
  uint64_t node_guid(const char* id) { return fabric_->nodes()[fabric_->node(id)].node_guid; }
  uint64_t port_guid(const char* id, int port) {
    return fabric_->nodes()[fabric_->node(id)].ports[port].guid;
  }

  std::unique_ptr<ibtest::FakeFabric> fabric_ = unswept();
  std::string via_;
  Lent* lent_ = nullptr;
};

mad::Target lid_target(uint16_t lid) {
  mad::Target t;
  t.lid = lid;
  t.text = "lid " + std::to_string(lid);
  return t;
}

mad::Target guid_target(uint64_t guid) {
  mad::Target t;
  t.kind = mad::Target::Kind::Guid;
  t.guid = guid;
  t.text = "guid " + std::to_string(guid);
  return t;
}

TEST_F(Client, OpensThePortViaNamesWithTheEngineAsConfigured) {
  MadClient c = client();
  EXPECT_EQ(via_, "mlx5_0/1");
  EXPECT_EQ(c.local().sm_lid, 1);
  EXPECT_EQ(c.sm_lid(), 1);
  EXPECT_EQ(c.engine().config().timeout_ms, 100);
  EXPECT_EQ(c.engine().config().retries, 1);
  EXPECT_EQ(c.engine().config().window, 4u);
}

TEST_F(Client, WithoutAWayToTheFabricItRefuses) {
  try {
    MadClient(mad::Access{}, "", {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "InfiniBand management is not available here");
  }
}

TEST_F(Client, RoutesGoToTheTargetOrTheSm) {
  MadClient c = client();
  mad::Route sm = c.route(std::nullopt);
  EXPECT_FALSE(sm.directed);
  EXPECT_EQ(sm.lid, 1);
  mad::Target dr;
  dr.kind = mad::Target::Kind::Dr;
  dr.path = {1, 3};
  mad::Route r = c.route(dr);
  EXPECT_TRUE(r.directed);
  EXPECT_EQ(r.path, (std::vector<uint8_t>{1, 3}));
  NodeInfo ni = NodeInfo::from(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  EXPECT_EQ(ni.node_guid, node_guid("sw2"));
}

TEST_F(Client, WithoutAnSmThereIsNoSmLid) {
  fabric_ = unswept();
  MadClient c = client();
  try {
    c.route(std::nullopt);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "no subnet manager: local port " + c.local().ca + "/1 has no SM LID");
  }
}

TEST_F(Client, SmpAndGmpRepliesAreChecked) {
  MadClient c = client();
  mad::Route r{false, 3, {}};
  NodeInfo ni = NodeInfo::from(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  EXPECT_EQ(ni.node_guid, node_guid("hca2"));
  EXPECT_THROW(c.smp(r, mad::kGet, mad::kSwitchInfo, 0), mad::MadError);  // a CA has none
  mad::Mad cpi = c.gmp(3, mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0);
  EXPECT_EQ(cpi.mgmt_class(), mad::kClassPerf);
  EXPECT_THROW(c.gmp(9, mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0), mad::MadError);
}

TEST_F(Client, SaLidOfLidsGuidsAndGids) {
  MadClient c = client();
  EXPECT_EQ(c.sa_lid(lid_target(4)), 4);
  EXPECT_EQ(lent_->sent, 0);  // a LID needs no NodeRecord
  EXPECT_EQ(c.sa_lid(guid_target(node_guid("sw2"))), 4);
  EXPECT_EQ(c.sa_lid(guid_target(port_guid("hca2", 1))), 3);
  EXPECT_EQ(c.sa_lid(guid_target(node_guid("hca3"))), 5);  // a CA's node GUID: its port's LID
  mad::Target gid;
  gid.kind = mad::Target::Kind::Gid;
  gid.gid = {0xfe, 0x80};
  for (int i = 0; i < 8; ++i)
    gid.gid[8 + i] = static_cast<uint8_t>(port_guid("hca4", 1) >> (56 - 8 * i));
  EXPECT_EQ(c.sa_lid(gid), 6);
  try {
    c.sa_lid(guid_target(0x1234));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cannot resolve guid 4660: the SA has no such node or port");
  }
  mad::Target dr;
  dr.kind = mad::Target::Kind::Dr;
  dr.text = "dr 0,1";
  EXPECT_THROW(c.sa_lid(dr), Error);
}

// An SA that gives only the first MAD of a table (ibsim's through
// umad2sim): a GUID beyond it cannot be resolved, and the error says why.
TEST_F(Client, AGuidBeyondACutNodeTableSaysTheTableWasCut) {
  ibtest::FabricOptions o;
  o.rmpp = ibtest::RmppMode::Umad2sim;
  fabric_ = std::make_unique<ibtest::FakeFabric>(
      ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net"), o);
  fabric_->assign_lids();
  MadClient c = client();
  EXPECT_EQ(c.sa_lid(guid_target(port_guid("hca1", 1))), 1);  // the first record
  try {
    c.sa_lid(guid_target(node_guid("sw2")));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot resolve guid " + std::to_string(node_guid("sw2")) +
                  ": the SA has no such node or port (the SA's NodeRecord table is cut short "
                  "after 1 record: an unknown number of its records is missing (no RMPP?))");
  }
}

TEST_F(Client, SaRecordsOfATargetAndPort) {
  MadClient c = client();
  auto all = c.sa_records(lid_target(2), mad::kPortInfoRecord);
  EXPECT_EQ(all.size(), 9u);  // sw1's ports 0-8
  auto one = c.sa_records(lid_target(2), mad::kPortInfoRecord, 3);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0][2], 3);  // PortNum
  try {
    c.sa_records(lid_target(9), mad::kNodeRecord);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the SA has no NodeRecord for lid 9");
  }
  try {
    c.sa_records(lid_target(3), mad::kPortInfoRecord, 2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the SA has no PortInfoRecord for lid 3 port 2");
  }
}

TEST_F(Client, TheTraceSeesEveryMadBothWays) {
  std::vector<std::string> dirs;
  MadClient c = client([&](const char* dir, std::span<const uint8_t> m) {
    dirs.push_back(dir);
    EXPECT_EQ(m.size(), mad::kMadBytes);
  });
  c.smp({false, 2, {}}, mad::kGet, mad::kNodeInfo, 0);
  EXPECT_EQ(dirs, (std::vector<std::string>{">", "<"}));
}

TEST(PrintTrace, DecodesHeaderAndAttributeThenHex) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  mad::Mad m = mad::make_smp({false, 2, {}}, mad::kGet, mad::kNodeInfo, 0);
  print_trace(f, true)(">", m.bytes);
  std::fclose(f);
  std::string out(buf, len);
  std::free(buf);
  EXPECT_EQ(out.rfind("> base_version 1 class 0x01 class_version 1 response 0 method 0x01 ", 0), 0u)
      << out;
  EXPECT_NE(out.find(" attribute NodeInfo\n> "), std::string::npos) << out;  // no blank at the end
  EXPECT_EQ(out.find(" \n"), std::string::npos) << out;
  size_t lines = 0;
  for (char ch : out) lines += ch == '\n';
  EXPECT_EQ(lines, 18u);  // two lines, 16 of hex
  // Bytes that are no MAD say why on the attribute line.
  f = open_memstream(&buf, &len);
  uint8_t junk[3] = {1, 2, 3};
  print_trace(f, true)("<", junk);
  std::fclose(f);
  out.assign(buf, len);
  std::free(buf);
  EXPECT_EQ(out.rfind("< ", 0), 0u);
  EXPECT_NE(out.find("\n"), std::string::npos);
}

}  // namespace
}  // namespace rdma::ib
