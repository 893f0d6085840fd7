// rdma resource filters end to end: every key of every type applied to the
// VM fixture, and the doit-or-dump choice seen in the requests sent.
#include <gtest/gtest.h>

#include "rdma/res_test_util.h"

namespace rdma::restest {
namespace {

struct Case {
  std::vector<std::string> args;  // after "res show"
  int lines;                      // records shown
};

int lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

class ResFilterRun : public ::testing::Test {
 protected:
  TestKernel k{testkernel::Options{}, fixture()};
  Result show(std::vector<std::string> args) {
    args.insert(args.begin(), {"res", "show"});
    return run(k, args);
  }
};

TEST_F(ResFilterRun, EveryKeyIsApplied) {
  std::string me = std::to_string(getpid());
  const Case cases[] = {
      {{"qp", "lqpn", "17"}, 2},
      {{"qp", "rqpn", "0"}, 4},  // GSI QPs have no rqpn
      {{"qp", "pid", me}, 8},
      {{"qp", "sq-psn", "0"}, 10},
      {{"qp", "rq-psn", "0-5"}, 8},
      {{"qp", "type", "gsi"}, 2},
      {{"qp", "path-mig-state", "MIGRATED"}, 8},
      {{"qp", "state", "init"}, 4},
      {{"qp", "state", "rts,INIT"}, 10},
      {{"qp", "pdn", "5,6"}, 2},
      {{"qp", "link", "rxe0/1"}, 5},
      {{"qp", "link", "rxe0/-"}, 0},
      {{"qp", "link", "rxe1"}, 5},
      {{"qp", "dev", "rxe1"}, 5},
      {{"cm_id", "lqpn", "19"}, 1},
      {{"cm_id", "qp-type", "RC"}, 2},
      {{"cm_id", "state", "LISTEN"}, 1},
      {{"cm_id", "ps", "tcp"}, 3},
      {{"cm_id", "ps", "IB"}, 0},
      {{"cm_id", "dev-type", "ether"}, 3},
      {{"cm_id", "dev-type", "infiniband"}, 0},
      {{"cm_id", "transport-type", "ib"}, 3},
      {{"cm_id", "transport-type", "iwarp"}, 0},
      {{"cm_id", "pid", me}, 3},
      {{"cm_id", "src-addr", "192.0.2.1"}, 3},
      {{"cm_id", "src-port", "7174"}, 2},
      {{"cm_id", "dst-addr", "0.0.0.0"}, 1},
      {{"cm_id", "dst-port", "41329"}, 1},
      {{"cm_id", "cm-idn", "1-2"}, 2},
      {{"cq", "users", "8"}, 1},
      {{"cq", "poll-ctx", "workqueue"}, 2},
      {{"cq", "pid", me}, 5},
      {{"cq", "cqn", "0"}, 2},
      {{"cq", "ctxn", "0"}, 2},  // kernel CQs have no ctxn
      {{"mr", "rkey", "0"}, 7},
      {{"mr", "lkey", "0x6a3"}, 1},
      {{"mr", "mrlen", "64"}, 3},
      {{"mr", "pid", me}, 10},
      {{"mr", "mrn", "8"}, 1},
      {{"mr", "pdn", "5"}, 4},
      {{"pd", "users", "0"}, 2},
      {{"pd", "pid", me}, 7},
      {{"pd", "ctxn", "3"}, 2},
      {{"pd", "pdn", "0"}, 2},
      {{"ctx", "pid", me}, 5},
      {{"ctx", "ctxn", "1-3"}, 3},
      {{"srq", "pid", me}, 1},
      {{"srq", "srqn", "0"}, 1},
      {{"srq", "type", "BASIC"}, 1},
      {{"srq", "pdn", "1"}, 1},
      {{"srq", "cqn", "0"}, 0},  // a basic SRQ has no CQ
      {{"srq", "lqpn", "17"}, 1},
      // Several keys: all must match.
      {{"qp", "type", "RC", "state", "RTS", "pdn", "1-5"}, 3},
      // Abbreviated keys and types.
      {{"q", "st", "init", "l", "rxe1/1"}, 4},
  };
  for (const Case& c : cases) {
    Result r = show(c.args);
    std::string what;
    for (const std::string& a : c.args) what += a + " ";
    EXPECT_EQ(r.status, 0) << what << r.err;
    EXPECT_EQ(lines(r.out), c.lines) << what << "\n" << r.out;
  }
}

TEST_F(ResFilterRun, BadFiltersChangeNothing) {
  const std::vector<std::string> bad[] = {
      {"qp", "lqpn"},
      {"qp", "foo", "1"},
      {"qp", "lqpn", "x"},
      {"qp", "state", "RTX"},
      {"qp", "link", "rxe9"},
      {"qp", "link", "rxe0/2"},
      {"qp", "link", "rxe0/x"},
      {"cq", "link", "rxe0/1"},
      {"qp", "dev", "rxe0/1"},
      {"qp", "lqpn", "1", "lqpn", "2"},
      {"qp", "link", "rxe0", "dev", "rxe1"},
      {"bogus"},
  };
  for (const auto& args : bad) {
    Result r = show(args);
    EXPECT_EQ(r.status, 1) << args[0] << " " << args.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST_F(ResFilterRun, OneIdAsksByDoit) {
  Result r = show({"qp", "lqpn", "17"});
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, true), 0);
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, false), 2);  // one per device, port 1
  EXPECT_EQ(lines(r.out), 2);

  r = show({"cq", "cqn", "0x1"});
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_CQ_GET, true), 0);
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_CQ_GET, false), 2);
  EXPECT_EQ(lines(r.out), 2);

  for (auto [type, key, cmd] : {std::tuple{"mr", "mrn", RDMA_NLDEV_CMD_RES_MR_GET},
                                {"pd", "pdn", RDMA_NLDEV_CMD_RES_PD_GET},
                                {"ctx", "ctxn", RDMA_NLDEV_CMD_RES_CTX_GET},
                                {"srq", "srqn", RDMA_NLDEV_CMD_RES_SRQ_GET},
                                {"cm_id", "cm-idn", RDMA_NLDEV_CMD_RES_CM_ID_GET}}) {
    r = show({type, key, "0", "dev", "rxe1"});
    EXPECT_EQ(r.count(cmd, true), 0) << type;
    EXPECT_EQ(r.count(cmd, false), 1) << type;
  }
}

TEST_F(ResFilterRun, SummaryIsOneDumpOrDoitsWithDd) {
  Result r = run(k, {"res"});
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_GET, true), 1);
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_GET, false), 0);
  // -dd: the dump takes no attributes, so each device gets DRIVER_DETAILS
  // in a doit and counts the objects its driver keeps for itself.
  testkernel::Cq cq;
  cq.id = 9;
  cq.owner = {0, "mlx5_ib"};
  cq.driver_detail = true;
  k.state.devices[1].cqs.items.push_back(cq);
  r = run(k, {"-dd", "res"});
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_GET, true), 0);
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_GET, false), 2);
  EXPECT_NE(r.out.find("1: rxe1: pd 2 cq 3 "), std::string::npos) << r.out;
  EXPECT_NE(run(k, {"res"}).out.find("1: rxe1: pd 2 cq 2 "), std::string::npos);
}

TEST_F(ResFilterRun, ListsAndRangesDump) {
  for (const char* v : {"17,18", "17-18"}) {
    Result r = show({"qp", "lqpn", v});
    EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, true), 2);
    EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, false), 0);
    EXPECT_EQ(lines(r.out), 4);
  }
  // lqpn names a QP but pdn does not: the QP doit is still used.
  Result r = show({"qp", "pdn", "1"});
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, false), 0);
}

TEST_F(ResFilterRun, SpecialQpsAreFoundByPort) {
  // QP1's restrack id is 1 | port << 24: the doit asks for that.
  Result r = show({"qp", "lqpn", "1"});
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, true), 0);
  EXPECT_EQ(r.out,
            "link rxe0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core] \n"
            "link rxe1/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core] \n");
}

TEST_F(ResFilterRun, IwarpQpOneIsFoundByItsNumber) {
  // siw has no GSI QP and numbers its QPs from 1: its QP 1 is tracked under
  // 1, not 1 | port << 24 (seen with rping on siw, 6.1 and 6.12).
  testkernel::Device siw = testkernel::make_siw(KernelVersion::k6_12, "siw0", {9, "veth4", {}});
  siw.index = 2;
  for (uint32_t n : {1, 2}) {
    testkernel::Qp q;
    q.id = q.qp_num = n;
    q.port = 1;
    q.owner = {0, "rdma_cm"};
    siw.qps.items.push_back(q);
  }
  k.state.devices.push_back(siw);
  const char* qp1 =
      "link siw0/1 lqpn 1 rqpn 0 type RC state RESET rq-psn 0 sq-psn 0 path-mig-state MIGRATED "
      "comm [rdma_cm] \n";
  for (const char* link : {"siw0/1", "siw0"}) {
    Result r = show({"qp", "link", link, "lqpn", "1"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, qp1);
    EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, true), 0);
    EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, false), 2);  // 1 | 1 << 24, then 1
  }
  // The GSI QPs of rxe are still found by the first doit.
  Result r = show({"qp", "link", "rxe0/1", "lqpn", "1"});
  EXPECT_EQ(r.out, "link rxe0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core] \n");
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, false), 1);
}

TEST_F(ResFilterRun, MissingIdAsksNoDump) {
  Result r = show({"qp", "lqpn", "999"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, true), 0);
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, false), 2);
}

TEST_F(ResFilterRun, PortlessQpFallsBackToDump) {
  testkernel::Qp q;
  q.id = q.qp_num = 30;
  q.owner = {0, "rdma_cm"};
  q.type = testkernel::kQpUd;
  k.state.devices[0].qps.items.push_back(q);
  // The doit says "another port" (EAGAIN): a dump decides.
  Result r = show({"qp", "lqpn", "30"});
  EXPECT_EQ(r.out, "link rxe0/- lqpn 30 type UD state RESET sq-psn 0 comm [rdma_cm] \n");
  EXPECT_EQ(r.count(RDMA_NLDEV_CMD_RES_QP_GET, true), 1);
  EXPECT_EQ(show({"qp", "link", "rxe0/-"}).out, r.out);
  EXPECT_EQ(show({"-j", "qp", "link", "rxe0/-"}).out,
            R"([{"ifindex":0,"ifname":"rxe0","lqpn":30,"type":"UD","state":"RESET",)"
            R"("sq-psn":0,"comm":"rdma_cm"}])"
            "\n");
}

TEST_F(ResFilterRun, WithoutNetAdminKeysAreHidden) {
  k.opts.net_admin = false;
  Result r = show({"mr", "mrn", "4"});
  EXPECT_EQ(r.out, subst("dev rxe0 mrn 4 mrlen 64 pdn 5 pid %P comm %C \n"));
  r = show({"pd", "dev", "rxe1", "pdn", "0"});
  EXPECT_EQ(r.out, "dev rxe1 pdn 0 users 1 comm [ib_core] \n");
  // A key filter on hidden keys shows nothing, without an error.
  r = show({"mr", "rkey", "0-0xffffffff"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace rdma::restest
