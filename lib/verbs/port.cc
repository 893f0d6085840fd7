#include "lib/verbs/port.h"

#include <cstdio>
#include <string>

#include "lib/mad/format.h"
#include "lib/mad/rate_text.h"
#include "lib/verbs/names.h"
#include "lib/view/number.h"

namespace rdma::verbs {

namespace {

void add(view::Record& r, const char* key, const std::string& v) {
  r.add(key, std::string(" ") + key + " " + v, v);
}
void add(view::Record& r, const char* key, unsigned v) {
  r.add(key, std::string(" ") + key + " " + std::to_string(v), v);
}

// A number, or the word "invalid" for an encoding with no number.
void add_num(view::Record& r, const char* key, const char* v) {
  if (std::optional<uint64_t> n = view::parse_number(v, {.max = UINT32_MAX}))
    add(r, key, static_cast<unsigned>(*n));
  else
    add(r, key, std::string(v));
}

}  // namespace

mad::Generation generation(uint8_t active_speed) {
  switch (active_speed) {  // enum ibv_port_attr active_speed: one bit each
    case 1:
      return mad::Generation::Sdr;
    case 2:
      return mad::Generation::Ddr;
    case 4:
      return mad::Generation::Qdr;
    case 8:
      return mad::Generation::Fdr10;
    case 16:
      return mad::Generation::Fdr;
    case 32:
      return mad::Generation::Edr;
    case 64:
      return mad::Generation::Hdr;
    case 128:
      return mad::Generation::Ndr;
    default:
      return mad::Generation::Unknown;
  }
}

uint64_t port_guid(const Gid& gid0) {
  uint64_t g = 0;
  for (int i = 8; i < 16; ++i) g = g << 8 | gid0.raw[i];
  return g;
}

std::string speed_text(uint64_t speed) {
  std::string gbps = std::to_string(speed / 10);
  if (speed % 10) gbps += "." + std::to_string(speed % 10);
  return gbps + "Gb/s";
}

void port_record(const std::string& dev, uint8_t port, const ibv_port_attr& a, int details,
                 view::Record& r, std::optional<uint64_t> effective,
                 std::optional<uint64_t> port_guid) {
  r.clear();
  r.add("ifname", "link " + dev + "/", dev);
  r.add("port", std::to_string(port), port);
  add(r, "link_layer", link_layer_name(a.link_layer));
  add(r, "state", port_state_name(a.state));
  add(r, "physical_state", phys_state_name(a.phys_state));
  add_num(r, "max_mtu", mtu_name(a.max_mtu));
  add_num(r, "active_mtu", mtu_name(a.active_mtu));
  add(r, "width", width_name(a.active_width));
  // ibstat's Rate (lanes times the lane's data rate, the kernel's sysfs
  // rate) is what users compare; the lane speed (ibv_devinfo's
  // active_speed) is a detail.
  if (details >= 1) add(r, "speed", speed_name(a.active_speed));
  if (unsigned tenths = mad::rate_tenths(generation(a.active_speed), a.active_width))
    r.add("rate", " rate " + mad::rate_text(tenths), mad::rate_json(tenths));
  if (port_guid && *port_guid)  // siw's GID 0 is its MAC: no interface ID
    r.add("port_guid", " port_guid " + mad::guid_hex(*port_guid), mad::guid_hex(*port_guid));
  if (effective)  // the port's whole rate as the device reports it
    r.add("effective_speed_mbps", " effective_speed " + speed_text(*effective), *effective * 100);
  if (details < 1) return;
  add(r, "sm_lid", a.sm_lid);
  add(r, "port_lid", a.lid);
  add(r, "port_lmc", view::hex_text(a.lmc, 2));
  add(r, "max_msg_sz", view::hex_text(a.max_msg_sz));
  add(r, "port_cap_flags", view::hex_text(a.port_cap_flags, 8));
  add(r, "port_cap_flags2", view::hex_text(a.port_cap_flags2, 4));
  add_num(r, "max_vl_num", vl_name(a.max_vl_num));
  add(r, "bad_pkey_cntr", view::hex_text(a.bad_pkey_cntr));
  add(r, "qkey_viol_cntr", view::hex_text(a.qkey_viol_cntr));
  add(r, "sm_sl", a.sm_sl);
  add(r, "pkey_tbl_len", a.pkey_tbl_len);
  add(r, "gid_tbl_len", static_cast<unsigned>(a.gid_tbl_len));
  add(r, "subnet_timeout", a.subnet_timeout);
  add(r, "init_type_reply", a.init_type_reply);
}

}  // namespace rdma::verbs
