// `rdma fabric plan`: the fabric as designed (a cable plan) against the
// fabric as built. A plan names nodes as people do (the NodeDescription,
// or the node-name-map's name) and ports by number, never by GUID, so a
// replaced HCA is the same node and a crossed pair of cables is one swap,
// not four unrelated changes (what `fabric diff`, by GUID, would say).
// A node with no name at all (an empty NodeDescription, none in the map)
// is named by its node GUID: there is nothing else a person could write.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "lib/ib/check.h"
#include "lib/ib/fabric_model.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

// One end of a cable: a node by name, a port by number.
struct PlanEnd {
  std::string node;
  unsigned port = 0;
  auto operator<=>(const PlanEnd&) const = default;
};

struct PlanLink {
  PlanEnd a, b;
  unsigned lanes = 0;                                // planned width; 0: any
  mad::Generation speed = mad::Generation::Unknown;  // planned speed; Unknown: any
  std::string where;                                 // "FILE:LINE", for the plan's own errors
};

struct PlanNode {
  uint64_t guid = 0;   // 0: the plan does not say (a CSV)
  uint8_t type = 0;    // NodeType; 0: the plan does not say
  unsigned count = 1;  // how many of the plan's nodes have this name
  std::string twice;   // a port of the name cabled twice: where (CSV plans)
};

struct Plan {
  std::vector<PlanLink> links;
  std::map<std::string, PlanNode> nodes;  // every node the plan names
  std::map<PlanEnd, size_t> by_end;       // the cable at each port, by index
  // Adds a cable, its ends' nodes too; Error "WHERE: ..." when a port is
  // cabled to itself. A port cabled twice makes its name ambiguous.
  void add(PlanLink l);
};

// The finding kinds, as their records name them.
inline constexpr const char* kPlanMiswired = "miswired";
inline constexpr const char* kPlanSwapped = "swapped";
inline constexpr const char* kPlanMissing = "missing";
inline constexpr const char* kPlanUnplanned = "unplanned";
inline constexpr const char* kPlanSlow = "slow";
inline constexpr const char* kPlanNotActive = "not-active";
inline constexpr const char* kPlanAbsent = "absent";
inline constexpr const char* kPlanUnknown = "unknown";
inline constexpr const char* kPlanAmbiguous = "ambiguous";
inline constexpr const char* kPlanReplaced = "replaced";

struct PlanFinding {
  const char* kind = kPlanMiswired;
  Severity severity = Severity::Error;
  std::string what;           // the sentence, names and ports in it
  std::vector<PlanEnd> ends;  // the ports (port 0: the node) it is about
};

struct PlanResult {
  std::vector<PlanFinding> findings;
  size_t planned = 0, matched = 0;  // cables in the plan, found as planned
};

// The fabric (nodes named as the user sees them: node-name-map applied)
// against the plan. Nodes match by name; a name two nodes have, on either
// side, is ambiguous and its cables are not judged (said once). Then, for
// each planned cable: found (then its width, speed and state judged: below
// the plan's width or speed, and not Active, are errors; with no rate
// planned the rate is not judged: `fabric check links` compares it with
// what both ends support), two planned cables found crossed (one
// "swapped" finding), an end found cabled elsewhere (miswired), no cable at
// either end (missing). Cables not planned between planned nodes are
// unplanned (a warning), nodes not planned unknown (a warning, their cables
// not listed), planned nodes not found absent (an error), a node whose
// name matches but whose GUID is not the plan's replaced (a note).
PlanResult check_plan(const Plan& plan, const Fabric& f);

// The name a plan knows a node by: its description (node-name-map applied
// before), or "0x" and its node GUID when that is empty.
std::string plan_name(const Node& n);

// A fabric as its own plan: every link, its width and speed as they run.
Plan plan_of(const Fabric& f);

// The plan in a file: a saved fabric (`fabric save`, JSON Lines), a
// topology file (ibnetdiscover's or ibsim's format: node lines "Switch N
// \"ID\" # \"DESC\"", the name DESC, else ID; link lines "[P] \"ID\"[Q]",
// a rate word like "4xEDR" in the comment planning width and speed), or a
// cable-plan CSV (UFM NDT's columns). Throws Error "FILE:LINE: ..." for
// what it cannot read. names: the node-name-map, by GUID, for plans that
// carry GUIDs (a saved fabric, ibnetdiscover's file).
struct NodeNameMap;
Plan load_plan(const std::string& path, const NodeNameMap& names);

// The CSV: a header naming the columns, in any order and case, blanks,
// '#' and '_' ignored: StartDevice, StartPort, EndDevice, EndPort (all
// required), LinkType (rows of a type other than "Data" skipped), Width
// ("4X", "4x" or "4") and Speed ("EDR"). Ports "7" or "Port 7". Fields may
// be double-quoted ("" a quote inside).
Plan parse_plan_csv(const std::string& text, const std::string& file);
Plan parse_plan_topology(const std::string& text, const std::string& file,
                         const NodeNameMap& names);

// The plan as a CSV parse_plan_csv reads: NDT's five columns, then Width
// and Speed.
void write_plan_csv(const Plan& p, std::FILE* out);

}  // namespace rdma::ib
