// The errors check: the ports an error sweep (lib/ib/errors.h) found over a
// threshold, as findings, so that `fabric check` judges what `fabric
// errors` lists.
#include "lib/ib/check.h"

namespace rdma::ib {

std::vector<Finding> check_errors(const Fabric& f, const ErrorSweep& sweep, const SweepOptions& o) {
  std::vector<Finding> out;
  for (const PortCounters& p : sweep.ports) {
    std::string over;
    for (const mad::FieldDef* c : counters_over(p, o))
      over += (over.empty() ? "" : ", ") + std::string(c->label) + " " + std::to_string(p.get(*c));
    if (over.empty()) continue;
    out.push_back({"errors",
                   Severity::Error,
                   "error counters over threshold",
                   {place(f, p.port.node, p.port.port)},
                   over});
  }
  return out;
}

}  // namespace rdma::ib
