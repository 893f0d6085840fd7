// The QPs of an SRQ: RES_QP holds RES_QP_ENTRY nests, each a single LQPN or a
// MIN_RANGE..MAX_RANGE run.
#pragma once

#include <libmnl/libmnl.h>

#include <string>

#include "lib/res/filter.h"
#include "lib/view/record.h"

namespace rdma::res {

struct QpList {
  std::string text;                       // "17-20,23"; empty when no QP is left
  view::Json json = view::Json::array();  // ["17-20","23"]
};

// The list, keeping only the QPs `lqpn` matches when given. No length limit
// (iproute2 cuts it at 256 characters). Throws Error for an entry that is
// neither a number nor a range.
QpList srq_qps(const nlattr* table, const Filter* lqpn);

}  // namespace rdma::res
