// Every switch's linear forwarding table in one run (dump_fts), and its
// SL-to-VL tables: the MADs of all switches submitted together by directed
// route, so the engine's window keeps them in flight across switches.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// The tables by node index, LIDs 0 to each switch's LinearFDBTop (from its
// SwitchInfo as discovery found it): nullopt for CAs and routers, and for a
// switch whose table could not be read, which adds a warning naming it.
std::vector<std::optional<Lft>> read_lfts(mad::Engine& e, const Fabric& f,
                                          std::vector<std::string>& warnings);

// The switches' SLtoVLMappingTables, by node and (input port << 8 | output
// port): what VL a packet of each SL takes out of a port.
struct VlMaps {
  std::vector<std::unordered_map<uint16_t, std::array<uint8_t, 16>>> by_node;
  // How many tables of each node were asked for (a table that did not
  // come is missing from by_node, and counts as VL 0).
  std::vector<size_t> asked;
  // The VL; 0 for a table not read (a port without SL2VL is one VL).
  uint8_t vl(uint32_t node, uint8_t in, uint8_t out, uint8_t sl) const;
};

// The tables of every switch for each input port with a link and each
// output port to another switch (the hops a credit loop can run over), all
// in one run. A table that does not come is left out (VL 0).
VlMaps read_sl2vls(mad::Engine& e, const Fabric& f);
// Only the tables of these hops, by node ((input port << 8 | output
// port), as check.h's credit_hops gives the hops the routes take): on a
// fat tree a fraction of them (issue 40: the credit check of 4,768 nodes
// read 678,000 tables, most for hops no route takes).
VlMaps read_sl2vls(mad::Engine& e, const Fabric& f, const std::vector<std::vector<uint16_t>>& hops);

}  // namespace rdma::ib
