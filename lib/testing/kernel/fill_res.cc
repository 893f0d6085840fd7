// Resource entries of RES_*_GET (fill_res_*_entry in nldev.c).
#include <cerrno>

#include "lib/testing/kernel/fill.h"

namespace rdma::testkernel {
namespace {

int fill_res_name_pid(Skb& skb, const Owner& o) {
  if (o.kernel()) return skb.put_string(RDMA_NLDEV_ATTR_RES_KERN_NAME, o.kern_name) ? 0 : kEmsg;
  // A zombie task has pid 0 and no PID attribute.
  if (o.pid && !skb.put_u32(RDMA_NLDEV_ATTR_RES_PID, o.pid)) return kEmsg;
  return 0;
}

bool connected(uint8_t t) {
  return t == kQpRc || t == kQpUc;
}

}  // namespace

int fill_driver(Skb& skb, const DriverAttrs& attrs) {
  if (!attrs) return 0;
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_DRIVER, true);
  if (table == Skb::kNoRoom) return kEmsg;
  for (const DriverAttr& a : *attrs) {
    bool ok = skb.put_string(RDMA_NLDEV_ATTR_DRIVER_STRING, a.name);
    if (ok && a.hex) ok = skb.put_u8(RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, RDMA_NLDEV_PRINT_TYPE_HEX);
    if (ok) {
      switch (a.kind) {
        case DriverAttr::Kind::kString:
          ok = skb.put_string(RDMA_NLDEV_ATTR_DRIVER_STRING, a.str);
          break;
        case DriverAttr::Kind::kU32:
          ok = skb.put_u32(RDMA_NLDEV_ATTR_DRIVER_U32, static_cast<uint32_t>(a.u));
          break;
        case DriverAttr::Kind::kU64:
          ok = skb.put_u64(RDMA_NLDEV_ATTR_DRIVER_U64, a.u, RDMA_NLDEV_ATTR_PAD);
          break;
        case DriverAttr::Kind::kS32:
          ok = skb.put_s32(RDMA_NLDEV_ATTR_DRIVER_S32, static_cast<int32_t>(a.s));
          break;
        case DriverAttr::Kind::kS64:
          ok = skb.put_u64(RDMA_NLDEV_ATTR_DRIVER_S64, static_cast<uint64_t>(a.s),
                           RDMA_NLDEV_ATTR_PAD);
          break;
      }
    }
    if (!ok) {
      skb.truncate(table);
      return kEmsg;
    }
  }
  skb.nest_end(table);
  return 0;
}

int fill_res_qp_entry(Skb& skb, bool, const Device&, const Qp& qp, uint32_t port) {
  if (port && port != qp.port) return -EAGAIN;
  if (qp.port && !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, qp.port)) return kEmsg;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_LQPN, qp.qp_num)) return kEmsg;
  if (!qp.owner.kernel() && !skb.put_u32(RDMA_NLDEV_ATTR_RES_PDN, qp.pdn)) return kEmsg;
  if (fill_res_name_pid(skb, qp.owner)) return kEmsg;
  if (connected(qp.type)) {
    if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_RQPN, qp.rqpn)) return kEmsg;
    if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_RQ_PSN, qp.rq_psn)) return kEmsg;
  }
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_SQ_PSN, qp.sq_psn)) return kEmsg;
  if ((connected(qp.type) || qp.type == kQpXrcIni || qp.type == kQpXrcTgt) &&
      !skb.put_u8(RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, qp.path_mig_state))
    return kEmsg;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_RES_TYPE, qp.type)) return kEmsg;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_RES_STATE, qp.state)) return kEmsg;
  return fill_driver(skb, qp.driver);
}

int fill_res_cm_id_entry(Skb& skb, bool, const Device&, const CmId& id, uint32_t port) {
  if (port && port != id.port) return -EAGAIN;
  if (id.port && !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, id.port)) return kEmsg;
  if (id.lqpn) {
    if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_LQPN, id.lqpn)) return kEmsg;
    if (!skb.put_u8(RDMA_NLDEV_ATTR_RES_TYPE, id.qp_type)) return kEmsg;
  }
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_PS, id.ps)) return kEmsg;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_RES_STATE, id.state)) return kEmsg;
  if (!id.src_addr.empty() &&
      !skb.put(RDMA_NLDEV_ATTR_RES_SRC_ADDR, id.src_addr.data(), id.src_addr.size()))
    return kEmsg;
  if (!id.dst_addr.empty() &&
      !skb.put(RDMA_NLDEV_ATTR_RES_DST_ADDR, id.dst_addr.data(), id.dst_addr.size()))
    return kEmsg;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_CM_IDN, id.id)) return kEmsg;
  if (fill_res_name_pid(skb, id.owner)) return kEmsg;
  return fill_driver(skb, id.driver);
}

int fill_res_cq_entry(Skb& skb, bool, const Device&, const Cq& cq, uint32_t) {
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_CQE, cq.cqe)) return kEmsg;
  if (!skb.put_u64(RDMA_NLDEV_ATTR_RES_USECNT, cq.usecnt, RDMA_NLDEV_ATTR_PAD)) return kEmsg;
  // Poll context is only valid for kernel CQs.
  if (cq.owner.kernel() && !skb.put_u8(RDMA_NLDEV_ATTR_RES_POLL_CTX, cq.poll_ctx)) return kEmsg;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_DEV_DIM, cq.dim)) return kEmsg;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_CQN, cq.id)) return kEmsg;
  if (!cq.owner.kernel() && !skb.put_u32(RDMA_NLDEV_ATTR_RES_CTXN, cq.ctxn)) return kEmsg;
  if (fill_res_name_pid(skb, cq.owner)) return kEmsg;
  return fill_driver(skb, cq.driver);
}

int fill_res_mr_entry(Skb& skb, bool net_admin, const Device&, const Mr& mr, uint32_t) {
  if (net_admin) {
    if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_RKEY, mr.rkey)) return kEmsg;
    if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_LKEY, mr.lkey)) return kEmsg;
  }
  if (!skb.put_u64(RDMA_NLDEV_ATTR_RES_MRLEN, mr.length, RDMA_NLDEV_ATTR_PAD)) return kEmsg;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_MRN, mr.id)) return kEmsg;
  if (!mr.owner.kernel() && !skb.put_u32(RDMA_NLDEV_ATTR_RES_PDN, mr.pdn)) return kEmsg;
  if (fill_res_name_pid(skb, mr.owner)) return kEmsg;
  return fill_driver(skb, mr.driver);
}

int fill_res_pd_entry(Skb& skb, bool net_admin, const Device&, const Pd& pd, uint32_t) {
  if (net_admin) {
    if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, pd.local_dma_lkey)) return kEmsg;
    if (pd.unsafe_global_rkey &&
        !skb.put_u32(RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY, *pd.unsafe_global_rkey))
      return kEmsg;
  }
  if (!skb.put_u64(RDMA_NLDEV_ATTR_RES_USECNT, pd.usecnt, RDMA_NLDEV_ATTR_PAD)) return kEmsg;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_PDN, pd.id)) return kEmsg;
  if (!pd.owner.kernel() && !skb.put_u32(RDMA_NLDEV_ATTR_RES_CTXN, pd.ctxn)) return kEmsg;
  return fill_res_name_pid(skb, pd.owner);
}

int fill_res_ctx_entry(Skb& skb, bool, const Device&, const Ctx& ctx, uint32_t) {
  // Kernel contexts leave an empty entry.
  if (ctx.owner.kernel()) return 0;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_CTXN, ctx.id)) return kEmsg;
  return fill_res_name_pid(skb, ctx.owner);
}

// One RES_QP_ENTRY of an SRQ's QP list: a single LQPN or a MIN/MAX range.
static int fill_res_range_qp_entry(Skb& skb, uint32_t min, uint32_t max) {
  if (!min) return 0;
  size_t entry = skb.nest_start(RDMA_NLDEV_ATTR_RES_QP_ENTRY, true);
  if (entry == Skb::kNoRoom) return kEmsg;
  bool ok = min == max ? skb.put_u32(RDMA_NLDEV_ATTR_RES_LQPN, min)
                       : skb.put_u32(RDMA_NLDEV_ATTR_MIN_RANGE, min) &&
                             skb.put_u32(RDMA_NLDEV_ATTR_MAX_RANGE, max);
  if (!ok) {
    skb.truncate(entry);
    return kEmsg;
  }
  skb.nest_end(entry);
  return 0;
}

static int fill_res_srq_qps(Skb& skb, const Device& dev, const Srq& srq) {
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_RES_QP, true);
  if (table == Skb::kNoRoom) return kEmsg;
  uint32_t min = 0, prev = 0;
  for (size_t i = 0; i < dev.qps.size(); ++i) {
    Qp qp = dev.qps.at(i);
    if (!qp.srqn || *qp.srqn != srq.id) continue;
    if (qp.qp_num < prev) {
      skb.truncate(table);
      return kEmsg;
    }
    if (min == 0) {
      min = qp.qp_num;
    } else if (qp.qp_num > prev + 1) {
      if (fill_res_range_qp_entry(skb, min, prev)) {
        skb.truncate(table);
        return kEmsg;
      }
      min = qp.qp_num;
    }
    prev = qp.qp_num;
  }
  if (fill_res_range_qp_entry(skb, min, prev)) {
    skb.truncate(table);
    return kEmsg;
  }
  skb.nest_end(table);
  return 0;
}

int fill_res_srq_entry(Skb& skb, bool, const Device& dev, const Srq& srq, uint32_t) {
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_SRQN, srq.id)) return kEmsg;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_RES_TYPE, srq.type)) return kEmsg;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_PDN, srq.pdn)) return kEmsg;
  // ib_srq_has_cq(): XRC and TM SRQs.
  if ((srq.type == 1 || srq.type == 2) && !skb.put_u32(RDMA_NLDEV_ATTR_RES_CQN, srq.cqn))
    return kEmsg;
  if (fill_res_srq_qps(skb, dev, srq)) return kEmsg;
  if (fill_res_name_pid(skb, srq.owner)) return kEmsg;
  return fill_driver(skb, srq.driver);
}

int fill_res_raw_entry(Skb& skb, bool has_op, const ResBase& res) {
  if (!has_op) return -EINVAL;
  return skb.put(RDMA_NLDEV_ATTR_RES_RAW, res.raw.data(), res.raw.size()) ? 0 : kEmsg;
}

}  // namespace rdma::testkernel
