#include "lib/res/types.h"

#include "lib/nl/nldev.h"

namespace rdma::res {

namespace {

// Columns in iproute2's print order.
constexpr Column kQpCols[] = {
    {"link", Col::kLink},
    {"lqpn", Col::kNum, RDMA_NLDEV_ATTR_RES_LQPN},
    {"rqpn", Col::kNum, RDMA_NLDEV_ATTR_RES_RQPN},
    {"type", Col::kName, RDMA_NLDEV_ATTR_RES_TYPE, &kQpTypes},
    {"state", Col::kName, RDMA_NLDEV_ATTR_RES_STATE, &kQpStates},
    {"rq-psn", Col::kNum, RDMA_NLDEV_ATTR_RES_RQ_PSN},
    {"sq-psn", Col::kNum, RDMA_NLDEV_ATTR_RES_SQ_PSN},
    {"path-mig-state", Col::kName, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, &kPathMigStates},
    {"pdn", Col::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

constexpr Column kCmIdCols[] = {
    {"link", Col::kLink},
    {"cm-idn", Col::kNum, RDMA_NLDEV_ATTR_RES_CM_IDN},
    {"lqpn", Col::kNum, RDMA_NLDEV_ATTR_RES_LQPN},
    {"qp-type", Col::kName, RDMA_NLDEV_ATTR_RES_TYPE, &kQpTypes},
    {"state", Col::kName, RDMA_NLDEV_ATTR_RES_STATE, &kCmIdStates},
    {"ps", Col::kPortSpace, RDMA_NLDEV_ATTR_RES_PS},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"src-addr", Col::kAddr, RDMA_NLDEV_ATTR_RES_SRC_ADDR},
    {"dst-addr", Col::kAddr, RDMA_NLDEV_ATTR_RES_DST_ADDR},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

constexpr Column kCqCols[] = {
    {"dev", Col::kDev},
    {"cqn", Col::kNum, RDMA_NLDEV_ATTR_RES_CQN},
    {"cqe", Col::kNum, RDMA_NLDEV_ATTR_RES_CQE},
    {"users", Col::kNum, RDMA_NLDEV_ATTR_RES_USECNT},
    {"poll-ctx", Col::kName, RDMA_NLDEV_ATTR_RES_POLL_CTX, &kPollCtx},
    {"adaptive-moderation", Col::kOnOff, RDMA_NLDEV_ATTR_DEV_DIM},
    {"ctxn", Col::kNum, RDMA_NLDEV_ATTR_RES_CTXN},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

constexpr Column kMrCols[] = {
    {"dev", Col::kDev},
    {"mrn", Col::kNum, RDMA_NLDEV_ATTR_RES_MRN},
    {"rkey", Col::kKey, RDMA_NLDEV_ATTR_RES_RKEY},
    {"lkey", Col::kKey, RDMA_NLDEV_ATTR_RES_LKEY},
    {"iova", Col::kKey, RDMA_NLDEV_ATTR_RES_IOVA},
    {"mrlen", Col::kNum, RDMA_NLDEV_ATTR_RES_MRLEN},
    {"pdn", Col::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

constexpr Column kPdCols[] = {
    {"dev", Col::kDev},
    {"pdn", Col::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"local_dma_lkey", Col::kKey, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY},
    {"users", Col::kNum, RDMA_NLDEV_ATTR_RES_USECNT},
    {"unsafe_global_rkey", Col::kKey, RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY},
    {"ctxn", Col::kNum, RDMA_NLDEV_ATTR_RES_CTXN},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

constexpr Column kCtxCols[] = {
    {"dev", Col::kDev},
    {"ctxn", Col::kNum, RDMA_NLDEV_ATTR_RES_CTXN},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

constexpr Column kSrqCols[] = {
    {"dev", Col::kDev},
    {"srqn", Col::kNum, RDMA_NLDEV_ATTR_RES_SRQN},
    {"type", Col::kName, RDMA_NLDEV_ATTR_RES_TYPE, &kSrqTypes},
    {"lqpn", Col::kQpList, RDMA_NLDEV_ATTR_RES_QP},
    {"pdn", Col::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"cqn", Col::kNum, RDMA_NLDEV_ATTR_RES_CQN},
    {"pid", Col::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"comm", Col::kComm},
    {"driver", Col::kDriver, RDMA_NLDEV_ATTR_DRIVER},
};

// Filter keys in iproute2's order (abbreviations pick the first match);
// "dev"/"link" are added where iproute2 lacks them, after its own keys.
constexpr FilterKey kQpKeys[] = {
    {"link", Src::kScope},
    {"lqpn", Src::kNum, RDMA_NLDEV_ATTR_RES_LQPN, nullptr, true},
    {"rqpn", Src::kNum, RDMA_NLDEV_ATTR_RES_RQPN},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"sq-psn", Src::kNum, RDMA_NLDEV_ATTR_RES_SQ_PSN},
    {"rq-psn", Src::kNum, RDMA_NLDEV_ATTR_RES_RQ_PSN},
    {"type", Src::kName, RDMA_NLDEV_ATTR_RES_TYPE, &kQpTypes},
    {"path-mig-state", Src::kName, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, &kPathMigStates},
    {"state", Src::kName, RDMA_NLDEV_ATTR_RES_STATE, &kQpStates},
    {"pdn", Src::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"dev", Src::kScope},
};

constexpr FilterKey kCmIdKeys[] = {
    {"link", Src::kScope},
    {"lqpn", Src::kNum, RDMA_NLDEV_ATTR_RES_LQPN},
    {"qp-type", Src::kName, RDMA_NLDEV_ATTR_RES_TYPE, &kQpTypes},
    {"state", Src::kName, RDMA_NLDEV_ATTR_RES_STATE, &kCmIdStates},
    {"ps", Src::kPortSpace, RDMA_NLDEV_ATTR_RES_PS},
    {"dev-type", Src::kDevType},
    {"transport-type", Src::kTransportType},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"src-addr", Src::kAddr, RDMA_NLDEV_ATTR_RES_SRC_ADDR},
    {"src-port", Src::kAddrPort, RDMA_NLDEV_ATTR_RES_SRC_ADDR},
    {"dst-addr", Src::kAddr, RDMA_NLDEV_ATTR_RES_DST_ADDR},
    {"dst-port", Src::kAddrPort, RDMA_NLDEV_ATTR_RES_DST_ADDR},
    {"cm-idn", Src::kNum, RDMA_NLDEV_ATTR_RES_CM_IDN, nullptr, true},
    {"dev", Src::kScope},
};

constexpr FilterKey kCqKeys[] = {
    {"dev", Src::kScope},
    {"users", Src::kNum, RDMA_NLDEV_ATTR_RES_USECNT},
    {"poll-ctx", Src::kName, RDMA_NLDEV_ATTR_RES_POLL_CTX, &kPollCtx},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"cqn", Src::kNum, RDMA_NLDEV_ATTR_RES_CQN, nullptr, true},
    {"ctxn", Src::kNum, RDMA_NLDEV_ATTR_RES_CTXN},
    {"link", Src::kScope},
};

constexpr FilterKey kMrKeys[] = {
    {"dev", Src::kScope},
    {"rkey", Src::kNum, RDMA_NLDEV_ATTR_RES_RKEY},
    {"lkey", Src::kNum, RDMA_NLDEV_ATTR_RES_LKEY},
    {"mrlen", Src::kNum, RDMA_NLDEV_ATTR_RES_MRLEN},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"mrn", Src::kNum, RDMA_NLDEV_ATTR_RES_MRN, nullptr, true},
    {"pdn", Src::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"link", Src::kScope},
};

constexpr FilterKey kPdKeys[] = {
    {"dev", Src::kScope},
    {"users", Src::kNum, RDMA_NLDEV_ATTR_RES_USECNT},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"ctxn", Src::kNum, RDMA_NLDEV_ATTR_RES_CTXN},
    {"pdn", Src::kNum, RDMA_NLDEV_ATTR_RES_PDN, nullptr, true},
    {"link", Src::kScope},
};

constexpr FilterKey kCtxKeys[] = {
    {"dev", Src::kScope},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"ctxn", Src::kNum, RDMA_NLDEV_ATTR_RES_CTXN, nullptr, true},
    {"link", Src::kScope},
};

constexpr FilterKey kSrqKeys[] = {
    {"dev", Src::kScope},
    {"pid", Src::kNum, RDMA_NLDEV_ATTR_RES_PID},
    {"srqn", Src::kNum, RDMA_NLDEV_ATTR_RES_SRQN, nullptr, true},
    {"type", Src::kName, RDMA_NLDEV_ATTR_RES_TYPE, &kSrqTypes},
    {"pdn", Src::kNum, RDMA_NLDEV_ATTR_RES_PDN},
    {"cqn", Src::kNum, RDMA_NLDEV_ATTR_RES_CQN},
    {"lqpn", Src::kQpList, RDMA_NLDEV_ATTR_RES_QP},
    {"link", Src::kScope},
};

constexpr TypeSpec kTypes[] = {
    {"qp", RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_CMD_RES_QP_GET_RAW, RDMA_NLDEV_ATTR_RES_QP,
     RDMA_NLDEV_ATTR_RES_QP_ENTRY, RDMA_NLDEV_ATTR_RES_LQPN, true, kQpCols, kQpKeys},
    {"cm_id", RDMA_NLDEV_CMD_RES_CM_ID_GET, 0, RDMA_NLDEV_ATTR_RES_CM_ID,
     RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, RDMA_NLDEV_ATTR_RES_CM_IDN, true, kCmIdCols, kCmIdKeys},
    {"cq", RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_NLDEV_CMD_RES_CQ_GET_RAW, RDMA_NLDEV_ATTR_RES_CQ,
     RDMA_NLDEV_ATTR_RES_CQ_ENTRY, RDMA_NLDEV_ATTR_RES_CQN, false, kCqCols, kCqKeys},
    {"mr", RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_CMD_RES_MR_GET_RAW, RDMA_NLDEV_ATTR_RES_MR,
     RDMA_NLDEV_ATTR_RES_MR_ENTRY, RDMA_NLDEV_ATTR_RES_MRN, false, kMrCols, kMrKeys},
    {"pd", RDMA_NLDEV_CMD_RES_PD_GET, 0, RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY,
     RDMA_NLDEV_ATTR_RES_PDN, false, kPdCols, kPdKeys},
    {"ctx", RDMA_NLDEV_CMD_RES_CTX_GET, 0, RDMA_NLDEV_ATTR_RES_CTX, RDMA_NLDEV_ATTR_RES_CTX_ENTRY,
     RDMA_NLDEV_ATTR_RES_CTXN, false, kCtxCols, kCtxKeys},
    {"srq", RDMA_NLDEV_CMD_RES_SRQ_GET, nldev::kCmdResSrqGetRaw, RDMA_NLDEV_ATTR_RES_SRQ,
     RDMA_NLDEV_ATTR_RES_SRQ_ENTRY, RDMA_NLDEV_ATTR_RES_SRQN, false, kSrqCols, kSrqKeys},
};

}  // namespace

std::span<const TypeSpec> types() {
  return kTypes;
}

}  // namespace rdma::res
