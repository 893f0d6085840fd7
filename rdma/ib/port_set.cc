// rdma port set TARGET port N OP...: ibportstate's operations as PortInfo
// Sets (and the vendor's MlnxExtPortInfo for FDR10), checked before
// anything is sent, sent by a directed route that does not cross the
// port when the change cuts its link; and rdma port set all init, every
// link of the subnet back to INIT, far links first.
#include "rdma/ib/port_set.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/dr_avoid.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "rdma/objects.h"
#include "rdma/words.h"

namespace rdma {

namespace {

// PortInfo's PortState and PortPhysicalState values (IBA 14.2.5.6).
constexpr unsigned kStateDown = 1, kStateArmed = 3, kStateActive = 4;
constexpr unsigned kPhysPolling = 2, kPhysDisabled = 3;

enum class Action { None, Enable, Disable, Reset, Down, Arm, Active, Init };

struct ActionWord {
  const char* word;
  Action action;
};
constexpr ActionWord kActions[] = {
    {"enable", Action::Enable}, {"disable", Action::Disable}, {"reset", Action::Reset},
    {"down", Action::Down},     {"arm", Action::Arm},         {"active", Action::Active},
    {"init", Action::Init},
};

// An operation with a value: the PortInfo field it writes (nullptr: the
// vendor's FDR10 bit) and the values ibportstate takes.
struct ValueOp {
  const char* word;
  const char* field;
  uint64_t min, max;
};
constexpr ValueOp kValueOps[] = {
    {"speed", "LinkSpeedEnabled", 0, 15},
    {"espeed", "LinkSpeedExtEnabled", 0, 31},
    {"fdr10", nullptr, 0, 1},
    {"width", "LinkWidthEnabled", 0, 255},
    {"vls", "OperationalVLs", 1, 5},
    {"mtu", "NeighborMTU", 1, 5},
    {"lid", "LID", 1, 0xbfff},
    {"smlid", "MasterSMLID", 1, 0xbfff},
    {"lmc", "LMC", 0, 7},
    {"mkey", "M_Key", 0, UINT64_MAX},
};

struct Request {
  uint8_t port = 0;
  Action action = Action::None;
  std::vector<std::pair<const ValueOp*, uint64_t>> values;
  bool has(const char* word) const {
    for (const auto& v : values)
      if (std::string(v.first->word) == word) return true;
    return false;
  }
  // Whether the change takes the link down (for a moment or for good).
  bool cuts() const {
    return action == Action::Disable || action == Action::Reset || action == Action::Down ||
           action == Action::Init;
  }
};

// The names an admin reads in `port show` and iblinkinfo for the bits of
// LinkSpeedEnabled, LinkSpeedExtEnabled and LinkWidthEnabled, and the
// value that enables every supported one.
struct BitName {
  const char* name;
  uint64_t bit;
};
struct BitNames {
  const char* op;
  std::vector<BitName> bits;
  uint64_t all;
  const char* expected;  // for the error
};
const BitNames kBitNames[] = {
    {"speed",
     {{"sdr", 1}, {"ddr", 2}, {"qdr", 4}, {"2.5", 1}, {"5.0", 2}, {"10.0", 4}},
     15,
     "0-15; sdr, ddr or qdr, comma-separated; or all"},
    {"espeed",
     {{"fdr", 1},
      {"edr", 2},
      {"hdr", 4},
      {"ndr", 8},
      {"14.0625", 1},
      {"25.78125", 2},
      {"53.125", 4},
      {"106.25", 8}},
     31,
     "0-31; fdr, edr, hdr or ndr, comma-separated; or all"},
    {"width",
     {{"1x", 1}, {"4x", 2}, {"8x", 4}, {"12x", 8}, {"2x", 16}},
     255,
     "0-31 or 255; 1x, 2x, 4x, 8x or 12x, comma-separated; or all"},
};

// The names op takes for its bits; nullptr when it takes numbers only.
const BitNames* bit_names(const ValueOp& op) {
  for (const BitNames& names : kBitNames)
    if (std::string(op.word) == names.op) return &names;
  return nullptr;
}

// "4x", "sdr,qdr", "all": the bits named, case-insensitive; nullopt when the
// word is not made of names (a number, or a typo the number check reports).
std::optional<uint64_t> named_bits(const BitNames& names, const std::string& word) {
  std::string lower = word;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (lower == "all") return names.all;
  uint64_t v = 0;
  size_t at = 0;
  while (at <= lower.size()) {
    size_t comma = std::min(lower.find(',', at), lower.size());
    std::string name = lower.substr(at, comma - at);
    auto it = std::find_if(names.bits.begin(), names.bits.end(),
                           [&](const BitName& b) { return name == b.name; });
    if (it == names.bits.end()) return std::nullopt;
    v |= it->bit;
    at = comma + 1;
  }
  return v;
}

uint64_t parse_value(const ValueOp& op, const std::string& word) {
  if (std::string(op.word) == "mtu") {  // also in bytes, as ibv_devinfo prints it
    static constexpr const char* kBytes[] = {"256", "512", "1024", "2048", "4096"};
    for (unsigned i = 0; i < 5; ++i)
      if (word == kBytes[i]) return i + 1;
    if (std::optional<uint64_t> v = parse_number(word, {.min = 1, .max = 5, .c_bases = true}))
      return *v;
    throw UsageError("invalid mtu \"" + word + "\" (expected 1-5, or 256, 512, 1024, 2048 or " +
                     "4096 bytes)");
  }
  if (const BitNames* names = bit_names(op)) {
    if (std::optional<uint64_t> v = named_bits(*names, word)) return *v;
    // Not a number either: say which names the operation takes.
    bool numeric = word.rfind("0x", 0) == 0 || word.rfind("0X", 0) == 0 ||
                   word.find_first_not_of("0123456789") == std::string::npos;
    if (!numeric)
      throw UsageError("invalid " + std::string(op.word) + " \"" + word + "\" (expected " +
                       names->expected + ")");
  }
  uint64_t v = need_number(word, op.word, {.min = op.min, .max = op.max, .c_bases = true});
  if (std::string(op.word) == "width" && v > 31 && v != 255)
    throw UsageError("invalid width \"" + word + "\" (expected 0-31 or 255)");
  return v;
}

Request parse_request(Ctx& c) {
  Request req;
  bool have_port = false;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "port")) {
      req.port = parse_port(c.args.need_word("port number"));
      have_port = true;
      continue;
    }
    const ActionWord* act = nullptr;
    for (const ActionWord& a : kActions)
      if (k == a.word) act = &a;
    if (act) {
      if (req.action != Action::None)
        throw UsageError("one state change at a time (\"" + k + "\" after another)");
      req.action = act->action;
      continue;
    }
    const ValueOp* op = nullptr;
    for (const ValueOp& o : kValueOps)
      if (k == o.word) op = &o;
    if (!op) throw UsageError("unknown port set argument \"" + k + "\"");
    if (req.has(op->word)) throw UsageError("\"" + k + "\" given twice");
    req.values.push_back({op, parse_value(*op, c.args.need_value(k, op->word))});
  }
  if (!have_port) throw UsageError("missing \"port N\"");
  if (req.action == Action::None && req.values.empty())
    throw UsageError(
        "missing action: enable, disable, reset, down, arm, active or init, or OP VALUE (speed, "
        "espeed, fdr10, width, vls, mtu, lid, smlid, lmc, mkey)");
  return req;
}

std::string port_text(const mad::Route& r, unsigned port) {
  return mad::route_text(r) + " port " + std::to_string(port);
}

// One Set, its failure as one line that says what was refused and how.
mad::Mad set_smp(MadSession& s, const mad::Route& r, const mad::AttrDef& a, uint32_t mod,
                 const mad::Mad& body, const std::string& what) {
  try {
    return s.smp(r, mad::kSet, a, mod, &body);
  } catch (const mad::MadError& e) {
    const mad::Failure& f = e.failure;
    std::string head = "cannot set " + std::string(a.name) + " of " + what + ": ";
    if (f.kind == mad::Failure::Kind::Timeout)
      throw Error(head + "no reply (" + std::to_string(f.tries) +
                  " tries); a port with an M_Key ignores Sets that do not carry it (--mkey)");
    if (f.kind == mad::Failure::Kind::Status)
      throw Error(head + "refused with status " + mad::status_text(f.status, mad::kClassSmiLid));
    throw Error(head + f.message);
  }
}

// The directed route a LID takes: at each switch the output port its
// forwarding table gives (so the ports a change would cut are known, and
// the peer can be asked); nullopt when a table has no entry for it.
std::optional<std::vector<uint8_t>> dr_of_lid(MadSession& s, uint16_t lid) {
  auto owns = [lid](const mad::Mad& pi) {
    uint64_t base = pi.get_attr(mad::kPortInfo, "LID");
    uint64_t lmc = pi.get_attr(mad::kPortInfo, "LMC");
    return base && lid >= base && lid < base + (1ull << lmc);
  };
  std::vector<uint8_t> path;
  if (s.local().lid == lid) return path;
  path.push_back(static_cast<uint8_t>(s.local().port));
  for (size_t hop = 0; hop < mad::kMaxHops; ++hop) {
    mad::Route r{true, 0, path};
    ib::NodeInfo ni = ib::NodeInfo::from(s.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
    if (owns(s.smp(r, mad::kGet, mad::kPortInfo, 0))) return path;
    if (!ni.is_switch()) return std::nullopt;
    mad::Mad lft = s.smp(r, mad::kGet, mad::kLinearForwardingTable, lid / 64);
    uint64_t out = mad::get_field(mad::kLinearForwardingTable, lft.data(), "Port", lid % 64);
    if (out == 0 || out > ni.num_ports) return std::nullopt;
    path.push_back(static_cast<uint8_t>(out));
  }
  return std::nullopt;
}

// The directed route to send the change by. A change that cuts the link
// must not travel through it: a CA sets only the port its SMPs arrive by,
// so a CA's own link (or the local port) is cut only with -f; a switch's
// port on the way is avoided by a route discovery finds around it.
mad::Route choose_route(Ctx& c, MadSession& s, const mad::Route& given, const Request& req,
                        const std::string& what) {
  std::optional<std::vector<uint8_t>> path;
  if (given.directed)
    path = given.path;
  else
    path = dr_of_lid(s, given.lid);
  if (!path) {
    if (req.cuts() && !c.opt.force)
      throw Error("cannot tell whether " + what +
                  " carries this tool's MADs (no forwarding table entry for its LID); -f to "
                  "change it anyway");
    return given;
  }
  mad::Route dr{true, 0, *path};
  if (!req.cuts()) return dr;
  ib::NodeInfo ni = ib::NodeInfo::from(s.smp(dr, mad::kGet, mad::kNodeInfo, 0).data());
  bool local = path->empty();
  unsigned arrival = local ? s.local().port : ni.local_port;
  unsigned port = req.port == 0 && !ni.is_switch() ? arrival : req.port;
  bool on_route = port == arrival && (local || !ni.is_switch() || port != 0);
  if (!on_route) return dr;
  std::string refuse = what + " carries this tool's MADs (" +
                       (local ? std::string("the local port") : "the route to it") + ")";
  if (ni.is_switch() && !local) {
    ib::Discovery d = ib::discover(s.engine());
    const ib::Node* target = d.fabric.find(ni.node_guid);
    if (target) {
      uint32_t idx = d.fabric.by_guid.at(ni.node_guid);
      std::vector<ib::PortRef> avoid{{idx, static_cast<uint8_t>(port)}};
      if (const ib::Port* p = target->port(port); p && p->peer) avoid.push_back(*p->peer);
      if (auto around =
              ib::dr_path_avoiding(d.fabric, static_cast<uint8_t>(s.local().port), idx, avoid))
        return {true, 0, *around};
    }
    refuse += " and no directed route avoids it";
  } else if (!local) {
    refuse += ", and a CA's port is set only through itself";
  }
  if (!c.opt.force) throw Error(refuse + ": -f to change it anyway");
  return dr;
}

// The PortInfo to write: as read, with every "no change" value (PortState,
// PortPhysicalState, the enabled speeds and widths 0) but what is asked.
mad::Mad port_info_set(const mad::Mad& read, const Request& req, Action action) {
  mad::Mad pi = read;
  pi.set_attr(mad::kPortInfo, "PortState", 0);
  pi.set_attr(mad::kPortInfo, "PortPhysicalState", 0);
  pi.set_attr(mad::kPortInfo, "LinkSpeedEnabled", 0);
  pi.set_attr(mad::kPortInfo, "LinkSpeedExtEnabled", 0);
  pi.set_attr(mad::kPortInfo, "LinkWidthEnabled", 0);
  switch (action) {
    case Action::Enable:
      pi.set_attr(mad::kPortInfo, "PortPhysicalState", kPhysPolling);
      break;
    case Action::Disable:
      pi.set_attr(mad::kPortInfo, "PortPhysicalState", kPhysDisabled);
      break;
    case Action::Down:
    case Action::Init:  // Down retrains the link, which comes back in INIT
      pi.set_attr(mad::kPortInfo, "PortState", kStateDown);
      break;
    case Action::Arm:
      pi.set_attr(mad::kPortInfo, "PortState", kStateArmed);
      break;
    case Action::Active:
      pi.set_attr(mad::kPortInfo, "PortState", kStateActive);
      break;
    case Action::Reset:
    case Action::None:
      break;
  }
  for (const auto& [op, v] : req.values)
    if (op->field) pi.set_attr(mad::kPortInfo, op->field, v);
  return pi;
}

// Whether the port has IsExtendedSpeedsSupported: in its own CapabilityMask,
// or, on a switch's external port (whose mask is reserved, 0), in port 0's,
// as ibportstate asks it; NodeInfo and port 0 only when the port's own
// mask lacks it.
bool has_ext_speeds(MadSession& s, const mad::Route& r, const mad::Mad& read, uint8_t port) {
  if (read.get_attr(mad::kPortInfo, "CapabilityMask") & mad::kPortCapExtendedSpeeds) return true;
  if (port == 0) return false;
  if (!ib::NodeInfo::from(s.smp(r, mad::kGet, mad::kNodeInfo, 0).data()).is_switch()) return false;
  return s.smp(r, mad::kGet, mad::kPortInfo, 0).get_attr(mad::kPortInfo, "CapabilityMask") &
         mad::kPortCapExtendedSpeeds;
}

void write_port(MadSession& s, const mad::Route& r, const Request& req, Action action,
                const std::string& what) {
  mad::Mad read = s.smp(r, mad::kGet, mad::kPortInfo, req.port);
  uint32_t mod = req.port;
  if (req.has("espeed")) {
    if (!has_ext_speeds(s, r, read, req.port))
      throw Error(what + " does not support extended speeds (espeed)");
    mod |= 1u << 31;  // LinkSpeedExtEnabled is to be applied (IBA 14.2.5.6)
  }
  set_smp(s, r, mad::kPortInfo, mod, port_info_set(read, req, action), what);
}

void write_fdr10(MadSession& s, const mad::Route& r, const Request& req, const std::string& what) {
  for (const auto& [op, v] : req.values) {
    if (op->field) continue;
    mad::Mad ext = s.smp(r, mad::kGet, mad::kMlnxExtPortInfo, req.port);
    ext.set_attr(mad::kMlnxExtPortInfo, "StateChangeEnable", 1);
    ext.set_attr(mad::kMlnxExtPortInfo, "LinkSpeedEnabled", v);
    set_smp(s, r, mad::kMlnxExtPortInfo, req.port, ext, what);
  }
}

// After the change, as ibportstate: the port, and the port at the other
// end of its link when a directed route reaches it (a switch's port, or
// the local port); a link the change took down has no peer to show.
void show_after(Ctx& c, MadSession& s, const mad::Route& r, const mad::Route& label,
                const Request& req) {
  show_port(c, s, r, req.port, label);
  if (!r.directed || req.port == 0 || req.action == Action::Disable) return;
  try {
    ib::NodeInfo ni = ib::NodeInfo::from(s.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
    if (!ni.is_switch() && !(r.path.empty() && req.port == s.local().port)) return;
    mad::Route peer = r;
    peer.path.push_back(req.port);
    ib::NodeInfo pn = ib::NodeInfo::from(s.smp(peer, mad::kGet, mad::kNodeInfo, 0).data());
    show_port(c, s, peer, pn.local_port, peer);
  } catch (const mad::MadError&) {
    // No link (disabled, retraining): nothing at the other end answers.
  }
}

void port_set_all(Ctx& c) {
  std::string via = c.args.take_via();
  if (c.args.empty() || c.args.next() != "init")
    throw UsageError("\"port set all\" takes one change: init");
  c.args.done();
  if (!c.opt.yes)
    throw UsageError(
        "port set all init takes every link of the subnet down to INIT: no data moves until the "
        "SM activates them again; --yes to do it");
  MadSession s(c, via, 1);
  ib::Discovery d = ib::discover(s.engine());
  for (const std::string& w : d.warnings) std::fprintf(c.err, "warning: %s\n", w.c_str());
  int failed = 0;
  for (const ib::PortRef& end : ib::far_first_link_ends(d.fabric, s.local().port)) {
    mad::Route r{true, 0, d.fabric.nodes[end.node].path};
    Request req;
    req.port = end.port;
    std::string what = port_text(r, end.port);
    try {
      write_port(s, r, req, Action::Init, what);
    } catch (const Error& e) {
      std::fprintf(c.err, "%s\n", e.what());
      ++failed;
      continue;
    }
    view::Record rec;
    add_target(rec, r);
    rec.pair("port", static_cast<unsigned>(end.port));
    rec.pair("state", "INIT");
    c.out.record(rec);
  }
  if (failed) c.status = 1;
}

}  // namespace

void port_set(Ctx& c) {
  if (!c.args.empty() && c.args.peek() == "all") {
    c.args.next();
    return port_set_all(c);
  }
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  Request req = parse_request(c);
  MadSession s(c, via, 1);
  mad::Route given = s.route(target);
  std::string what = port_text(given, req.port);
  if (req.has("mkey") || req.has("lid") || req.has("smlid") || req.has("lmc")) {
    ib::NodeInfo ni = ib::NodeInfo::from(s.smp(given, mad::kGet, mad::kNodeInfo, 0).data());
    if (ni.is_switch() && req.port != 0)
      throw Error("a switch's M_Key, LID, SM LID and LMC are its port 0's, not port " +
                  std::to_string(req.port) + "'s");
  }
  mad::Route r;
  try {
    r = choose_route(c, s, given, req, what);
    write_fdr10(s, r, req, what);
    if (req.action == Action::Reset) {  // Disabled, then Polling: the link trains again
      Request off = req;
      off.values.clear();
      write_port(s, r, off, Action::Disable, what);
      write_port(s, r, req, Action::Enable, what);
    } else if (req.action != Action::None || req.values.size() > (req.has("fdr10") ? 1u : 0u)) {
      write_port(s, r, req, req.action, what);
    }
  } catch (const mad::MadError& e) {
    // A Get refused (the Sets' failures are Errors): a port the node lacks
    // is said so, by the target given.
    if (e.failure.kind == mad::Failure::Kind::Status)
      explain_port_failure(s, given, req.port, mad::route_text(given));
    throw;
  }
  for (const auto& [op, v] : req.values)
    if (std::string(op->word) == "mkey") s.set_mkey(v);  // the port answers to it now
  show_after(c, s, r, given, req);
  if (req.has("speed") || req.has("espeed") || req.has("width") || req.has("fdr10"))
    std::fprintf(c.err,
                 "note: the enabled speeds and widths take effect when the link retrains "
                 "(port set ... reset)\n");
}

}  // namespace rdma
