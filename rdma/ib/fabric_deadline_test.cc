// Fabric commands on a fabric that lies or does not answer: contradictions
// and --deadline give the partial result, warnings and exit status 1; the
// progress line on a terminal (forced through Env::is_terminal), not with -q.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "rdma/ib/progress.h"
#include "rdma/ib/test_util.h"

namespace rdma::madtest {
namespace {

bool deadline_has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The suite's fabric with real timeouts: a MAD nobody answers is reported
// after its timeout, as umad does.
class FabricDeadline : public MadCmd {
 protected:
  FabricDeadline() : MadCmd("net", deadline_options()) {}
  static ibtest::FabricOptions deadline_options() {
    ibtest::FabricOptions o;
    o.real_timeouts = true;
    return o;
  }
  // sw2 answers nothing.
  void silence_sw2() { fabric_.drop({{fabric_.node("sw2"), -1, -1}, 1.0}); }
  Result run_with(std::vector<std::string> args, bool terminal) {
    Env env;
    env.open = []() -> std::unique_ptr<nl::Transport> { throw Error("no netlink in this test"); };
    env.mad = access_;
    env.is_terminal = [terminal](std::FILE*) { return terminal; };
    return test::run_env(std::move(args), std::move(env), "");
  }
};

TEST_F(FabricDeadline, EndsAtTheDeadlineWithThePartialResult) {
  silence_sw2();
  auto start = std::chrono::steady_clock::now();
  Result r = run({"--deadline", "0.3", "--timeout", "2000", "fabric", "show"});
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::milliseconds(1500));  // not one try of 2 s
  EXPECT_EQ(r.status, 1);
  // hca1 and sw1 were found before sw2 was asked.
  EXPECT_PRED2(deadline_has, r.out, "hca1");
  EXPECT_PRED2(deadline_has, r.out, "sw1");
  EXPECT_FALSE(deadline_has(r.out, "hca3"));
  EXPECT_PRED2(deadline_has, r.err,
               "warning: deadline reached: no reply to NodeInfo from dr 0,1,3");
  EXPECT_PRED2(deadline_has, r.err,
               "warning: deadline of 0.3 s reached: stopped sending, the result is partial\n");
}

TEST_F(FabricDeadline, AHealthyFabricWithinTheDeadlineIsUntouched) {
  Result with = run({"--deadline", "30", "fabric", "show"});
  Result without = run({"fabric", "show"});
  EXPECT_EQ(with.status, 0) << with.err;
  EXPECT_EQ(with.err, "");
  EXPECT_EQ(with.out, without.out);
}

TEST_F(FabricDeadline, BadValuesAreAUsageError) {
  for (const char* bad : {"0", "-1", "x", "", "1s", "nan"}) {
    Result r = run({"--deadline", bad, "fabric", "show"});
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.err, std::string("invalid --deadline \"") + bad +
                         "\" (expected a number of seconds, more than 0)\n")
        << bad;
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(FabricDeadline, AContradictionIsAWarningAndExitStatus1) {
  // hca4 (dr 0,1,3,2) answers with hca1's node GUID: a CA with 1 port there.
  uint64_t hca1 = fabric_.nodes()[fabric_.node("hca1")].node_guid;
  spoil_ = [hca1](std::vector<uint8_t>& reply) {
    Mad m;
    std::copy_n(reply.begin(), std::min(reply.size(), mad::kMadBytes), m.bytes.begin());
    if (m.mgmt_class() != mad::kClassSmiDr || m.get(mad::hdr::kAttrId) != mad::kNodeInfo.id ||
        m.get(mad::hdr::kHopCount) != 3 || m.bytes[128 + 3] != 2)
      return;
    m.set_attr(mad::kNodeInfo, "NodeGUID", hca1);
    std::copy_n(m.bytes.begin(), std::min(reply.size(), mad::kMadBytes), reply.begin());
  };
  Result r = run({"fabric", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "warning: node " + guid(hca1) +
                       " is a ca with 2 ports at dr 0 but a ca with 1 port at dr 0,1,3,2: not "
                       "exploring through dr 0,1,3,2\n");
  EXPECT_PRED2(deadline_has, r.out, "hca3");
  EXPECT_FALSE(deadline_has(r.out, "hca4"));
}

TEST_F(FabricDeadline, ProgressOnATerminalOnly) {
  // Long enough for the line to show (after 0.5 s).
  fabric_.delay({{fabric_.node("sw2"), -1, -1}, 400});
  Result tty = run_with({"fabric", "show"}, true);
  EXPECT_EQ(tty.status, 0) << tty.err;
  // Lines rewritten in place, the last blanked: nothing is left on screen.
  EXPECT_PRED2(deadline_has, tty.err, "\rfabric: ");
  EXPECT_PRED2(deadline_has, tty.err, " MADs sent, ");
  EXPECT_EQ(tty.err.back(), '\r');
  EXPECT_EQ(tty.err.find('\n'), std::string::npos);
  Result pipe = run_with({"fabric", "show"}, false);
  EXPECT_EQ(pipe.err, "");
  Result quiet = run_with({"-q", "fabric", "show"}, true);
  EXPECT_EQ(quiet.err, "");
  Result quiet_long = run_with({"--quiet", "fabric", "show"}, true);
  EXPECT_EQ(quiet_long.err, "");
  EXPECT_EQ(tty.out, pipe.out);
}

TEST(FabricProgress, TheLineSaysNodesMadsInFlightAndTimeouts) {
  mad::EngineStats s;
  s.sent = 12;
  s.retried = 2;
  s.answered = 6;
  s.timeouts = 1;
  // Started 10 (12 less 2 retries), ended 7: 3 in flight.
  EXPECT_EQ(Progress::text(s, 5), "fabric: 5 nodes, 12 MADs sent, 3 in flight, 1 timeout");
  EXPECT_EQ(Progress::text(s, 0), "fabric: 12 MADs sent, 3 in flight, 1 timeout");
  char* buf = nullptr;
  size_t n = 0;
  std::FILE* f = open_memstream(&buf, &n);
  {
    Progress p(f, true, std::chrono::milliseconds(0), std::chrono::milliseconds(0));
    p.update(s, 5);
    s.timeouts = 2;
    p.update(s, 1);  // rewritten in place
  }                  // cleared when it ends
  std::fclose(f);
  std::string text(buf, n);
  std::free(buf);
  EXPECT_EQ(text,
            "\rfabric: 5 nodes, 12 MADs sent, 3 in flight, 1 timeout"
            "\rfabric: 1 node, 12 MADs sent, 2 in flight, 2 timeouts"
            "\r" +
                std::string(53, ' ') + "\r");
  EXPECT_FALSE(progress_wanted(stderr, false, [](std::FILE*) { return false; }));
  EXPECT_TRUE(progress_wanted(stderr, false, [](std::FILE*) { return true; }));
  EXPECT_FALSE(progress_wanted(stderr, true, [](std::FILE*) { return true; }));
}

}  // namespace
}  // namespace rdma::madtest
