// The old infiniband-diags scripts' per-port verdicts (ibcheckport,
// ibcheckportstate, ibcheckportwidth, ibcheckerrs) for the ports of one
// node: each judged as the fabric checks judge it (a port not Active, a
// width or speed below what the port is enabled for, an error counter
// over its threshold as `fabric errors` reads them), without discovering
// the fabric.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/client.h"
#include "lib/ib/errors.h"
#include "lib/ib/smp.h"

namespace rdma::ib {

// Which verdicts are asked: `state`, `width`, `speed`, `errors`; all by
// default.
struct PortChecks {
  bool state = true;
  bool width = true;
  bool speed = true;
  bool errors = true;
};

struct PortVerdict {
  uint16_t lid = 0;  // the port's (a switch's: its port 0's)
  uint8_t port = 0;
  std::string check;  // "state", "width", "speed", "errors"
  bool ok = true;
  std::string
      reason;  // why not ok: "state DOWN, physical state POLLING (expected ACTIVE, LINK_UP)"
};

// The verdicts of one port from what it answered: its PortInfo and, for
// errors, its PortCounters (null: not asked; no verdict); a port whose
// link is not up has no width or speed verdict. caps: the PortInfo whose
// capability masks vouch for its extended speeds (a switch's port 0's;
// null: its own). o's thresholds and counters are those of `fabric
// errors`.
std::vector<PortVerdict> judge_port(uint16_t lid, uint8_t port, const PortInfo& pi,
                                    const PortCounters* pc, const SweepOptions& o,
                                    const PortChecks& which, const PortInfo* caps = nullptr);

// The verdicts of the ports of the node at r: port N, every port (all: a
// switch's 1..NumPorts, a CA's too), or by default the port the MAD
// arrives on (a switch: every port). A CA port without a LID has no
// errors verdict (its PMA keeps no counters for it). Throws Error for a port the node
// lacks, before anything else is read; MadError when the node or its PMA
// does not answer.
std::vector<PortVerdict> check_node_ports(MadClient& c, const mad::Route& r,
                                          std::optional<uint8_t> port, bool all,
                                          const SweepOptions& o, const PortChecks& which);

}  // namespace rdma::ib
