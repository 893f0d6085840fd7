#include "lib/verbs/port.h"

#include <cstdio>
#include <string>

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

std::string speed_text(uint64_t speed) {
  std::string gbps = std::to_string(speed / 10);
  if (speed % 10) gbps += "." + std::to_string(speed % 10);
  return gbps + "Gb/s";
}

void port_record(const std::string& dev, uint8_t port, const ibv_port_attr& a, int details,
                 view::Record& r, std::optional<uint64_t> effective) {
  r.clear();
  r.add("ifname", "link " + dev + "/", dev);
  r.add("port", std::to_string(port), port);
  add(r, "link_layer", link_layer_name(a.link_layer));
  add(r, "state", port_state_name(a.state));
  add(r, "physical_state", phys_state_name(a.phys_state));
  add_num(r, "max_mtu", mtu_name(a.max_mtu));
  add_num(r, "active_mtu", mtu_name(a.active_mtu));
  add(r, "width", width_name(a.active_width));
  add(r, "speed", speed_name(a.active_speed));  // Gb/s per lane
  if (effective)                                // the port's whole rate
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
