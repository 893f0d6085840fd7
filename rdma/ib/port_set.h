// rdma port set: the front end of ibportstate's operations (port_set.cc)
// and the port view it shows after a change (port.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lib/mad/mad.h"
#include "rdma/command.h"
#include "rdma/ib/session.h"

namespace rdma {

// rdma port set TARGET port N OP... | rdma port set all init --yes.
void port_set(Ctx& c);

// The record `port show` prints for PortInfo of the port at route (the
// port the MAD arrives by when none is given), labelled with label's
// target text, or when name is given headed by it (`peer "NAME": `; JSON
// "peer" besides "target").
void show_port(Ctx& c, MadSession& s, const mad::Route& route, std::optional<uint8_t> port,
               const mad::Route& label, const std::string* name = nullptr);

// After a MAD about port of the node at route failed with a MAD status:
// throws the Error naming the port when the node has no such port
// (lib/ib/port_select.h; one NodeInfo more, on failure only), where its
// target's text; returns otherwise (a CA's port 0 is the port the MAD
// arrives on), for the caller to rethrow.
void explain_port_failure(MadSession& s, const mad::Route& route, uint8_t port,
                          const std::string& where);

}  // namespace rdma
