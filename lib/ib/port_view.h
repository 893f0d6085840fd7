// What port show prints of a port: its PortInfo with what decoding it
// needs (the PortInfo whose masks vouch for its extended speeds, whether
// it runs FDR10) and its addresses as ibaddr prints them, read by SMPs or
// from the SA's PortInfoRecord. The front end names no attribute.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lib/ib/client.h"
#include "lib/ib/port_address.h"
#include "lib/mad/mad.h"
#include "lib/mad/target.h"
#include "lib/view/record.h"

namespace rdma::ib {

struct PortAttrs {
  uint16_t lid = 0;           // from the SA: the record's EndportLID; 0 by SMP
  unsigned port = 0;          // the port's number
  std::vector<uint8_t> info;  // PortInfo
  // The PortInfo whose capability masks vouch for the extended speed
  // fields (lib/mad/speed.h); empty (the SA's): every field as it is.
  std::vector<uint8_t> speed_caps;
  bool fdr10 = false;  // the vendor's MlnxExtPortInfo says FDR10
  PortAddress address;
};

// The PortInfo of port at r (0: a CA's port the SMP arrives on, a
// switch's port 0). Throws MadError.
mad::Mad read_port_info(MadClient& c, const mad::Route& r, uint8_t port);

// The rest of what port show prints, port_info being read_port_info's for
// port (nullopt: 0): the number (a CA's arriving port without one, a
// switch's 0 whatever its LocalPortNum says), the
// masks that vouch for the extended speeds (a switch's port 0's when the
// port's own, reserved on an external port, do not), FDR10 where
// iblinkinfo asks it (no answer: no FDR10), the address. Throws MadError.
PortAttrs port_attrs(MadClient& c, const mad::Route& r, std::optional<uint8_t> port,
                     std::span<const uint8_t> port_info);

// The same from the SA: the PortInfoRecord of t's LID for port, or
// without one the record an SMP would answer with (a switch: port 0).
// Throws Error when the SA has none.
PortAttrs read_port_attrs_sa(MadClient& c, const mad::Target& t, std::optional<uint8_t> port);

// PortInfo decoded into out at detail (keys in clear only with
// show_keys), then the address.
void add_port_attrs(const PortAttrs& a, int detail, bool show_keys, view::Record& out);

}  // namespace rdma::ib
