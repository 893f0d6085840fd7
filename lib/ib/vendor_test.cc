// The vendor-class client and server of lib/ib/vendor.h. ibsim carries no
// vendor-class MADs (tests/ibsim/run.sh shows the error it gives): our
// server answers our client here through two transports joined by a wire,
// the server in a thread of its own as it would run on another host.
#include "lib/ib/vendor.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "lib/error.h"
#include "lib/mad/serving.h"

namespace rdma::ib {
namespace {

// Two ports' queues: what one end sends, the other receives.
struct VendorWire {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<mad::Request> to_server, to_client;
};

class VendorWireEnd : public mad::Transport, public mad::Serving {
 public:
  VendorWireEnd(VendorWire& w, bool server, uint16_t lid) : w_(w), server_(server), lid_(lid) {}
  void send(const mad::Mad& m, const mad::Address& to, int) override {
    std::lock_guard<std::mutex> l(w_.mu);
    sent_to.push_back(to);
    // The wire keeps the P_Key index a MAD left with: both ports' tables
    // are taken to be alike.
    (server_ ? w_.to_client : w_.to_server)
        .push_back({{{m.bytes.begin(), m.bytes.end()}, 0, lid_}, to.pkey_index});
    w_.cv.notify_all();
  }
  std::optional<mad::Received> receive(int timeout_ms) override {
    std::optional<mad::Request> r = receive_request(timeout_ms);
    if (!r) return std::nullopt;
    return std::move(r->mad);
  }
  std::optional<mad::Request> receive_request(int timeout_ms) override {
    std::unique_lock<std::mutex> l(w_.mu);
    auto& q = server_ ? w_.to_server : w_.to_client;
    if (!w_.cv.wait_for(l, std::chrono::milliseconds(timeout_ms), [&] { return !q.empty(); }))
      return std::nullopt;
    mad::Request r = std::move(q.front());
    q.pop_front();
    return r;
  }
  void serve(uint8_t mgmt_class, uint32_t oui) override {
    served_class = mgmt_class;
    served_oui = oui;
  }
  std::vector<mad::Address> sent_to;
  int served_class = -1;
  uint32_t served_oui = 0;

 private:
  VendorWire& w_;
  bool server_;
  uint16_t lid_;
};

mad::Access wire_access(VendorWire& w) {
  return {[](const std::string&) {
            mad::LocalPort p;
            p.ca = "wire0";
            p.port = 1;
            p.lid = 7;
            return p;
          },
          [&w](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
            return std::make_unique<VendorWireEnd>(w, false, 7);
          }};
}

const ServeInfo kInfo{"pair-host.example", "cpu 0: model  Test CPU MHZ  1000.000\n"};

TEST(VendorServe, OurPingServerAnswersOurClient) {
  VendorWire w;
  VendorWireEnd server(w, true, 9);
  std::vector<uint16_t> answered;
  std::thread t([&] {
    vendor_serve(
        server, VendorServer::Ping, kInfo, 3, [] { return false; },
        [&](uint16_t lid) { answered.push_back(lid); });
  });
  mad::EngineConfig cfg;
  cfg.timeout_ms = 2000;
  MadClient c(wire_access(w), "", cfg);
  std::vector<std::string> hosts;
  PingSummary s = ping_run(
      c, 9, {.count = 3, .flood = true}, [&](const Pong& p) { hosts.push_back(p.host); },
      [](const std::string& why) { ADD_FAILURE() << why; }, [](int) { return true; });
  t.join();
  EXPECT_EQ(server.served_class, mad::kClassOpenIbPing);
  EXPECT_EQ(server.served_oui, mad::kOpenIbOui);
  EXPECT_EQ(hosts, std::vector<std::string>(3, "pair-host.example"));
  EXPECT_EQ(s.transmitted, 3u);
  EXPECT_EQ(s.received, 3u);
  EXPECT_EQ(s.loss_percent(), 0u);
  EXPECT_EQ(s.host, "pair-host.example");
  EXPECT_LE(s.min_us, s.avg_us());
  EXPECT_LE(s.avg_us(), s.max_us);
  // Each answer went back to the requester's GSI.
  EXPECT_EQ(answered, std::vector<uint16_t>(3, 7));
  ASSERT_EQ(server.sent_to.size(), 3u);
  EXPECT_EQ(server.sent_to[0].lid, 7);
  EXPECT_EQ(server.sent_to[0].qp, 1u);
  EXPECT_EQ(server.sent_to[0].qkey, mad::kGsiQkey);
  EXPECT_EQ(server.sent_to[0].pkey_index, 0);
}

TEST(VendorServe, OurSysstatServerAnswersHostCpuAndPing) {
  VendorWire w;
  VendorWireEnd server(w, true, 9);
  // Asked with -Y 5: the answers leave on the index the requests came on.
  std::thread t(
      [&] { vendor_serve(server, VendorServer::Sysstat, kInfo, 3, [] { return false; }); });
  mad::EngineConfig cfg;
  cfg.timeout_ms = 2000;
  cfg.gmp_pkey_index = 5;
  MadClient c(wire_access(w), "", cfg);
  EXPECT_EQ(sysstat(c, 9, SysstatQuery::Host), "pair-host.example");
  EXPECT_EQ(sysstat(c, 9, SysstatQuery::Cpu), kInfo.cpus);
  EXPECT_EQ(sysstat(c, 9, SysstatQuery::Ping), "");
  t.join();
  ASSERT_EQ(server.sent_to.size(), 3u);
  for (const mad::Address& to : server.sent_to) EXPECT_EQ(to.pkey_index, 5);
}

TEST(VendorServe, ServesTheOuiItIsGiven) {
  VendorWire w;
  VendorWireEnd server(w, true, 9);
  ServeInfo info = kInfo;
  info.oui = 0x0002c9;
  std::thread t(
      [&] { vendor_serve(server, VendorServer::Sysstat, info, 1, [] { return false; }); });
  mad::EngineConfig cfg;
  cfg.timeout_ms = 2000;
  MadClient c(wire_access(w), "", cfg);
  EXPECT_EQ(sysstat(c, 9, SysstatQuery::Host, 0x0002c9), kInfo.host);
  t.join();
  EXPECT_EQ(server.served_oui, 0x0002c9u);
}

TEST(VendorServe, AnswersOnThePKeyIndexTheRequestCameOn) {
  VendorWire w;
  VendorWireEnd server(w, true, 9);
  std::thread t([&] { vendor_serve(server, VendorServer::Ping, kInfo, 2, [] { return false; }); });
  mad::EngineConfig cfg;
  cfg.timeout_ms = 2000;
  cfg.gmp_pkey_index = 3;  // --pkey-idx 3
  {
    MadClient c(wire_access(w), "", cfg);
    EXPECT_EQ(ping(c, 9).host, kInfo.host);
  }
  cfg.gmp_pkey_index = 0;
  MadClient c(wire_access(w), "", cfg);
  EXPECT_EQ(ping(c, 9).host, kInfo.host);
  t.join();
  ASSERT_EQ(server.sent_to.size(), 2u);
  EXPECT_EQ(server.sent_to[0].pkey_index, 3);
  EXPECT_EQ(server.sent_to[1].pkey_index, 0);
}

TEST(VendorServe, StopsWhenAskedAndNeedsAServingPort) {
  VendorWire w;
  VendorWireEnd server(w, true, 9);
  int asked = 0;
  EXPECT_EQ(vendor_serve(server, VendorServer::Ping, kInfo, 0, [&] { return ++asked > 2; }), 0u);
  EXPECT_EQ(asked, 3);
  struct Plain : mad::Transport {
    void send(const mad::Mad&, const mad::Address&, int) override {}
    std::optional<mad::Received> receive(int) override { return std::nullopt; }
  } plain;
  EXPECT_THROW(vendor_serve(plain, VendorServer::Ping, kInfo, 1, [] { return false; }), Error);
}

TEST(VendorServe, AnswersOnlyItsClassAndOuiAndRefusesUnknownAttributes) {
  mad::Mad ping = mad::make_vendor_get(mad::kClassOpenIbPing, 0);
  EXPECT_FALSE(vendor_answer(mad::kClassOpenIbSysstat, mad::kOpenIbOui, kInfo, ping));
  EXPECT_FALSE(vendor_answer(mad::kClassOpenIbPing, 0x0002c9, kInfo, ping));
  std::optional<mad::Mad> r = vendor_answer(mad::kClassOpenIbPing, mad::kOpenIbOui, kInfo, ping);
  ASSERT_TRUE(r);
  EXPECT_EQ(mad::vendor_text(*r), kInfo.host);
  mad::Mad odd = mad::make_vendor_get(mad::kClassOpenIbSysstat, 0x99);
  r = vendor_answer(mad::kClassOpenIbSysstat, mad::kOpenIbOui, kInfo, odd);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get(mad::hdr::kStatus), mad::kStatusBadMethodAttr);
}

TEST(VendorServe, CpuLinesAsIbsysstatBuildsThem) {
  std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon X\ncpu MHz\t\t: 2400.000\n\n"
      "processor\t: 1\nmodel name\t: Xeon X\ncpu MHz\t\t: 1200.5\n";
  EXPECT_EQ(cpu_lines(cpuinfo),
            "cpu 0: model  Xeon X MHZ  2400.000\ncpu 1: model  Xeon X MHZ  1200.5\n");
  EXPECT_EQ(cpu_lines(""), "");
}

}  // namespace
}  // namespace rdma::ib
