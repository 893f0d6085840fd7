#include "lib/ib/check_run.h"

#include <algorithm>

#include "lib/ib/check_fattree.h"
#include "lib/ib/check_nodes.h"
#include "lib/ib/check_pkeys.h"
#include "lib/ib/lfts.h"
#include "lib/ib/mfts.h"

namespace rdma::ib {

std::span<const std::string_view> check_names() {
  static constexpr std::string_view kNames[] = {"ids",     "links",  "sm",      "routes", "credit",
                                                "balance", "errors", "fattree", "nodes",  "pkeys"};
  return kNames;
}

bool check_by_default(std::string_view name) {
  return name != "fattree" && name != "nodes";
}

bool check_needs_mads(std::string_view name) {
  return name != "ids" && name != "links" && name != "nodes";
}

CheckRun run_checks(mad::Engine* e, const Fabric& f, const std::vector<std::string>& which,
                    const SweepOptions& sweep) {
  CheckRun run;
  auto want = [&](std::string_view name) {
    if (std::find(which.begin(), which.end(), name) == which.end()) return false;
    if (!e && check_needs_mads(name)) {
      run.skipped.emplace_back(name, "needs the live fabric");
      return false;
    }
    return true;
  };
  auto take = [&](std::vector<Finding> v) {
    for (Finding& x : v) run.found.push_back(std::move(x));
  };
  if (want("ids")) take(check_ids(f));
  if (want("links")) take(check_links(f));
  if (want("nodes")) take(check_nodes(f));
  if (want("sm")) take(check_sm(*e, f));
  bool routes = want("routes"), credit = want("credit"), balance = want("balance"),
       fattree = want("fattree");
  if (routes || credit || balance || fattree) {
    Lfts lfts = read_lfts(*e, f, run.warnings);
    if (routes) {
      take(check_routes(f, lfts));
      // The multicast tables too: the groups' trees, the blocks of the
      // MLIDs the SA hands out (a switch without MulticastFDBTop is
      // otherwise read to its capacity), or every block when it cannot say.
      SaMlids in_use = sa_mlids(*e, f);
      take(check_mfts(f, read_mfts(*e, f, run.warnings, in_use.mlids ? &*in_use.mlids : nullptr)));
      if (!in_use.mlids)
        run.found.push_back({"routes",
                             Severity::Info,
                             "multicast tables read to their capacity: the SA's groups could "
                             "not be asked (" +
                                 in_use.why + ")",
                             {}});
    }
    if (credit) {
      VlMaps vls = read_sl2vls(*e, f, credit_hops(f, lfts));
      take(check_credit(f, lfts, &vls));
    }
    if (balance) take(check_balance(f, lfts));
    if (fattree) take(check_fattree(f, lfts));
  }
  if (want("pkeys")) take(check_pkeys(f, read_pkey_tables(*e, f, true, run.warnings)));
  if (want("errors")) {
    // As `fabric errors` sweeps: its counters and thresholds.
    run.sweep = sweep_errors(*e, f, sweep);
    run.warnings.insert(run.warnings.end(), run.sweep->warnings.begin(), run.sweep->warnings.end());
    take(check_errors(f, *run.sweep, sweep));
  }
  return run;
}

}  // namespace rdma::ib
