#include "lib/ib/saved_port.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include "lib/error.h"
#include "lib/ib/port_address.h"
#include "lib/ib/port_select.h"
#include "lib/mad/attrs.h"
#include "lib/mad/field.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

namespace {

// What a topology file says of a linked port: a CA port's LID and LMC
// ("lid N lmc M") and a rate word's width and speed; a switch's LID and
// LMC (its node line's) on port 0, which has no rate; the rest of its
// PortInfo is stand-ins (topology_read.h).
bool topology_port_holds(std::string_view field, const Node& n, unsigned port) {
  bool lid = field == "LID" || field == "LMC";
  bool rate = field == "LinkWidthActive" || field == "LinkSpeedActive" ||
              field == "LinkSpeedExtActive" || field == "LinkSpeedExtActive2";
  if (!n.is_switch()) return lid || rate || field == "LocalPortNum";
  return port == 0 ? lid : rate;
}

// The PortInfo's bytes: every member the model has, stand-ins too (rate
// and generation read the state and the capability masks), and in held
// the names of those the file holds.
template <typename Holds>
std::vector<uint8_t> port_info_bytes(const PortInfo& pi, Holds holds,
                                     std::set<std::string_view>* held) {
  std::vector<uint8_t> bytes(mad::kPortInfo.bytes, 0);
  port_info_fields(pi, [&](const char* name, const auto& v) {
    if (std::string_view(name).find('.') != std::string_view::npos) return;
    uint64_t x = 0;
    if constexpr (requires { v.has_value(); }) {
      if (!v) return;  // not in a file saved before it
      x = *v;
    } else {
      x = v;
    }
    mad::set_field(mad::kPortInfo, bytes, name, x);
    if (held && holds(name)) held->insert(name);
  });
  return bytes;
}

std::vector<uint8_t> node_info_bytes(const NodeInfo& ni) {
  std::vector<uint8_t> bytes(mad::kNodeInfo.bytes, 0);
  node_info_fields(ni, [&](const char* name, const auto& v) {
    mad::set_field(mad::kNodeInfo, bytes, name, uint64_t{v});
  });
  return bytes;
}

}  // namespace

std::vector<std::string> add_saved_port(const Node& n, unsigned arrive, unsigned port,
                                        bool topology, int detail, bool show_keys,
                                        const std::string& where, view::Record& out) {
  check_port(n.info, static_cast<uint8_t>(port), where);
  const Port* p = n.port(port);
  if (!p || !p->info)
    throw Error("the file holds no PortInfo of " + where + " port " + std::to_string(port) +
                (topology ? " (a topology file lists linked ports only)" : ""));
  PortInfo pi = *p->info;
  NodeInfo ni = n.info;
  if (!n.is_switch()) {
    // A CA answers for the port the SMP arrives on: its GUID in NodeInfo,
    // its number in PortInfo's LocalPortNum, whichever port is asked.
    pi.local_port = static_cast<uint8_t>(arrive);
    if (const Port* a = n.port(arrive); a && a->guid) ni.port_guid = a->guid;
  }
  std::set<std::string_view> held;
  std::vector<uint8_t> bytes = port_info_bytes(
      pi,
      [&](std::string_view f) {
        // A switch's LocalPortNum is the port an SMP arrives on, which
        // the route decides (ibsim answers 0 by LID): no file holds it.
        if (n.is_switch() && f == "LocalPortNum") return false;
        return !topology || topology_port_holds(f, n, port);
      },
      &held);
  // The masks that vouch for the extended speeds: a switch's port 0's
  // where the port's own (reserved on an external port) do not, as live.
  std::vector<uint8_t> caps = bytes;
  mad::ExtSpeedCaps own = mad::ext_speed_caps(bytes);
  if (n.is_switch() && port != 0 && n.ports[0].info &&
      ((pi.speed_ext_active && !own.ext) || (pi.speed_ext2_active && !own.ext2)))
    caps = port_info_bytes(
        *n.ports[0].info, [](std::string_view) { return false; }, nullptr);
  mad::DecodeOptions o{.show_keys = show_keys,
                       .fdr10 = (pi.mlnx_speed_active & mad::kMlnxSpeedFdr10) != 0,
                       .speed_caps = caps};
  PortAddress addr = port_address(bytes, port, node_info_bytes(ni));
  // What the live view would show, then what the file holds of it.
  view::Record full;
  mad::decode(mad::kPortInfo, bytes, detail, full, o);
  add_port_address(addr, full);
  std::vector<mad::FieldDef> shown;
  for (const mad::FieldDef& f : mad::kPortInfo.fields)
    if (held.count(f.name)) shown.push_back(f);
  size_t before = static_cast<size_t>(out.end() - out.begin());
  mad::decode_fields(shown, bytes, detail, out, o);
  if (!held.count("LID") || !held.count("LMC")) addr.lid_end.reset();
  if (!held.count("GIDPrefix")) addr.gid.reset();
  add_port_address(addr, out);
  std::set<std::string> got;
  for (const view::Field* f = out.begin() + before; f != out.end(); ++f) got.insert(f->key);
  std::vector<std::string> missing;
  auto lacks = [&](const std::string& k) {
    if (!got.count(k) && std::find(missing.begin(), missing.end(), k) == missing.end())
      missing.push_back(k);
  };
  for (const view::Field& f : full) {
    lacks(f.key);
    // The speed keys are LinkSpeedActive's: where the file lacks it, the
    // live view's rate and generation are lacking too, which the zeros
    // here do not give.
    if (f.key == "speed" && !got.count(f.key))
      for (const char* k : {"rate", "generation"}) lacks(k);
  }
  return missing;
}

}  // namespace rdma::ib
