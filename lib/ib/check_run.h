// Runs the checks of lib/ib/check.h that are asked for, on one fabric,
// reading the switches' tables once for all of them: what `fabric check`
// and `fabric report` share.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/check.h"
#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// The checks by name, in the order they run and are listed.
std::span<const std::string_view> check_names();

// Whether a check runs when none is named: not those that judge the
// fabric's design (fattree, nodes), which find errors on fabrics built
// otherwise on purpose.
bool check_by_default(std::string_view name);

// Whether a check sends MADs (the SM's, the forwarding and SL2VL tables),
// so that a saved fabric alone cannot answer it.
bool check_needs_mads(std::string_view name);

struct CheckRun {
  std::vector<Finding> found;
  std::vector<std::string> warnings;  // tables and PMAs that could not be read
  std::optional<ErrorSweep> sweep;    // the errors check's sweep, when it ran
  // The checks asked that did not run, with why (no MADs to send).
  std::vector<std::pair<std::string, std::string>> skipped;
};

// Runs the checks named (check_names()' spelling) on f; e may be null when
// none of them needs MADs, or to skip those that do (each then in skipped).
// The errors check sweeps with sweep's options (its thresholds: the
// site's, as fabric errors reads them, are the caller's to load).
CheckRun run_checks(mad::Engine* e, const Fabric& f, const std::vector<std::string>& which,
                    const SweepOptions& sweep = {});

}  // namespace rdma::ib
