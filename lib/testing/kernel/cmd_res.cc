// Resources: RDMA_NLDEV_CMD_RES_GET (summary) and RES_{QP,CM_ID,CQ,MR,PD,CTX,
// SRQ}_GET with their _RAW variants.
#include <cerrno>
#include <type_traits>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/res_common.h"

namespace rdma::testkernel {
namespace {

template <typename T>
ResSpec<T> spec(ResTable<T> Device::*table, uint16_t table_attr, uint16_t entry_attr,
                uint16_t id_attr, bool per_dev,
                int (*fill)(Skb&, bool, const Device&, const T&, uint32_t)) {
  return {table, table_attr, entry_attr, id_attr, per_dev, fill};
}

template <typename T>
ResSpec<T> raw(ResSpec<T> s, bool Device::*has_op, bool port_filter) {
  s.fill = [has_op, port_filter](Skb& skb, bool, const Device& d, const T& r, uint32_t port) {
    if constexpr (std::is_same_v<T, Qp>) {
      if (port_filter && port && port != r.port) return -EAGAIN;
    }
    return fill_res_raw_entry(skb, d.*has_op, r);
  };
  return s;
}

ResSpec<Qp> qp_spec() {
  return spec(&Device::qps, RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_RES_QP_ENTRY,
              RDMA_NLDEV_ATTR_RES_LQPN, false, &fill_res_qp_entry);
}
ResSpec<Cq> cq_spec() {
  return spec(&Device::cqs, RDMA_NLDEV_ATTR_RES_CQ, RDMA_NLDEV_ATTR_RES_CQ_ENTRY,
              RDMA_NLDEV_ATTR_RES_CQN, true, &fill_res_cq_entry);
}
ResSpec<Mr> mr_spec() {
  return spec(&Device::mrs, RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY,
              RDMA_NLDEV_ATTR_RES_MRN, true, &fill_res_mr_entry);
}
ResSpec<Srq> srq_spec(bool v612) {
  auto s = spec(&Device::srqs, RDMA_NLDEV_ATTR_RES_SRQ, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY,
                RDMA_NLDEV_ATTR_RES_SRQN, true, &fill_res_srq_entry);
  // 6.1 calls no driver hook for SRQs.
  if (!v612)
    s.fill = [](Skb& skb, bool admin, const Device& d, const Srq& r, uint32_t port) {
      Srq plain = r;
      plain.driver.reset();
      return fill_res_srq_entry(skb, admin, d, plain, port);
    };
  return s;
}

}  // namespace

int TestKernel::res_get_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, false, &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
  const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  bool details = tb.has(nldev::kAttrDriverDetails) && tb.u8(nldev::kAttrDriverDetails);
  Skb skb = reply_skb();
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_RES_GET)) return -EMSGSIZE;
  if ((err = fill_res_info(skb, *dev, details, vnext()))) return err;
  unicast(skb);
  return 0;
}

// ib_enum_all_devs() with _nldev_res_get_dumpit(): one device per skb.
TestKernel::DumpFn TestKernel::res_get_dump() {
  return per_device_dump(RDMA_NLDEV_CMD_RES_GET, [this](Skb& skb, const Device& d) {
    return fill_res_info(skb, d, false, vnext());
  });
}

template <typename Fn>
static int with_spec(int cmd, bool v612, Fn&& fn) {
  switch (cmd) {
    case RDMA_NLDEV_CMD_RES_QP_GET:
      return fn(qp_spec());
    case RDMA_NLDEV_CMD_RES_QP_GET_RAW:
      return fn(raw(qp_spec(), &Device::raw_qp, true));
    case RDMA_NLDEV_CMD_RES_CM_ID_GET:
      return fn(spec(&Device::cm_ids, RDMA_NLDEV_ATTR_RES_CM_ID, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY,
                     RDMA_NLDEV_ATTR_RES_CM_IDN, false, &fill_res_cm_id_entry));
    case RDMA_NLDEV_CMD_RES_CQ_GET:
      return fn(cq_spec());
    case RDMA_NLDEV_CMD_RES_CQ_GET_RAW:
      return fn(raw(cq_spec(), &Device::raw_cq, false));
    case RDMA_NLDEV_CMD_RES_MR_GET:
      return fn(mr_spec());
    case RDMA_NLDEV_CMD_RES_MR_GET_RAW:
      return fn(raw(mr_spec(), &Device::raw_mr, false));
    case RDMA_NLDEV_CMD_RES_PD_GET:
      return fn(spec(&Device::pds, RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY,
                     RDMA_NLDEV_ATTR_RES_PDN, true, &fill_res_pd_entry));
    case RDMA_NLDEV_CMD_RES_CTX_GET:
      return fn(spec(&Device::ctxs, RDMA_NLDEV_ATTR_RES_CTX, RDMA_NLDEV_ATTR_RES_CTX_ENTRY,
                     RDMA_NLDEV_ATTR_RES_CTXN, true, &fill_res_ctx_entry));
    case RDMA_NLDEV_CMD_RES_SRQ_GET:
      return fn(srq_spec(v612));
    case nldev::kCmdResSrqGetRaw:
      return fn(raw(srq_spec(v612), &Device::raw_srq, false));
    default:
      return -EINVAL;
  }
}

int TestKernel::res_entry_doit(const nlmsghdr* nlh, Extack* ext) {
  return with_spec(RDMA_NL_GET_OP(nlh->nlmsg_type), v612(),
                   [&](const auto& fe) { return ResCmd::doit(*this, nlh, ext, fe); });
}

TestKernel::DumpFn TestKernel::res_entry_dump() {
  // The request's command picks the resource; resolve it on the first call.
  return [this](Skb& skb, const nlmsghdr* req, long& args) {
    return with_spec(RDMA_NL_GET_OP(req->nlmsg_type), v612(),
                     [&](const auto& fe) { return ResCmd::dump(*this, fe)(skb, req, args); });
  };
}

}  // namespace rdma::testkernel
