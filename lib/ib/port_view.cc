#include "lib/ib/port_view.h"

#include "lib/error.h"
#include "lib/ib/fdr10.h"
#include "lib/ib/node_view.h"
#include "lib/ib/sa_records.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

namespace {

// Whether the port runs FDR10: the vendor's MlnxExtPortInfo, asked where
// iblinkinfo asks it (fdr10.h: a QDR link of a device that answers it). No
// answer is no FDR10, not an error.
bool fdr10(MadClient& c, const mad::Route& r, std::span<const uint8_t> port_info, unsigned port) {
  PortInfo pi = PortInfo::from(port_info);
  if (!may_be_fdr10(pi)) return false;  // no NodeInfo asked for the others
  try {
    if (!ask_fdr10(read_node_info(c, r), pi)) return false;
    mad::Mad ext = c.smp(r, mad::kGet, mad::kMlnxExtPortInfo, port);
    return mlnx_speed_active(ext.data()) & mad::kMlnxSpeedFdr10;
  } catch (const Error&) {
    return false;
  }
}

// The PortInfo whose capability masks vouch for the port's extended speed
// fields: its own, or for a switch's port its port 0's, asked only when
// the port shows an extended speed its own masks (reserved on a switch's
// external port) do not vouch for.
std::vector<uint8_t> speed_caps(MadClient& c, const mad::Route& r,
                                std::span<const uint8_t> port_info, unsigned port) {
  std::vector<uint8_t> own(port_info.begin(), port_info.begin() + mad::kPortInfo.bytes);
  mad::ExtSpeedCaps caps = mad::ext_speed_caps(own);
  PortInfo info = PortInfo::from(port_info);
  bool ext = info.speed_ext_active != 0;
  bool ext2 = info.speed_ext2_active != 0;
  if (port == 0 || ((!ext || caps.ext) && (!ext2 || caps.ext2))) return own;
  if (!read_node_info(c, r).is_switch()) return own;
  mad::Mad port0 = read_port_info(c, r, 0);
  auto p0 = port0.data();
  return {p0.begin(), p0.begin() + mad::kPortInfo.bytes};
}

}  // namespace

mad::Mad read_port_info(MadClient& c, const mad::Route& r, uint8_t port) {
  return c.smp(r, mad::kGet, mad::kPortInfo, port);
}

PortAttrs port_attrs(MadClient& c, const mad::Route& r, std::optional<uint8_t> port,
                     std::span<const uint8_t> port_info) {
  PortAttrs a;
  // Without a port a CA answers for the port the MAD arrived on; a
  // switch for its port 0, whose LocalPortNum is still the arriving port
  // (smpquery portinfo and ibportstate say "port 0").
  a.port = port                               ? *port
           : read_node_info(c, r).is_switch() ? 0
                                              : PortInfo::from(port_info).local_port;
  a.info.assign(port_info.begin(), port_info.end());
  a.speed_caps = speed_caps(c, r, port_info, a.port);
  a.fdr10 = fdr10(c, r, port_info, a.port);
  a.address = port_address(c, r, port_info, port.value_or(0));
  return a;
}

PortAttrs read_port_attrs_sa(MadClient& c, const mad::Target& t, std::optional<uint8_t> port) {
  std::vector<std::vector<uint8_t>> recs = c.sa_records(t, mad::kPortInfoRecord, port);
  const std::vector<uint8_t>* pick = &recs.front();
  if (!port) {
    // A switch has a record per port: port 0 carries its LID.
    for (const auto& r : recs)
      if (mad::get_field(mad::kPortInfoRecord, r, "PortNum") == 0) pick = &r;
  }
  std::span<const uint8_t> pi = sa_carried(mad::kPortInfoRecord, mad::kPortInfo, *pick);
  PortAttrs a;
  a.lid = static_cast<uint16_t>(mad::get_field(mad::kPortInfoRecord, *pick, "EndportLID"));
  a.port = static_cast<unsigned>(mad::get_field(mad::kPortInfoRecord, *pick, "PortNum"));
  a.info.assign(pi.begin(), pi.end());
  a.address = port_address_sa(c, t, pi, port.value_or(0));  // ibaddr's
  return a;
}

void add_port_attrs(const PortAttrs& a, int detail, bool show_keys, view::Record& out) {
  mad::decode(mad::kPortInfo, a.info, detail, out,
              {.show_keys = show_keys, .fdr10 = a.fdr10, .speed_caps = a.speed_caps});
  add_port_address(a.address, out);  // ibaddr's
}

}  // namespace rdma::ib
