// The MAD commands run in-process: a fake local port and a fake
// transport whose answers a test chooses; what was sent, printed and said.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/captured_test.h"
#include "lib/mad/describe.h"
#include "lib/mad/fake_transport.h"
#include "rdma/ib/session.h"
#include "rdma/rdma.h"
#include "rdma/test_util.h"

namespace rdma::madtest {

using mad::FakeTransport;
using mad::Mad;

using test::Result;

class MadCmd : public ::testing::Test {
 protected:
  // The fabric the commands reach: a fake local port (ibsim's hca1) and a
  // transport answering through responder_ or answer(). Tests may replace
  // access_'s parts.
  void SetUp() override { access_ = default_access(); }
  mad::Access default_access() {
    return {
        [this](const std::string& via) {
          via_ = via;
          return mad::captured::hca1_port(sm_lid_);
        },
        [this](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
          return std::make_unique<FakeTransport>(
              [this](const Mad& m, const mad::Address& a) -> std::optional<std::vector<uint8_t>> {
                sent_.push_back(m);
                return responder_ ? responder_(m, a) : answer(m, a);
              });
        }};
  }

  // A switch at LID 2 (NodeInfo captured from ibsim); nothing else answers.
  std::optional<std::vector<uint8_t>> answer(const Mad& m, const mad::Address& a) {
    if (a.lid != 2 && a.lid != mad::kPermissiveLid) return std::nullopt;
    uint16_t attr = m.get(mad::hdr::kAttrId);
    std::vector<uint8_t> data(64);
    if (attr == mad::kNodeInfo.id && m.mgmt_class() != mad::kClassPerf) {
      std::vector<uint8_t> captured = mad::parse_hex(mad::captured::kSwitchNodeInfo);
      data.assign(captured.begin() + 64, captured.begin() + 128);
    } else if (attr == mad::kNodeDescription.id) {
      std::strcpy(reinterpret_cast<char*>(data.data()), "sw1");
    } else if (attr == mad::kPortCounters.id && m.mgmt_class() == mad::kClassPerf) {
      data = std::vector<uint8_t>(m.data().begin(), m.data().end());
      data[4] = 0;
      data[5] = 17;  // SymbolErrorCounter
    }
    return mad::reply_to(m, data);
  }

  // Runs the program; input, when given, is its standard input.
  Result run_rdma(std::vector<std::string> args, std::string input = "") {
    return test::run_program(
        std::move(args),
        []() -> std::unique_ptr<nl::Transport> { throw Error("no netlink in this test"); }, input,
        access_);
  }

  mad::Access access_;
  // Answers instead of answer() when set.
  FakeTransport::Responder responder_;
  std::vector<Mad> sent_;
  std::string via_;
  uint16_t sm_lid_ = 1;
};

}  // namespace rdma::madtest
