// A port's addresses as ibaddr prints them: the GID (the subnet prefix of
// its PortInfo and the port GUID of its NodeInfo) and the LID range its
// LMC gives it (LID to LID + 2^LMC - 1).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "lib/ib/client.h"
#include "lib/view/record.h"

namespace rdma::ib {

struct PortAddress {
  std::optional<uint16_t> lid_end;             // the last LID; none for a port with no LID
  std::optional<std::array<uint8_t, 16>> gid;  // none where the port GUID is not known
};

// From a port's PortInfo (port_info, asked of port number port; 0 on a CA:
// the port the SMP arrived on) and its node's
// NodeInfo. A switch's LID and GID are its port 0's (an external port has
// neither). NodeInfo names the GUID of the port the SMP arrived on: for
// another port of a CA the GID is not known (ibaddr would print the
// arriving port's).
PortAddress port_address(std::span<const uint8_t> port_info, unsigned port,
                         std::span<const uint8_t> node_info);

// The same, asking the NodeInfo over route (nothing known when it gets
// no answer).
PortAddress port_address(MadClient& c, const mad::Route& route, std::span<const uint8_t> port_info,
                         unsigned port);

// The same from the SA (--sa): the NodeInfo in the target's NodeRecord
// (nothing known when the SA has none).
PortAddress port_address_sa(MadClient& c, const mad::Target& t, std::span<const uint8_t> port_info,
                            unsigned port);

// "lid_end N" and "gid GID", where known.
void add_port_address(const PortAddress& a, view::Record& out);

}  // namespace rdma::ib
