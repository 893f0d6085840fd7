#include "lib/ib/smp.h"

#include <string>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"

namespace rdma::ib {

namespace {

// Reads fields of one attribute by their IBA names, after checking the
// attribute is whole.
class Reader {
 public:
  Reader(const mad::AttrDef& a, std::span<const uint8_t> attr) : a_(a), attr_(attr) {
    if (attr.size() < a.bytes)
      throw Error("truncated " + std::string(a.name) + ": " + std::to_string(attr.size()) +
                  " bytes, expected " + std::to_string(a.bytes));
  }
  template <typename T>
  void operator()(const char* name, T& out) const {
    const mad::FieldDef* f = mad::find_field(a_, name);
    if (!f) throw Error(std::string("internal: ") + a_.name + " has no field " + name);
    out = static_cast<T>(mad::get_bits(attr_, f->bit, f->width));
  }

 private:
  const mad::AttrDef& a_;
  std::span<const uint8_t> attr_;
};

}  // namespace

NodeInfo NodeInfo::from(std::span<const uint8_t> attr) {
  Reader r(mad::kNodeInfo, attr);
  NodeInfo n;
  r("BaseVersion", n.base_version);
  r("ClassVersion", n.class_version);
  r("NodeType", n.node_type);
  r("NumPorts", n.num_ports);
  r("SystemImageGUID", n.sys_image_guid);
  r("NodeGUID", n.node_guid);
  r("PortGUID", n.port_guid);
  r("PartitionCap", n.partition_cap);
  r("DeviceID", n.device_id);
  r("Revision", n.revision);
  r("LocalPortNum", n.local_port);
  r("VendorID", n.vendor_id);
  return n;
}

PortInfo PortInfo::from(std::span<const uint8_t> attr) {
  Reader r(mad::kPortInfo, attr);
  PortInfo p;
  r("GIDPrefix", p.gid_prefix);
  r("LID", p.lid);
  r("MasterSMLID", p.sm_lid);
  r("CapabilityMask", p.caps);
  r("LocalPortNum", p.local_port);
  r("LinkWidthEnabled", p.width_enabled);
  r("LinkWidthSupported", p.width_supported);
  r("LinkWidthActive", p.width_active);
  r("LinkSpeedSupported", p.speed_supported);
  r("PortState", p.state);
  r("PortPhysicalState", p.phys_state);
  r("LMC", p.lmc);
  r("LinkSpeedActive", p.speed_active);
  r("LinkSpeedEnabled", p.speed_enabled);
  r("NeighborMTU", p.mtu);
  r("MTUCap", p.mtu_cap);
  r("LinkSpeedExtActive", p.speed_ext_active);
  r("LinkSpeedExtSupported", p.speed_ext_supported);
  r("LinkSpeedExtEnabled", p.speed_ext_enabled);
  return p;
}

SwitchInfo SwitchInfo::from(std::span<const uint8_t> attr) {
  Reader r(mad::kSwitchInfo, attr);
  SwitchInfo s;
  r("LinearFDBCap", s.linear_fdb_cap);
  r("MulticastFDBCap", s.mcast_fdb_cap);
  r("LinearFDBTop", s.linear_fdb_top);
  r("PartitionEnforcementCap", s.partition_enforcement_cap);
  r("EnhancedPort0", s.enhanced_port0);
  return s;
}

}  // namespace rdma::ib
