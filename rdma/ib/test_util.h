// The MAD commands run in-process against the fabric double (lib/testing/fabric)
// on a topology file of tests/ibsim, after the SM's sweep, seen from hca1 port
// 1 (LID 1): what was sent, printed and said. The program owns a transport
// that lends the test's fabric, so tests inspect and change the fabric
// between commands. In the suite's fabric (tests/ibsim/net) the sweep gives
// sw1 LID 2, hca2 LID 3, sw2 LID 4, hca3 LID 5 and hca4 LID 6; LID 9 is
// nobody's.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/testing/captured.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"
#include "rdma/rdma.h"
#include "rdma/test_util.h"

namespace rdma::madtest {

using mad::Mad;

using test::Result;

// Alters the fabric's replies before the program sees them: for what no
// fabric, healthy or sick, sends (a truncated MAD, a reply of another
// class or attribute).
using Spoiler = std::function<void(std::vector<uint8_t>& reply)>;

// The program's transport: the test's fabric (the program owns its
// transport, the test keeps the fabric), every MAD sent recorded, each
// reply passed through spoil when set.
class SpoilingTransport : public mad::Transport {
 public:
  SpoilingTransport(mad::Transport& fabric, std::vector<Mad>& sent, const Spoiler& spoil)
      : fabric_(fabric), sent_(sent), spoil_(spoil) {}
  void send(const Mad& m, const mad::Address& a, int timeout_ms) override {
    sent_.push_back(m);
    fabric_.send(m, a, timeout_ms);
  }
  std::optional<mad::Received> receive(int timeout_ms) override {
    std::optional<mad::Received> r = fabric_.receive(timeout_ms);
    if (r && r->status == 0 && spoil_) spoil_(r->bytes);
    return r;
  }

 private:
  mad::Transport& fabric_;
  std::vector<Mad>& sent_;
  const Spoiler& spoil_;
};

inline std::string ibsim_file(const char* name) {
  return rdma::testdata::dir() + "/../ibsim/" + name;
}

class MadCmd : public ::testing::Test {
 protected:
  // net: the topology file in tests/ibsim; o: the double's options. Tests
  // may replace access_'s parts, or the fabric (no_sm()).
  explicit MadCmd(const char* net = "net", ibtest::FabricOptions o = {})
      : net_(net), options_(o), fabric_(ibtest::load_topology(ibsim_file(net)), o) {
    fabric_.assign_lids();
    access_ = default_access();
  }
  mad::Access default_access() {
    return {[this](const std::string& via) {
              via_ = via;
              return fabric_.local_port();
            },
            [this](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
              return std::make_unique<SpoilingTransport>(fabric_, sent_, spoil_);
            },
            // The double is seen through one port: the machine's only one.
            [this] {
              mad::Devices d;
              d.umad.push_back({"fabric0", 1, {{fabric_.local_port(), true}}});
              return d;
            }};
  }

  // The same fabric before any subnet manager has swept it: no LIDs.
  void no_sm() { fabric_ = ibtest::FakeFabric(ibtest::load_topology(ibsim_file(net_)), options_); }
  ibtest::FabricNode& node(const char* id) { return fabric_.nodes()[fabric_.node(id)]; }

  // Runs the program; input, when given, is its standard input.
  Result run(std::vector<std::string> args, std::string input = "") {
    return test::run_program(
        std::move(args),
        []() -> std::unique_ptr<nl::Transport> { throw Error("no netlink in this test"); }, input,
        access_);
  }

  // The output of a command that must succeed, with -j: null when it printed
  // nothing. status: 1 for a findings command that must find something.
  nlohmann::json json(std::vector<std::string> args, int status = 0) {
    args.insert(args.begin(), "-j");
    Result r = run(std::move(args));
    EXPECT_EQ(r.status, status) << r.err;
    return r.status != status || r.out.empty() ? nlohmann::json() : nlohmann::json::parse(r.out);
  }
  // The same for a findings command whether it found something (1) or not
  // (0): fabric links degraded, for a link among others.
  nlohmann::json findings_json(std::vector<std::string> args) {
    args.insert(args.begin(), "-j");
    Result r = run(std::move(args));
    EXPECT_LE(r.status, 1) << r.err;
    return r.status > 1 || r.out.empty() ? nlohmann::json() : nlohmann::json::parse(r.out);
  }

  std::string guid(uint64_t g) const {
    char s[32];
    std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(g));
    return s;
  }

  const char* net_;
  ibtest::FabricOptions options_;
  ibtest::FakeFabric fabric_;
  mad::Access access_;
  Spoiler spoil_;
  std::vector<Mad> sent_;
  std::string via_;
};

}  // namespace rdma::madtest
