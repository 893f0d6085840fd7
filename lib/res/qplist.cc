#include "lib/res/qplist.h"

#include <algorithm>
#include <vector>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"

namespace rdma::res {

namespace {

void add(QpList& out, uint64_t lo, uint64_t hi) {
  std::string item = std::to_string(lo);
  if (hi != lo) item += "-" + std::to_string(hi);
  if (!out.text.empty()) out.text += ",";
  out.text += item;
  out.json.push_back(std::move(item));
}

// The filter's ranges sorted and merged, so each QP range yields its
// matching parts in order.
std::vector<Range> merged(const Filter& f) {
  std::vector<Range> r = f.ranges;
  std::sort(r.begin(), r.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
  std::vector<Range> out;
  for (const Range& x : r) {
    if (!out.empty() && (out.back().hi == UINT64_MAX || x.lo <= out.back().hi + 1))
      out.back().hi = std::max(out.back().hi, x.hi);
    else
      out.push_back(x);
  }
  return out;
}

}  // namespace

QpList srq_qps(const nlattr* table, const Filter* lqpn) {
  QpList out;
  std::vector<Range> keep;
  if (lqpn) keep = merged(*lqpn);
  nl::for_each_nested(table, [&](const nlattr* e) {
    if (mnl_attr_get_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY) return;
    nl::Attrs a = nl::Attrs::of_nest(e);
    uint64_t lo, hi;
    if (a.has(RDMA_NLDEV_ATTR_RES_LQPN)) {
      lo = hi = a.u32(RDMA_NLDEV_ATTR_RES_LQPN);
    } else if (a.has(RDMA_NLDEV_ATTR_MIN_RANGE) && a.has(RDMA_NLDEV_ATTR_MAX_RANGE)) {
      lo = a.u32(RDMA_NLDEV_ATTR_MIN_RANGE);
      hi = a.u32(RDMA_NLDEV_ATTR_MAX_RANGE);
      if (lo > hi) throw Error("malformed kernel reply: SRQ QP range ends below its start");
    } else {
      throw Error("malformed kernel reply: SRQ QP entry without LQPN or range");
    }
    if (!lqpn) return add(out, lo, hi);
    for (const Range& k : keep) {
      uint64_t a_lo = std::max(lo, k.lo), a_hi = std::min(hi, k.hi);
      if (a_lo <= a_hi) add(out, a_lo, a_hi);
    }
  });
  return out;
}

}  // namespace rdma::res
