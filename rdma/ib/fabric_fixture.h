// Commands run in-process against the fabric test double (lib/testing/fabric) on
// a topology file: the program owns a transport that lends the test's
// fabric, so tests inspect and change the fabric between commands.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "rdma/test_util.h"

namespace rdma::test {

class LentFabric : public mad::Transport {
 public:
  explicit LentFabric(mad::Transport& t) : t_(t) {}
  void send(const mad::Mad& m, const mad::Address& a, int timeout) override {
    t_.send(m, a, timeout);
  }
  std::optional<mad::Received> receive(int timeout) override { return t_.receive(timeout); }

 private:
  mad::Transport& t_;
};

class OnFakeFabric : public ::testing::Test {
 protected:
  explicit OnFakeFabric(const char* net = "net", ibtest::FabricOptions o = {})
      : fabric_(ibtest::load_topology(std::string(RDMA_TEST_DATA) + "/../ibsim/" + net), o) {
    fabric_.assign_lids();
  }

  Result run(std::vector<std::string> args) {
    mad::Access access{[this](const std::string&) { return fabric_.local_port(); },
                       [this](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
                         return std::make_unique<LentFabric>(fabric_);
                       }};
    return run_program(
        std::move(args),
        []() -> std::unique_ptr<nl::Transport> { throw Error("no netlink in this test"); }, "",
        access);
  }

  nlohmann::json json(std::vector<std::string> args) {
    args.insert(args.begin(), "-j");
    Result r = run(std::move(args));
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out.empty() ? nlohmann::json() : nlohmann::json::parse(r.out);
  }

  std::string guid(uint64_t g) const {
    char s[32];
    std::snprintf(s, sizeof s, "%04x:%04x:%04x:%04x", unsigned(g >> 48), unsigned(g >> 32 & 0xffff),
                  unsigned(g >> 16 & 0xffff), unsigned(g & 0xffff));
    return s;
  }

  ibtest::FakeFabric fabric_;
};

}  // namespace rdma::test
