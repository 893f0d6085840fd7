// The fabric checks of `rdma fabric check`: each looks at the discovered
// fabric (and the switches' forwarding tables, read once) and gives
// findings: duplicate ids (ibidsverify), broken or looping routes and
// credit loops (ibdmchk), sick links, unbalanced tables (check_lft_balance)
// and the subnet managers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/ib/mfts.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

enum class Severity : uint8_t { Error, Warning, Info };

// "error", "warning", "info".
const char* severity_name(Severity s);

// A port a finding names: the node, and the port, LID and port GUID when
// they matter (0: not given).
struct FindingPlace {
  uint32_t node = 0;
  uint8_t port = 0;
  uint16_t lid = 0;
  uint64_t port_guid = 0;
};

struct Finding {
  std::string check;  // "ids", "links", "sm", "routes", "credit", "balance", "errors"
  Severity severity = Severity::Error;
  std::string what;  // the kind of finding: findings with one text are grouped
  std::vector<FindingPlace> where;
  std::string detail = {};  // what differs between findings of one kind ("symbol_errors 17")
};

// A place for port p of node n, with the port's LID and GUID (a switch's
// port 0 for both on its external ports).
FindingPlace place(const Fabric& f, uint32_t n, uint8_t p);

// Every switch's linear forwarding table, by node index (nullopt for
// nodes that are not switches or whose table could not be read).
using Lfts = std::vector<std::optional<Lft>>;

// ids: LIDs answered by two ports (LMC ranges counted), a port GUID on two
// ports, a node GUID that is also another node's port GUID, GUID 0, and
// a system image GUID shared by nodes of different types.
std::vector<Finding> check_ids(const Fabric& f);

// links: ports with a peer whose state is not Active, links running below
// what both ends support, links whose ends disagree on the MTU or on the
// operational VLs (PortInfo OperationalVLs; a port running more VLs than
// its VLCap is an error).
std::vector<Finding> check_links(const Fabric& f);

// How many of each kind of route problem are listed one by one; the rest
// are counted in a last finding of their kind.
inline constexpr size_t kFirstFew = 5;

// Appends the first few findings of one kind to out, then one counting the
// rest: "2 more TEXT (7 in all)", of the same check and severity.
inline void add_first_few(std::vector<Finding>& out, std::vector<Finding> kind, const char* text) {
  if (kind.empty()) return;
  // Before kind[0] is moved: the count's check and severity are its.
  std::string check = kind[0].check;
  Severity severity = kind[0].severity;
  for (size_t i = 0; i < kind.size() && i < kFirstFew; ++i) out.push_back(std::move(kind[i]));
  if (kind.size() > kFirstFew)
    out.push_back({std::move(check),
                   severity,
                   std::to_string(kind.size() - kFirstFew) + " more " + text + " (" +
                       std::to_string(kind.size()) + " in all)",
                   {}});
}

// routes: every CA and router LID followed from every switch through the
// tables: an entry missing, to a port that is down or absent, to a node
// that is not the LID's (a CA in the middle), a loop; entries for LIDs
// nobody owns. A switch whose table is missing is a finding too.
std::vector<Finding> check_routes(const Fabric& f, const Lfts& lfts);

// routes, multicast (ibdmchk's group check): for each MLID the switches'
// multicast tables forward, a bit to a port the switch has not, to a port
// without a link or not Active; the tree the entries make over the switch
// links (a link whose ends both set it): a loop (entries that send a
// packet round to where it has been, whichever port it came in by), an
// entry the next switch does not send back (a warning), a switch outside
// the tree of the group's first switch with members (an error when CAs
// hang on it); and a note naming the MLIDs in use.
std::vector<Finding> check_mfts(const Fabric& f, const Mfts& mfts);

struct VlMaps;  // lib/ib/lfts.h

// credit: the channel dependency graph of the unicast routes, a channel
// being a switch port and a VL (from vls, the switches' SL2VL tables, for
// each SL they tell apart; every channel on VL 0 without them), and the
// cycles in it, each with its channels.
std::vector<Finding> check_credit(const Fabric& f, const Lfts& lfts, const VlMaps* vls = nullptr);

// The hops of the unicast routes that check_credit walks into another
// switch, by switch: (input port << 8 | output port), sorted. The SL2VL
// tables the credit check needs are these (read_sl2vls); no other hop
// makes a dependency.
std::vector<std::vector<uint16_t>> credit_hops(const Fabric& f, const Lfts& lfts);

// balance: for each switch's parallel links to another switch, and for its
// up ports (toward switches further from the end nodes) when it has two or
// more, how many end-node LIDs its table sends out of each; a spread above
// one is a warning.
std::vector<Finding> check_balance(const Fabric& f, const Lfts& lfts);

// sm: SMInfo from every port whose CapabilityMask says IsSM, by directed
// route: exactly one master must answer; each SM's priority and state;
// ports whose MasterSMLID is not the master's LID.
std::vector<Finding> check_sm(mad::Engine& e, const Fabric& f);

// errors: each port of sweep (swept with o) with a counter over its
// threshold, an error; its detail the counters and their values.
std::vector<Finding> check_errors(const Fabric& f, const ErrorSweep& sweep, const SweepOptions& o);

// links, against a saved fabric: each link whose ends were both Active in
// before and that now is down (no longer joined) or not Active, an error
// at the ends now has (named in the text when a node is gone).
std::vector<Finding> check_since(const Fabric& before, const Fabric& now);

// What kind of finding a finding is: its check, severity and text (the
// particulars are its detail). Findings of one kind are one line of text
// with a count.
std::string finding_kind(const Finding& f);

// The findings by kind, each kind's indices in found's order, the kinds in
// the order of their first finding.
std::vector<std::vector<size_t>> group_findings(const std::vector<Finding>& found);

// Whether a finding of severity s is shown at the level asked for
// (`severity error|warning|info`: that severity and the graver ones).
inline bool at_least(Severity s, Severity level) {
  return static_cast<int>(s) <= static_cast<int>(level);
}

}  // namespace rdma::ib
