#include "rdma/ib/watch_sweep.h"

namespace rdma {

ib::ErrorSweep watch_sweep(mad::Engine& e, const ib::Fabric& f, const ib::SweepOptions& o,
                           const mad::Budget& budget) {
  e.set_budget(budget);
  return ib::sweep_errors(e, f, o);
}

}  // namespace rdma
