// A fabric described in ibsim's topology format (ibsim's net files and
// ibnetdiscover's output, which ibsim also reads), as plain structs. The
// forms accepted, the GUIDs given to nodes that name none and the link
// defaults are ibsim's (ibsim/sim_net.c), so a file means the same fabric
// here as under the simulator.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rdma::ibtest {

enum class NodeType : uint8_t { Ca = 1, Switch = 2, Router = 3 };

// PortInfo encodings (IBA 14.2.5.6), as ibsim's width=/speed= take them.
inline constexpr uint8_t kWidth1x = 1, kWidth4x = 2, kWidth8x = 4, kWidth12x = 8, kWidth2x = 16;
inline constexpr uint8_t kSpeedSdr = 1, kSpeedDdr = 2, kSpeedQdr = 4;
inline constexpr uint8_t kSpeedExtFdr = 1, kSpeedExtEdr = 2, kSpeedExtHdr = 4, kSpeedExtNdr = 8;

struct TopoPort {
  int peer_node = -1;  // index into Topology::nodes; -1: not connected (down)
  uint8_t peer_port = 0;
  uint8_t width_enabled = kWidth4x;  // ibsim's defaults: 4X SDR
  uint8_t speed_enabled = kSpeedSdr;
  uint8_t speed_ext_enabled = 0;
  // The vendor's MlnxExtPortInfo LinkSpeedEnabled: FDR10 (1) for the
  // FDR10 .. NDR of an ibnetdiscover line, as ibsim sets it.
  uint8_t mlnx_speed_enabled = 0;
  uint16_t lid = 0;  // given in ibnetdiscover output; the double ignores it
  uint8_t lmc = 0;
  int line = 0;  // where the port was declared (0: not declared)
};

struct TopoNode {
  NodeType type = NodeType::Ca;
  std::string id;           // the quoted name, unique in the file
  std::string description;  // NodeDescription: `# "desc"` or else the id
  int num_ports = 0;
  uint64_t node_guid = 0;
  uint64_t sys_guid = 0;
  uint32_t vendor_id = 0;
  uint16_t device_id = 0;
  int enhanced_port0 = 0;       // 1 "enhanced port 0", -1 "base port 0", 0 not said
  uint16_t lid = 0;             // a switch's "lid N" (ibnetdiscover output)
  std::vector<TopoPort> ports;  // index = port number; [0] is a switch's port 0
  int line = 0;

  // A switch has one port GUID (port 0's, the node GUID); a CA or router
  // port N has node GUID + N, as ibsim gives them.
  uint64_t port_guid(int port) const {
    return type == NodeType::Switch ? node_guid : node_guid + port;
  }
};

struct Topology {
  std::vector<TopoNode> nodes;
  // The node with this id, or -1.
  int find(std::string_view id) const;
  size_t links() const;  // connected port pairs
};

// Parses the text; `source` names it in errors. Throws rdma::Error naming
// the line ("net:12: port 9 of \"sw1\" is beyond its 8 ports").
Topology parse_topology(std::string_view text, const std::string& source = "topology");
// Reads and parses a file (`include` lines are not supported).
Topology load_topology(const std::string& path);

}  // namespace rdma::ibtest
