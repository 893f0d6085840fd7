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
  using Table = std::array<uint8_t, 16>;
  // The tables read one by one.
  std::vector<std::unordered_map<uint16_t, Table>> by_node;
  // A switch whose probes agreed (read_sl2vls, Sl2VlRead::Probe): by
  // output port, the table of every input port there; empty for the others.
  std::vector<std::vector<std::optional<Table>>> by_out;
  // How many tables of each node were asked for (a table that did not
  // come is missing from by_node, and counts as VL 0).
  std::vector<size_t> asked;
  // The VL; 0 for a table not read (a port without SL2VL is one VL).
  uint8_t vl(uint32_t node, uint8_t in, uint8_t out, uint8_t sl) const;
  // Whether every table asked of the node is known (read, or its switch's
  // probes agreed).
  bool whole(uint32_t node) const;
  // Calls fn with each distinct table known of the node.
  template <typename Fn>
  void each_table(uint32_t node, Fn fn) const {
    if (node < by_node.size())
      for (const auto& [key, t] : by_node[node]) fn(t);
    if (node < by_out.size())
      for (const std::optional<Table>& t : by_out[node])
        if (t) fn(*t);
  }
};

// How read_sl2vls reads a switch's tables of the hops asked for.
enum class Sl2VlRead : uint8_t {
  Every,  // each one: one SMP a table
  // A few first (per class of output ports with the same OperationalVLs:
  // the first hop, one with another input and output port, the last);
  // when they agree in each class, the switch is taken as programmed
  // alike for every input port (as opensm does, each output port's table
  // from its VLs), and the rest are not read; otherwise every one is.
  Probe,
};

// The tables of every switch for each input port with a link and each
// output port to another switch (the hops a credit loop can run over), all
// in one run, each read. A table that does not come is left out (VL 0).
VlMaps read_sl2vls(mad::Engine& e, const Fabric& f);
// Only the tables of these hops, by node ((input port << 8 | output
// port), sorted, as check.h's credit_hops gives the hops the routes take):
// on a fat tree a fraction of them (issue 40: the credit check of 4,768
// nodes read 678,000 tables, most for hops no route takes; probing, 2,000).
VlMaps read_sl2vls(mad::Engine& e, const Fabric& f, const std::vector<std::vector<uint16_t>>& hops,
                   Sl2VlRead how = Sl2VlRead::Probe);

}  // namespace rdma::ib
