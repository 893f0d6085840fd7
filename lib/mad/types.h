// InfiniBand's enumerations, defined once: node types, port states and
// physical states as NodeInfo and PortInfo carry them (IBA 14.2.5), with
// the names every view prints. Here in lib/mad because the decoders name
// them; lib/ib/types.h brings them into lib/ib.
#pragma once

#include <cstdint>

namespace rdma::mad {

enum class NodeType : uint8_t { Ca = 1, Switch = 2, Router = 3 };

// "ca", "switch", "router"; nullptr for a value the IBA does not define.
inline const char* node_type_name(unsigned v) {
  switch (v) {
    case 1:
      return "ca";
    case 2:
      return "switch";
    case 3:
      return "router";
    default:
      return nullptr;
  }
}

enum PortState : uint8_t {
  kPortNop = 0,
  kPortDown = 1,
  kPortInit = 2,
  kPortArmed = 3,
  kPortActive = 4
};

enum PhysState : uint8_t {
  kPhysNop = 0,
  kPhysSleep = 1,
  kPhysPolling = 2,
  kPhysDisabled = 3,
  kPhysTraining = 4,
  kPhysLinkUp = 5,
  kPhysErrorRecovery = 6,
  kPhysTest = 7,
};

// LID ranges (IBA 4.1.3): unicast LIDs 1-0xbfff, multicast LIDs
// 0xc000-0xfffe, 0xffff the permissive LID.
inline constexpr uint16_t kMaxUnicastLid = 0xbfff;
inline constexpr uint16_t kFirstMlid = 0xc000;
inline constexpr uint16_t kLastMlid = 0xfffe;

}  // namespace rdma::mad
