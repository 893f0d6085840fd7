// A MAD client (lib/ib/client.h) on the fabric double: the suite's fabric
// (tests/ibsim/net) swept by its SM: hca1 LID 1 with the SM, sw1 2, hca2
// 3, sw2 4, hca3 5, hca4 6; the client on hca1 port 1, SA tables whole as
// the kernel reassembles them. For the lib/ib tests that read through it.
#pragma once

#include <memory>
#include <string>

#include "lib/ib/client.h"
#include "lib/mad/target.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ibtest {

class FabricClient {
 public:
  FabricClient()
      : fabric_(load_topology(rdma::testdata::dir() + "/../ibsim/net"), options()),
        client_((fabric_.assign_lids(), access()), "", mad::EngineConfig{100, 1, 4}) {}
  ib::MadClient& client() { return client_; }
  FakeFabric& fabric() { return fabric_; }
  FabricNode& node(const char* id) { return fabric_.nodes()[fabric_.node(id)]; }
  // `lid N` as the user gives it, and its route.
  static mad::Target lid_target(uint16_t lid) {
    mad::Target t;
    t.lid = lid;
    t.text = "lid " + std::to_string(lid);
    return t;
  }
  static mad::Route lid_route(uint16_t lid) { return {false, lid, {}}; }

 private:
  static FabricOptions options() {
    FabricOptions o;
    o.rmpp = RmppMode::Reassembled;
    return o;
  }
  mad::Access access() {
    return {[this](const std::string&) { return fabric_.local_port(); },
            [this](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
              return std::make_unique<Borrowed>(fabric_);
            }};
  }
  // The fabric lent to the client, which owns its transport.
  class Borrowed : public mad::Transport {
   public:
    explicit Borrowed(mad::Transport& t) : t_(t) {}
    void send(const mad::Mad& m, const mad::Address& a, int timeout) override {
      t_.send(m, a, timeout);
    }
    std::optional<mad::Received> receive(int timeout) override { return t_.receive(timeout); }

   private:
    mad::Transport& t_;
  };

  FakeFabric fabric_;
  ib::MadClient client_;
};

}  // namespace rdma::ibtest
