// One sweep of a watch's error counters (fabric top, fabric errors -w)
// with a time budget of its own (man rdma, TIME BOUND). A watch keeps one
// engine for hours: under one budget for its whole life, a port that
// stops answering would spend it within a few sweeps (each waits out the
// port's tries and earns little), and every later sweep would end at once
// with nothing sent. Armed as each sweep starts, the budget lets a silent
// port cost the sweeps that wait for it, while the ports that answer are
// read every time. The seam is the engine: its transport's clock is the
// budget's (rdma/ib/watch_sweep_test.cc runs hours of sweeps on a virtual one).
#pragma once

#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma {

// The sweep of f's counters that o asks for, on e, within budget counted
// from now (ib::sweep_budget(--deadline): none under --deadline, which
// bounds the whole watch instead).
ib::ErrorSweep watch_sweep(mad::Engine& e, const ib::Fabric& f, const ib::SweepOptions& o,
                           const mad::Budget& budget);

}  // namespace rdma
