// rdma resource views, run through the whole program against the test
// kernel loaded with the VM's resources fixture. Expected lines are the
// format iproute2 6.1 prints on the VM (tests/vm/corpus-res.txt), with the
// pid and comm of this process (%P, %C).
#include <gtest/gtest.h>

#include "rdma/res_test_util.h"

namespace rdma::restest {
namespace {

class ResView : public ::testing::TestWithParam<KernelVersion> {
 protected:
  TestKernel k{testkernel::Options{GetParam()}, fixture(GetParam())};
  std::string show(std::vector<std::string> args) {
    Result r = run(k, std::move(args));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
  }
};

TEST_P(ResView, Summary) {
  EXPECT_EQ(show({"res"}),
            "0: rxe0: pd 7 cq 5 qp 5 cm_id 3 mr 9 ctx 4 srq 0 \n"
            "1: rxe1: pd 2 cq 2 qp 5 cm_id 0 mr 1 ctx 1 srq 1 \n");
  EXPECT_EQ(
      show({"-j", "res"}),
      R"([{"ifindex":0,"ifname":"rxe0","pd":7,"cq":5,"qp":5,"cm_id":3,"mr":9,"ctx":4,"srq":0},)"
      R"({"ifindex":1,"ifname":"rxe1","pd":2,"cq":2,"qp":5,"cm_id":0,"mr":1,"ctx":1,"srq":1}])"
      "\n");
  EXPECT_EQ(show({"res", "show", "rxe1"}), "1: rxe1: pd 2 cq 2 qp 5 cm_id 0 mr 1 ctx 1 srq 1 \n");
  EXPECT_EQ(show({"resource", "list"}), show({"res"}));
}

TEST_P(ResView, Qp) {
  std::string out = show({"res", "show", "qp"});
  EXPECT_EQ(out.substr(0, out.find('\n') + 1),
            subst("link rxe0/1 lqpn 17 rqpn 18 type RC state RTS rq-psn 0 sq-psn 0 "
                  "path-mig-state MIGRATED pdn 1 pid %P comm %C \n"));
  EXPECT_NE(out.find("link rxe0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core] \n"),
            std::string::npos);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 10);
  std::string json = show({"-j", "res", "show", "qp", "link", "rxe1/1", "lqpn", "1,17"});
  EXPECT_EQ(json, subst(R"([{"ifindex":1,"ifname":"rxe1","port":1,"lqpn":17,"rqpn":0,"type":"RC",)"
                        R"("state":"INIT","rq-psn":0,"sq-psn":0,"path-mig-state":"MIGRATED",)"
                        R"("pdn":1,"pid":%P,"comm":"%C"},{"ifindex":1,"ifname":"rxe1","port":1,)"
                        R"("lqpn":1,"type":"GSI","state":"RTS","sq-psn":0,"comm":"ib_core"}])"
                        "\n"));
}

TEST_P(ResView, CmId) {
  EXPECT_EQ(show({"res", "show", "cm_id"}),
            subst("link rxe0/1 cm-idn 0 state LISTEN ps TCP pid %P comm %C src-addr "
                  "192.0.2.1:7174 dst-addr 0.0.0.0:0 \n"
                  "link rxe0/1 cm-idn 1 lqpn 19 qp-type RC state CONNECT ps TCP pid %P comm %C "
                  "src-addr 192.0.2.1:41329 dst-addr 192.0.2.1:7174 \n"
                  "link rxe0/1 cm-idn 2 lqpn 20 qp-type RC state CONNECT ps TCP pid %P comm %C "
                  "src-addr 192.0.2.1:7174 dst-addr 192.0.2.1:41329 \n"));
  EXPECT_EQ(show({"-j", "res", "show", "cm_id", "cm-idn", "0"}),
            subst(R"([{"ifindex":0,"ifname":"rxe0","port":1,"cm-idn":0,"state":"LISTEN",)"
                  R"("ps":"TCP","pid":%P,"comm":"%C","src-addr":"192.0.2.1:7174",)"
                  R"("dst-addr":"0.0.0.0:0"}])"
                  "\n"));
}

TEST_P(ResView, Cq) {
  std::string out = show({"res", "show", "cq", "dev", "rxe1"});
  EXPECT_EQ(out, subst("dev rxe1 cqn 0 cqe 1023 users 2 poll-ctx WORKQUEUE adaptive-moderation "
                       "off comm [ib_core] \n"
                       "dev rxe1 cqn 1 cqe 511 users 8 adaptive-moderation off ctxn 0 pid %P "
                       "comm %C \n"));
  EXPECT_EQ(show({"-j", "res", "show", "cq", "dev", "rxe1", "cqn", "0"}),
            R"([{"ifindex":1,"ifname":"rxe1","cqn":0,"cqe":1023,"users":2,"poll-ctx":"WORKQUEUE",)"
            R"("adaptive-moderation":false,"comm":"ib_core"}])"
            "\n");
}

TEST_P(ResView, Mr) {
  EXPECT_EQ(show({"res", "show", "mr", "mrn", "4"}),
            subst("dev rxe0 mrn 4 rkey 0x6a3 lkey 0x6a3 mrlen 64 pdn 5 pid %P comm %C \n"));
  EXPECT_EQ(show({"-j", "res", "show", "mr", "dev", "rxe1"}),
            subst(R"([{"ifindex":1,"ifname":"rxe1","mrn":0,"rkey":"0","lkey":"29e",)"
                  R"("mrlen":4096,"pdn":1,"pid":%P,"comm":"%C"}])"
                  "\n"));
}

TEST_P(ResView, Pd) {
  EXPECT_EQ(show({"res", "show", "pd", "dev", "rxe1"}),
            subst("dev rxe1 pdn 0 local_dma_lkey 0x1f5 users 1 comm [ib_core] \n"
                  "dev rxe1 pdn 1 local_dma_lkey 0x0 users 6 ctxn 0 pid %P comm %C \n"));
  EXPECT_EQ(show({"-j", "res", "show", "pd", "pdn", "0", "dev", "rxe0"}),
            R"([{"ifindex":0,"ifname":"rxe0","pdn":0,"local_dma_lkey":"14c","users":1,)"
            R"("comm":"ib_core"}])"
            "\n");
}

TEST_P(ResView, Ctx) {
  EXPECT_EQ(show({"res", "show", "ctx", "ctxn", "0"}),
            subst("dev rxe0 ctxn 0 pid %P comm %C \ndev rxe1 ctxn 0 pid %P comm %C \n"));
  EXPECT_EQ(show({"-j", "res", "show", "ctx", "dev", "rxe1"}),
            subst(R"([{"ifindex":1,"ifname":"rxe1","ctxn":0,"pid":%P,"comm":"%C"}])"
                  "\n"));
}

TEST_P(ResView, Srq) {
  // iproute2 6.1 prints the SRQ's QP list where comm belongs.
  EXPECT_EQ(show({"res", "show", "srq"}),
            subst("dev rxe1 srqn 0 type BASIC lqpn 17-20 pdn 1 pid %P comm %C \n"));
  EXPECT_EQ(show({"-j", "res", "show", "srq"}),
            subst(R"([{"ifindex":1,"ifname":"rxe1","srqn":0,"type":"BASIC","lqpn":["17-20"],)"
                  R"("pdn":1,"pid":%P,"comm":"%C"}])"
                  "\n"));
  EXPECT_EQ(show({"res", "show", "srq", "lqpn", "18,20-30"}),
            subst("dev rxe1 srqn 0 type BASIC lqpn 18,20 pdn 1 pid %P comm %C \n"));
  EXPECT_EQ(show({"res", "show", "srq", "lqpn", "21-30"}), "");
}

// iproute2's res_help, line for line (rdma/res.c since "rdma: Fix help
// information of 'rdma resource'": a CQ is per device, "cq dev [DEV]").
TEST_P(ResView, HelpIsIproute2s) {
  Result r = run(k, {"resource", "help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "Usage: rdma resource\n"
            "          resource show [DEV]\n"
            "          resource show [qp|cm_id|pd|mr|cq|ctx|srq|frmr_pools]\n"
            "          resource show qp link [DEV/PORT]\n"
            "          resource show qp link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show cm_id link [DEV/PORT]\n"
            "          resource show cm_id link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show cq dev [DEV]\n"
            "          resource show cq dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show pd dev [DEV]\n"
            "          resource show pd dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show mr dev [DEV]\n"
            "          resource show mr dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show ctx dev [DEV]\n"
            "          resource show ctx dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show srq dev [DEV]\n"
            "          resource show srq dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
            "          resource show frmr_pools dev [DEV]\n"
            "          resource show frmr_pools dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
            "          resource set frmr_pools dev DEV aging AGING_PERIOD\n"
            "          resource set frmr_pools dev DEV pinned POOL_KEY PINNED_VALUE\n");
  // What it advertises works: a CQ by device, with a filter.
  EXPECT_EQ(show({"res", "show", "cq", "dev", "rxe1", "cqn", "1"}),
            show({"res", "show", "cq", "dev", "rxe1"})
                .substr(show({"res", "show", "cq", "dev", "rxe1"}).find("dev rxe1 cqn 1 ")));
}

TEST_P(ResView, PrettyJson) {
  EXPECT_EQ(show({"-j", "-p", "res", "show", "ctx", "dev", "rxe1"}),
            subst("[ {\n"
                  "        \"ifindex\": 1,\n"
                  "        \"ifname\": \"rxe1\",\n"
                  "        \"ctxn\": 0,\n"
                  "        \"pid\": %P,\n"
                  "        \"comm\": \"%C\"\n"
                  "    } ]\n"));
  // Pre-rendered members (numbers, strings) next to a list value.
  EXPECT_EQ(show({"-j", "-p", "res", "show", "srq"}), subst("[ {\n"
                                                            "        \"ifindex\": 1,\n"
                                                            "        \"ifname\": \"rxe1\",\n"
                                                            "        \"srqn\": 0,\n"
                                                            "        \"type\": \"BASIC\",\n"
                                                            "        \"lqpn\": [ \"17-20\" ],\n"
                                                            "        \"pdn\": 1,\n"
                                                            "        \"pid\": %P,\n"
                                                            "        \"comm\": \"%C\"\n"
                                                            "    } ]\n"));
}

TEST_P(ResView, NamesAreEscapedInJson) {
  // Kernel names and comms are any bytes; the pre-rendered JSON members
  // escape them like every other string, in compact and -p output.
  k.state.devices[1].cqs.items[0].owner = {0, "a\"b\\c\td"};
  EXPECT_EQ(show({"res", "show", "cq", "dev", "rxe1", "cqn", "0"}),
            "dev rxe1 cqn 0 cqe 1023 users 2 poll-ctx WORKQUEUE adaptive-moderation off "
            "comm [a\"b\\c\td] \n");
  EXPECT_EQ(show({"-j", "res", "show", "cq", "dev", "rxe1", "cqn", "0"}),
            R"([{"ifindex":1,"ifname":"rxe1","cqn":0,"cqe":1023,"users":2,"poll-ctx":"WORKQUEUE",)"
            R"("adaptive-moderation":false,"comm":"a\"b\\c\td"}])"
            "\n");
  std::string pretty = show({"-j", "-p", "res", "show", "cq", "dev", "rxe1", "cqn", "0"});
  EXPECT_NE(pretty.find(R"(        "comm": "a\"b\\c\td")"), std::string::npos) << pretty;
}

TEST_P(ResView, GoneProcessHasNoComm) {
  k.state.devices[1].ctxs.items[0].owner.pid = 0x3ffffff0;  // no such pid
  EXPECT_EQ(show({"res", "show", "ctx", "dev", "rxe1"}), "dev rxe1 ctxn 0 pid 1073741808 \n");
}

TEST_P(ResView, NoDevices) {
  k.state.devices.clear();
  EXPECT_EQ(show({"res"}), "");
  EXPECT_EQ(show({"-j", "res", "show", "qp"}), "[]\n");
}

// A kernel with RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_MAX (rdma for-next, 2026;
// the Debian kernels in the VM do not send it, so the test kernel with the
// uapi layout shows it): "qp 5/1048560" and JSON "qp-max", iproute2's
// layout, for the kinds the kernel sends a limit of; the rest as before.
TEST(ResSummaryMax, CurrentAndLimitWhereTheKernelSendsIt) {
  auto limits = [](TestKernel& k) {
    k.state.devices[0].limits = {.qp = 1048560, .cq = 16384, .mr = 524287, .pd = 32764, .srq = 0};
  };
  TestKernel next{testkernel::Options{KernelVersion::kNext}, fixture(KernelVersion::kNext)};
  limits(next);
  auto show = [](TestKernel& k, std::vector<std::string> args) {
    Result r = run(k, std::move(args));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
  };
  EXPECT_EQ(show(next, {"res"}),
            "0: rxe0: pd 7/32764 cq 5/16384 qp 5/1048560 cm_id 3 mr 9/524287 ctx 4 srq 0 \n"
            "1: rxe1: pd 2 cq 2 qp 5 cm_id 0 mr 1 ctx 1 srq 1 \n");
  EXPECT_EQ(show(next, {"-j", "res", "show", "rxe0"}),
            R"([{"ifindex":0,"ifname":"rxe0","pd":7,"pd-max":32764,"cq":5,"cq-max":16384,)"
            R"("qp":5,"qp-max":1048560,"cm_id":3,"mr":9,"mr-max":524287,"ctx":4,"srq":0}])"
            "\n");
  // The doit path (-dd asks each device on its own) carries it too.
  EXPECT_EQ(show(next, {"-dd", "res", "show", "rxe0"}).substr(0, 30),
            "0: rxe0: pd 7/32764 cq 5/16384");
  // The same limits on 6.12: nothing sent, iproute2's view unchanged.
  TestKernel old{testkernel::Options{KernelVersion::k6_12}, fixture(KernelVersion::k6_12)};
  limits(old);
  EXPECT_EQ(show(old, {"res", "show", "rxe0"}),
            "0: rxe0: pd 7 cq 5 qp 5 cm_id 3 mr 9 ctx 4 srq 0 \n");
}

INSTANTIATE_TEST_SUITE_P(Kernels, ResView,
                         ::testing::Values(KernelVersion::k6_1, KernelVersion::k6_12));

}  // namespace
}  // namespace rdma::restest
