// rdma resource -dd (driver attributes), -r (raw data) and malformed kernel
// replies.
#include <gtest/gtest.h>

#include "rdma/res_test_util.h"

namespace rdma::restest {
namespace {

using testkernel::DriverAttr;

class ResDetails : public ::testing::Test {
 protected:
  void SetUp() override {
    testkernel::Qp& q = k.state.devices[0].qps.items[0];  // lqpn 17 on rxe0
    q.driver = std::vector<DriverAttr>{
        {"sq_wqe_cnt", DriverAttr::Kind::kU32, false, "", 5, 0},
        {"big", DriverAttr::Kind::kU64, false, "", 0x123456789abcdef0, 0},
        {"neg", DriverAttr::Kind::kS64, false, "", 0, -5000000000},
        {"flags", DriverAttr::Kind::kU32, true, "", 0x1f, 0},
        {"bigx", DriverAttr::Kind::kU64, true, "", 0xfedcba9876543210, 0},
        {"name", DriverAttr::Kind::kString, false, "abc", 0, 0},
        {"s", DriverAttr::Kind::kS32, false, "", 0, -7},
    };
  }
  TestKernel k{testkernel::Options{}, fixture()};
};

TEST_F(ResDetails, DriverAttributesNeedDd) {
  Result plain = run(k, {"-d", "res", "show", "qp", "lqpn", "17", "link", "rxe0/1"});
  EXPECT_EQ(plain.out.find("drv_"), std::string::npos);
  Result dd = run(k, {"-dd", "res", "show", "qp", "lqpn", "17", "link", "rxe0/1"});
  EXPECT_EQ(dd.out, subst("link rxe0/1 lqpn 17 rqpn 18 type RC state RTS rq-psn 0 sq-psn 0 "
                          "path-mig-state MIGRATED pdn 1 pid %P comm %C drv_sq_wqe_cnt 5 "
                          "drv_big 1311768467463790320 drv_neg -5000000000 drv_flags 0x1f "
                          "drv_bigx 0xfedcba9876543210 drv_name abc drv_s -7 \n"));
}

TEST_F(ResDetails, DriverAttributesIn64BitJson) {
  Result r = run(k, {"-dd", "-j", "res", "show", "qp", "lqpn", "17", "link", "rxe0/1"});
  EXPECT_NE(r.out.find(R"("comm":")"), std::string::npos);
  EXPECT_NE(r.out.find(R"("drv_sq_wqe_cnt":5,"drv_big":1311768467463790320,)"
                       R"("drv_neg":-5000000000,"drv_flags":31,"drv_bigx":18364758544493064720,)"
                       R"("drv_name":"abc","drv_s":-7}])"),
            std::string::npos)
      << r.out;
}

TEST_F(ResDetails, PrettyTextIndentsDriverAttributes) {
  Result r = run(k, {"-dd", "-p", "res", "show", "qp", "lqpn", "17", "link", "rxe0/1"});
  EXPECT_NE(r.out.find(subst("comm %C \n    drv_sq_wqe_cnt 5 drv_big")), std::string::npos)
      << r.out;
}

TEST_F(ResDetails, DriverDetailObjectsShowWithDd) {
  testkernel::Cq cq;
  cq.id = 9;
  cq.owner = {0, "mlx5_ib"};
  cq.driver_detail = true;
  k.state.devices[0].cqs.items.push_back(cq);
  EXPECT_EQ(run(k, {"res", "show", "cq", "dev", "rxe0"}).out.find("cqn 9"), std::string::npos);
  Result r = run(k, {"-dd", "res", "show", "cq", "dev", "rxe0"});
  EXPECT_NE(r.out.find("dev rxe0 cqn 9 cqe 0 users 0 poll-ctx DIRECT adaptive-moderation off "
                       "comm [mlx5_ib] \n"),
            std::string::npos)
      << r.out;
}

TEST_F(ResDetails, RawDataAsHexAndBytes) {
  for (auto& d : k.state.devices) d.raw_qp = true;
  k.state.devices[0].qps.items[0].raw = {0, 4, 255, 254, 1};
  Result r = run(k, {"-r", "res", "show", "qp", "lqpn", "17", "link", "rxe0/1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "dev rxe0 data 0004fffe 01 \n");
  r = run(k, {"-r", "-j", "res", "show", "qp", "lqpn", "17", "dev", "rxe0"});
  EXPECT_EQ(r.out, R"([{"ifindex":0,"ifname":"rxe0","data":[0,4,255,254,1]}])"
                   "\n");
  // A dump of raw entries: one line each.
  r = run(k, {"-r", "res", "show", "qp", "dev", "rxe1"});
  std::string five;
  for (int i = 0; i < 5; ++i) five += "dev rxe1 data \n";
  EXPECT_EQ(r.out, five);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);
}

TEST_F(ResDetails, RawWithoutSupportIsTheKernelsError) {
  Result r = run(k, {"-r", "-j", "res", "show", "qp"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "[]\n");  // still one JSON document
  EXPECT_NE(r.err.find("Invalid argument"), std::string::npos);
}

TEST_F(ResDetails, RawWithoutNetAdminShowsWhatTheKernelGives) {
  for (auto& d : k.state.devices) d.raw_qp = true;
  k.opts.net_admin = false;
  Result r = run(k, {"-r", "res", "show", "qp", "dev", "rxe1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);
  EXPECT_NE(r.out.find("link rxe1/1 lqpn 1 type GSI"), std::string::npos);
}

TEST_F(ResDetails, RawIgnoredForTypesWithoutIt) {
  EXPECT_EQ(run(k, {"-r", "res", "show", "pd"}).out, run(k, {"res", "show", "pd"}).out);
}

// Replies to RES_QP_GET built by hand.
using Fill = std::function<void(nlmsghdr*)>;

Link::Fake qp_reply(Fill entries) {
  return [entries](const nlmsghdr* req) {
    std::vector<std::vector<uint8_t>> out;
    std::vector<uint8_t> msg = message(req, req->nlmsg_type, NLM_F_MULTI, [&](nlmsghdr* nlh) {
      mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
      mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
      entries(nlh);
    });
    msg.resize(msg.size());
    out.push_back(msg);
    out.push_back(done(req));
    return out;
  };
}

void table(nlmsghdr* nlh, const Fill& entry) {
  nlattr* t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
  nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
  entry(nlh);
  mnl_attr_nest_end(nlh, e);
  mnl_attr_nest_end(nlh, t);
}

TEST_F(ResDetails, WellFormedFakeReplyShows) {
  Result r = run(k, {"res", "show", "qp", "dev", "rxe0"}, RDMA_NLDEV_CMD_RES_QP_GET,
                 qp_reply([](nlmsghdr* nlh) {
                   table(nlh, [](nlmsghdr* n) {
                     mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_RES_LQPN, 7);
                     mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_RES_KERN_NAME, "x");
                   });
                 }));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "link rxe0/- lqpn 7 comm [x] \n");
}

TEST_F(ResDetails, MalformedRepliesAreErrors) {
  const Fill bad[] = {
      // An attribute of the wrong size inside an entry.
      [](nlmsghdr* nlh) {
        table(nlh, [](nlmsghdr* n) { mnl_attr_put_u16(n, RDMA_NLDEV_ATTR_RES_LQPN, 7); });
      },
      // No table at all.
      [](nlmsghdr*) {},
      // Something other than an entry in the table.
      [](nlmsghdr* nlh) {
        nlattr* t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
        mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
        mnl_attr_nest_end(nlh, t);
      },
      // An entry whose last attribute runs past the entry's end.
      [](nlmsghdr* nlh) {
        nlattr* t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
        nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
        mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
        mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PDN, 1);
        mnl_attr_nest_end(nlh, e);
        e->nla_len -= 4;
        mnl_attr_nest_end(nlh, t);
      },
      // A driver value of the wrong size.
      [](nlmsghdr* nlh) {
        table(nlh, [](nlmsghdr* n) {
          nlattr* d = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_DRIVER);
          mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_DRIVER_STRING, "k");
          mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DRIVER_U64, 1);  // 4 bytes, not 8
          mnl_attr_nest_end(n, d);
        });
      },
  };
  for (const Fill& f : bad) {
    Result r = run(k, {"-dd", "-j", "res", "show", "qp", "dev", "rxe0"}, RDMA_NLDEV_CMD_RES_QP_GET,
                   qp_reply(f));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "[]\n");
    EXPECT_EQ(r.err.rfind("malformed kernel reply", 0), 0u) << r.err;
  }
}

TEST_F(ResDetails, MalformedSummary) {
  Result r = run(k, {"res"}, RDMA_NLDEV_CMD_RES_GET, [](const nlmsghdr* req) {
    std::vector<std::vector<uint8_t>> out;
    out.push_back(message(req, req->nlmsg_type, NLM_F_MULTI, [](nlmsghdr* nlh) {
      mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
      mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
      nlattr* t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY);
      nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
      mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "qp");  // no CURR
      mnl_attr_nest_end(nlh, e);
      mnl_attr_nest_end(nlh, t);
    }));
    out.push_back(done(req));
    return out;
  });
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "malformed kernel reply: resource summary entry without name or count\n");
}

TEST_F(ResDetails, MalformedCmIdAddress) {
  Result r = run(k, {"res", "show", "cm_id", "dev", "rxe0"}, RDMA_NLDEV_CMD_RES_CM_ID_GET,
                 [](const nlmsghdr* req) {
                   std::vector<std::vector<uint8_t>> out;
                   out.push_back(message(req, req->nlmsg_type, NLM_F_MULTI, [](nlmsghdr* nlh) {
                     mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
                     mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
                     nlattr* t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID);
                     nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
                     uint8_t addr[6] = {10, 0, 1, 2, 3, 4};  // AF_INET6, 6 bytes
                     mnl_attr_put(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, sizeof addr, addr);
                     mnl_attr_nest_end(nlh, e);
                     mnl_attr_nest_end(nlh, t);
                   }));
                   out.push_back(done(req));
                   return out;
                 });
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("too short for AF_INET6"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma::restest
