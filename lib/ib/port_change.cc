#include "lib/ib/port_change.h"

#include <algorithm>
#include <cctype>
#include <span>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/dr_avoid.h"
#include "lib/ib/smp.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"
#include "lib/mad/types.h"

namespace rdma::ib {

namespace {

constexpr PortFieldDef kFields[] = {
    {PortField::Speed, "speed", "LinkSpeedEnabled", 0, mad::kSpeedAllSupported,
     "0-15; sdr, ddr or qdr, comma-separated; or all", "LinkSpeedSupported"},
    {PortField::ExtSpeed, "espeed", "LinkSpeedExtEnabled", 0, mad::kSpeedExtAllSupported,
     "0-31; fdr, edr, hdr or ndr, comma-separated; or all", "LinkSpeedExtSupported"},
    {PortField::Fdr10, "fdr10", nullptr, 0, 1, nullptr, nullptr},
    {PortField::Width, "width", "LinkWidthEnabled", 0, mad::kWidthAllSupported,
     "0-31 or 255; 1x, 2x, 4x, 8x or 12x, comma-separated; or all", "LinkWidthSupported"},
    {PortField::Vls, "vls", "OperationalVLs", 1, 5, nullptr, "VLCap"},
    {PortField::Mtu, "mtu", "NeighborMTU", 1, 5, nullptr, "MTUCap"},
    {PortField::Lid, "lid", "LID", 1, mad::kMaxUnicastLid, nullptr, nullptr},
    {PortField::SmLid, "smlid", "MasterSMLID", 1, mad::kMaxUnicastLid, nullptr, nullptr},
    {PortField::Lmc, "lmc", "LMC", 0, 7, nullptr, nullptr},
    {PortField::MKey, "mkey", "M_Key", 0, UINT64_MAX, nullptr, nullptr},
    {PortField::MKeyLease, "mkeylease", "M_KeyLeasePeriod", 0, UINT16_MAX, nullptr, nullptr},
    {PortField::MKeyProt, "mkeyprot", "M_KeyProtectBits", 0, 3, nullptr, nullptr},
};

// The names an admin reads in `port show` and iblinkinfo for the bits of
// a mask, and the value that enables every supported one.
struct BitName {
  const char* name;
  unsigned bit;
};
struct BitNames {
  PortField field;
  std::span<const BitName> bits;
  unsigned all;
};
constexpr BitName kSpeedNames[] = {{"sdr", mad::kSpeedSdr}, {"ddr", mad::kSpeedDdr},
                                   {"qdr", mad::kSpeedQdr}, {"2.5", mad::kSpeedSdr},
                                   {"5.0", mad::kSpeedDdr}, {"10.0", mad::kSpeedQdr}};
constexpr BitName kExtSpeedNames[] = {
    {"fdr", mad::kSpeedExtFdr},    {"edr", mad::kSpeedExtEdr},     {"hdr", mad::kSpeedExtHdr},
    {"ndr", mad::kSpeedExtNdr},    {"14.0625", mad::kSpeedExtFdr}, {"25.78125", mad::kSpeedExtEdr},
    {"53.125", mad::kSpeedExtHdr}, {"106.25", mad::kSpeedExtNdr}};
constexpr BitName kWidthNames[] = {{"1x", mad::kWidth1x},
                                   {"4x", mad::kWidth4x},
                                   {"8x", mad::kWidth8x},
                                   {"12x", mad::kWidth12x},
                                   {"2x", mad::kWidth2x}};
constexpr BitNames kBitNames[] = {
    {PortField::Speed, kSpeedNames, mad::kSpeedAllSupported},
    {PortField::ExtSpeed, kExtSpeedNames, mad::kSpeedExtAllSupported},
    {PortField::Width, kWidthNames, mad::kWidthAllSupported},
};

// The AttributeModifier bit of a PortInfo Set that says LinkSpeedExtEnabled
// is to be applied (IBA 14.2.5.6).
constexpr uint32_t kApplyExtSpeeds = 1u << 31;

// One Set, its failure as one line that says what was refused and how.
mad::Mad set_smp(MadClient& c, const mad::Route& r, const mad::AttrDef& a, uint32_t mod,
                 const mad::Mad& body, const std::string& what) {
  try {
    return c.smp(r, mad::kSet, a, mod, &body);
  } catch (const mad::MadError& e) {
    const mad::Failure& f = e.failure;
    std::string head = "cannot set " + std::string(a.name) + " of " + what + ": ";
    if (f.kind == mad::Failure::Kind::Timeout)
      throw Error(head + "no reply (" + std::to_string(f.tries) +
                  (f.returned ? " tries, each given back at once by the local port" : " tries") +
                  "); a port with an M_Key ignores Sets that do not carry it (--mkey)");
    if (f.kind == mad::Failure::Kind::Status)
      throw Error(head + "refused with status " + mad::status_text(f.status, mad::kClassSmiLid));
    throw Error(head + f.message);
  }
}

NodeInfo node_info(MadClient& c, const mad::Route& r) {
  return NodeInfo::from(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
}

// The PortInfo to write: as read, with every "no change" value (PortState,
// PortPhysicalState, the enabled speeds and widths 0) but what is asked.
mad::Mad port_info_set(const mad::Mad& read, const PortChange& change, PortAction action) {
  mad::Mad pi = read;
  pi.set_attr(mad::kPortInfo, "PortState", mad::kPortNop);
  pi.set_attr(mad::kPortInfo, "PortPhysicalState", mad::kPhysNop);
  pi.set_attr(mad::kPortInfo, "LinkSpeedEnabled", 0);
  pi.set_attr(mad::kPortInfo, "LinkSpeedExtEnabled", 0);
  pi.set_attr(mad::kPortInfo, "LinkWidthEnabled", 0);
  switch (action) {
    case PortAction::Enable:
      pi.set_attr(mad::kPortInfo, "PortPhysicalState", mad::kPhysPolling);
      break;
    case PortAction::Disable:
      pi.set_attr(mad::kPortInfo, "PortPhysicalState", mad::kPhysDisabled);
      break;
    case PortAction::Down:
    case PortAction::Init:  // Down retrains the link, which comes back in INIT
      pi.set_attr(mad::kPortInfo, "PortState", mad::kPortDown);
      break;
    case PortAction::Arm:
      pi.set_attr(mad::kPortInfo, "PortState", mad::kPortArmed);
      break;
    case PortAction::Active:
      pi.set_attr(mad::kPortInfo, "PortState", mad::kPortActive);
      break;
    case PortAction::Reset:
    case PortAction::None:
      break;
  }
  for (const auto& [field, v] : change.values)
    if (const char* iba = port_field_def(field).iba) pi.set_attr(mad::kPortInfo, iba, v);
  return pi;
}

// Whether the port has IsExtendedSpeedsSupported: in its own CapabilityMask,
// or, on a switch's external port (whose mask is reserved, 0), in port 0's,
// as ibportstate asks it; NodeInfo and port 0 only when the port's own
// mask lacks it.
bool has_ext_speeds(MadClient& c, const mad::Route& r, const mad::Mad& read, uint8_t port) {
  if (PortInfo::from(read.data()).caps & mad::kCapExtendedSpeeds) return true;
  if (port == 0) return false;
  if (!node_info(c, r).is_switch()) return false;
  return PortInfo::from(c.smp(r, mad::kGet, mad::kPortInfo, 0).data()).caps &
         mad::kCapExtendedSpeeds;
}

void write_port(MadClient& c, const mad::Route& r, const PortChange& change, PortAction action,
                const std::string& what) {
  mad::Mad read = c.smp(r, mad::kGet, mad::kPortInfo, change.port);
  uint32_t mod = change.port;
  if (change.has(PortField::ExtSpeed)) mod |= kApplyExtSpeeds;  // checked by apply_port_change
  set_smp(c, r, mad::kPortInfo, mod, port_info_set(read, change, action), what);
}

// A value as port show prints its field ("1024", "25.78125", "VL0-1").
std::string field_text(const char* iba, uint64_t v) {
  const mad::FieldDef* f = mad::find_field(mad::kPortInfo, iba);
  return f ? mad::value_text(f->fmt, v, f->width) : std::to_string(v);
}

// What the port should read after a mask field was written v: the
// "every supported one" values read as the Supported mask; nullopt: v
// asks for no change (0) or for what this does not judge.
std::optional<uint64_t> mask_expected(PortField f, uint64_t v, uint64_t supported) {
  if (v == 0) return std::nullopt;
  switch (f) {
    case PortField::Speed:
      return v == mad::kSpeedAllSupported ? supported : v;
    case PortField::ExtSpeed:
      if (v == mad::kSpeedExtDisable) return std::nullopt;
      return v == mad::kSpeedExtAllSupported ? supported : v;
    case PortField::Width:
      return v == mad::kWidthAllSupported ? supported : v;
    default:
      return v;
  }
}

bool is_mask(PortField f) {
  return f == PortField::Speed || f == PortField::ExtSpeed || f == PortField::Width;
}

// Throws Error for a value of the change the port (as read) cannot take.
void check_supported(const mad::Mad& read, const PortChange& change, const std::string& what) {
  for (const auto& [field, v] : change.values) {
    const PortFieldDef& d = port_field_def(field);
    if (!d.supported) continue;
    uint64_t supported = read.get_attr(mad::kPortInfo, d.supported);
    bool takes;
    if (is_mask(field)) {
      std::optional<uint64_t> want = mask_expected(field, v, supported);
      takes = !want || (supported && (*want & ~supported) == 0);
    } else {
      takes = v <= supported;
    }
    if (!takes)
      throw Error(what + " does not support " + d.word + " " + field_text(d.iba, v) + " (its " +
                  d.supported + ": " + field_text(d.supported, supported) + ")");
  }
}

void write_fdr10(MadClient& c, const mad::Route& r, const PortChange& change,
                 const std::string& what) {
  for (const auto& [field, v] : change.values) {
    if (field != PortField::Fdr10) continue;
    mad::Mad ext = c.smp(r, mad::kGet, mad::kMlnxExtPortInfo, change.port);
    ext.set_attr(mad::kMlnxExtPortInfo, "StateChangeEnable", 1);
    ext.set_attr(mad::kMlnxExtPortInfo, "LinkSpeedEnabled", v);
    set_smp(c, r, mad::kMlnxExtPortInfo, change.port, ext, what);
  }
}

}  // namespace

std::span<const PortFieldDef> port_field_defs() {
  return kFields;
}

const PortFieldDef& port_field_def(PortField f) {
  for (const PortFieldDef& d : kFields)
    if (d.field == f) return d;
  throw Error("unknown port field");
}

std::optional<uint64_t> named_port_bits(PortField f, const std::string& word) {
  const BitNames* names = nullptr;
  for (const BitNames& n : kBitNames)
    if (n.field == f) names = &n;
  if (!names) return std::nullopt;
  std::string lower = word;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (lower == "all") return names->all;
  uint64_t v = 0;
  size_t at = 0;
  while (at <= lower.size()) {
    size_t comma = std::min(lower.find(',', at), lower.size());
    std::string name = lower.substr(at, comma - at);
    auto it = std::find_if(names->bits.begin(), names->bits.end(),
                           [&](const BitName& b) { return name == b.name; });
    if (it == names->bits.end()) return std::nullopt;
    v |= it->bit;
    at = comma + 1;
  }
  return v;
}

std::optional<uint64_t> mtu_code(const std::string& bytes) {
  static constexpr const char* kBytes[] = {"256", "512", "1024", "2048", "4096"};
  for (unsigned i = 0; i < 5; ++i)
    if (bytes == kBytes[i]) return i + 1;
  return std::nullopt;
}

bool PortChange::has(PortField f) const {
  for (const auto& v : values)
    if (v.first == f) return true;
  return false;
}

bool PortChange::cuts() const {
  return action == PortAction::Disable || action == PortAction::Reset ||
         action == PortAction::Down || action == PortAction::Init;
}

std::optional<std::vector<uint8_t>> dr_of_lid(MadClient& c, uint16_t lid) {
  std::vector<uint8_t> path;
  if (c.local().lid == lid) return path;
  path.push_back(static_cast<uint8_t>(c.local().port));
  for (size_t hop = 0; hop < mad::kMaxHops; ++hop) {
    mad::Route r{true, 0, path};
    NodeInfo ni = node_info(c, r);
    PortInfo pi = PortInfo::from(c.smp(r, mad::kGet, mad::kPortInfo, 0).data());
    if (pi.lid && lid >= pi.lid && lid < pi.lid + (1u << pi.lmc)) return path;
    if (!ni.is_switch()) return std::nullopt;
    uint8_t out = lft_port(c.engine(), r, lid);
    if (out == 0 || out > ni.num_ports) return std::nullopt;
    path.push_back(out);
  }
  return std::nullopt;
}

mad::Route port_change_route(MadClient& c, const mad::Route& given, const PortChange& change,
                             bool force, const std::string& what) {
  std::optional<std::vector<uint8_t>> path;
  if (given.directed && !given.lid) {
    path = given.path;
  } else {
    // A LID, or a combined route's start LID and the path from there.
    path = dr_of_lid(c, given.lid);
    if (path) path->insert(path->end(), given.path.begin(), given.path.end());
  }
  if (!path) {
    if (change.cuts() && !force)
      throw Error("cannot tell whether " + what +
                  " carries this tool's MADs (no forwarding table entry for its LID); -f to "
                  "change it anyway");
    return given;
  }
  mad::Route dr{true, 0, *path};
  if (!change.cuts()) return dr;
  NodeInfo ni = node_info(c, dr);
  bool local = path->empty();
  unsigned arrival = local ? c.local().port : ni.local_port;
  unsigned port = change.port == 0 && !ni.is_switch() ? arrival : change.port;
  bool on_route = port == arrival && (local || !ni.is_switch() || port != 0);
  if (!on_route) return dr;
  std::string refuse = what + " carries this tool's MADs (" +
                       (local ? std::string("the local port") : "the route to it") + ")";
  if (ni.is_switch() && !local) {
    Discovery d = discover(c.engine());
    const Node* target = d.fabric.find(ni.node_guid);
    if (target) {
      uint32_t idx = d.fabric.index_of(ni.node_guid).value();
      std::vector<PortRef> avoid{{idx, static_cast<uint8_t>(port)}};
      if (const Port* p = target->port(port); p && p->peer) avoid.push_back(*p->peer);
      if (auto around =
              dr_path_avoiding(d.fabric, static_cast<uint8_t>(c.local().port), idx, avoid))
        return {true, 0, *around};
    }
    refuse += " and no directed route avoids it";
  } else if (!local) {
    refuse += ", and a CA's port is set only through itself";
  }
  if (!force) throw Error(refuse + ": -f to change it anyway");
  return dr;
}

void check_port_change(MadClient& c, const mad::Route& r, const PortChange& change) {
  if (!change.has(PortField::MKey) && !change.has(PortField::MKeyLease) &&
      !change.has(PortField::MKeyProt) && !change.has(PortField::Lid) &&
      !change.has(PortField::SmLid) && !change.has(PortField::Lmc))
    return;
  if (node_info(c, r).is_switch() && change.port != 0)
    throw Error("a switch's M_Key, LID, SM LID and LMC are its port 0's, not port " +
                std::to_string(change.port) + "'s");
}

void apply_port_change(MadClient& c, const mad::Route& r, const PortChange& change,
                       const std::string& what) {
  if (!change.values.empty()) {
    mad::Mad read = c.smp(r, mad::kGet, mad::kPortInfo, change.port);
    if (change.has(PortField::ExtSpeed) && !has_ext_speeds(c, r, read, change.port))
      throw Error(what + " does not support extended speeds (espeed)");
    check_supported(read, change, what);
  }
  write_fdr10(c, r, change, what);
  bool port_info = change.values.size() > (change.has(PortField::Fdr10) ? 1u : 0u);
  if (change.action == PortAction::Reset) {  // Disabled, then Polling: the link trains again
    PortChange off = change;
    off.values.clear();
    write_port(c, r, off, PortAction::Disable, what);
    write_port(c, r, change, PortAction::Enable, what);
  } else if (change.action != PortAction::None || port_info) {
    write_port(c, r, change, change.action, what);
  }
}

std::vector<std::string> port_change_not_taken(MadClient& c, const mad::Route& r,
                                               const PortChange& change) {
  std::vector<std::string> out;
  std::optional<mad::Mad> read;
  for (const auto& [field, v] : change.values) {
    const PortFieldDef& d = port_field_def(field);
    if (field == PortField::MKey) continue;
    if (field == PortField::Fdr10) {
      mad::Mad ext = c.smp(r, mad::kGet, mad::kMlnxExtPortInfo, change.port);
      uint64_t has = ext.get_attr(mad::kMlnxExtPortInfo, "LinkSpeedEnabled");
      if (has != v)
        out.push_back(std::string(d.word) + " " + std::to_string(v) + " (it has " +
                      std::to_string(has) + ")");
      continue;
    }
    if (!read) read = c.smp(r, mad::kGet, mad::kPortInfo, change.port);
    uint64_t has = read->get_attr(mad::kPortInfo, d.iba);
    std::optional<uint64_t> want = v;
    if (is_mask(field)) {
      want = mask_expected(field, v, read->get_attr(mad::kPortInfo, d.supported));
      // An "every supported one" value may also be kept as written.
      if (want && has == v) continue;
    }
    if (want && has != *want)
      out.push_back(std::string(d.word) + " " + field_text(d.iba, *want) + " (it has " +
                    field_text(d.iba, has) + ")");
  }
  return out;
}

void set_port_action(MadClient& c, const mad::Route& r, uint8_t port, PortAction action,
                     const std::string& what) {
  PortChange change;
  change.port = port;
  write_port(c, r, change, action, what);
}

std::optional<uint64_t> new_mkey(const PortChange& change) {
  for (const auto& [field, v] : change.values)
    if (field == PortField::MKey) return v;
  return std::nullopt;
}

std::optional<PortPeer> port_peer(MadClient& c, const mad::Route& r, uint8_t port) {
  if (!r.directed || port == 0) return std::nullopt;
  try {
    NodeInfo ni = node_info(c, r);
    if (!ni.is_switch() && !(r.lid == 0 && r.path.empty() && port == c.local().port))
      return std::nullopt;
    mad::Route peer = r;
    peer.path.push_back(port);
    NodeInfo pn = node_info(c, peer);
    mad::Mad desc = c.smp(peer, mad::kGet, mad::kNodeDescription, 0);
    return PortPeer{peer, pn.local_port, pn.node_guid,
                    mad::c_string(desc.data().first(mad::kNodeDescription.bytes))};
  } catch (const mad::MadError&) {
    // No link (disabled, retraining): nothing at the other end answers.
    return std::nullopt;
  }
}

}  // namespace rdma::ib
