// rdma port show TARGET [port N] [pkeys|guids|sl2vl|vlarb] and
// rdma port set TARGET port N {enable|disable|reset}: PortInfo and the
// per-port tables.
#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "rdma/mad_session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

constexpr unsigned kSwitch = 2;
constexpr unsigned kPhysPolling = 2;
constexpr unsigned kPhysDisabled = 3;

void port_help(Ctx& c) {
  std::fputs(
      "Usage: rdma port show TARGET [port N] [ pkeys | guids | sl2vl | vlarb ] [via DEV/PORT]\n"
      "       rdma port set TARGET port N { enable | disable | reset } [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH }\n",
      c.help_out);
}

uint64_t field(const mad::AttrDef& a, const mad::Mad& m, const char* name) {
  return m.get_attr(a, name);
}

// Elements [0, n) of the table fields of blocks, as one field per name.
void add_table(view::Record& rec, const mad::AttrDef& a, const std::vector<mad::Mad>& blocks,
               unsigned n) {
  for (const mad::FieldDef& f : a.fields) {
    std::string all;
    view::Json arr = view::Json::array();
    for (unsigned i = 0; i < n; ++i) {
      std::string text;
      view::Json json;
      mad::render(f, blocks[i / f.count].data(), i % f.count, text, json);
      all += (i ? "," : "") + text;
      arr.push_back(std::move(json));
    }
    rec.add(f.name, std::string(f.label) + " " + all + " ", std::move(arr));
  }
}

struct PortCtx {
  mad::Route route;
  mad::Mad node;
  bool is_switch = false;
  uint8_t port = 0;
};

void show_pkeys(Ctx& c, MadSession& s, const PortCtx& p, view::Record& rec) {
  unsigned cap = field(mad::kNodeInfo, p.node, "PartitionCap");
  if (p.is_switch && p.port != 0) {
    mad::Mad sw = s.smp(p.route, mad::kGet, mad::kSwitchInfo, 0);
    cap = field(mad::kSwitchInfo, sw, "PartitionEnforcementCap");
  }
  std::vector<mad::Mad> blocks;
  for (unsigned b = 0; b * 32 < cap; ++b)
    blocks.push_back(
        s.smp(p.route, mad::kGet, mad::kPKeyTable, (p.is_switch ? uint32_t{p.port} << 16 : 0) | b));
  rec.add("PartitionCap", "capacity " + std::to_string(cap) + " ", cap);
  add_table(rec, mad::kPKeyTable, blocks, cap);
  c.out.record(rec);
}

void show_guids(Ctx& c, MadSession& s, const PortCtx& p, view::Record& rec) {
  mad::Mad pi = s.smp(p.route, mad::kGet, mad::kPortInfo, p.port);
  unsigned cap = field(mad::kPortInfo, pi, "GUIDCap");
  std::vector<mad::Mad> blocks;
  for (unsigned b = 0; b * 8 < cap; ++b)
    blocks.push_back(s.smp(p.route, mad::kGet, mad::kGuidInfo, b));
  rec.add("GUIDCap", "capacity " + std::to_string(cap) + " ", cap);
  add_table(rec, mad::kGuidInfo, blocks, cap);
  c.out.record(rec);
}

// CAs have one table; a switch one per input port to output port N.
void show_sl2vl(Ctx& c, MadSession& s, const PortCtx& p, const view::Record& base) {
  if (!p.is_switch) {
    view::Record rec = base;
    mad::Mad t = s.smp(p.route, mad::kGet, mad::kSl2VlTable, 0);
    mad::decode(mad::kSl2VlTable, t.data(), c.opt.details, rec);
    c.out.record(rec);
    return;
  }
  unsigned ports = field(mad::kNodeInfo, p.node, "NumPorts");
  for (unsigned in = 0; in <= ports; ++in) {
    view::Record rec = base;
    rec.add("InputPort", "in " + std::to_string(in) + " ", in);
    mad::Mad t = s.smp(p.route, mad::kGet, mad::kSl2VlTable, (in << 8) | p.port);
    mad::decode(mad::kSl2VlTable, t.data(), c.opt.details, rec);
    c.out.record(rec);
  }
}

void show_vlarb(Ctx& c, MadSession& s, const PortCtx& p, const view::Record& base) {
  mad::Mad pi = s.smp(p.route, mad::kGet, mad::kPortInfo, p.port);
  unsigned low = field(mad::kPortInfo, pi, "VLArbitrationLowCap");
  unsigned high = field(mad::kPortInfo, pi, "VLArbitrationHighCap");
  for (const char* prio : {"low", "high"}) {
    unsigned cap = prio[0] == 'l' ? low : high;
    unsigned first = prio[0] == 'l' ? 1 : 3;  // blocks 1-2 low, 3-4 high
    std::vector<mad::Mad> blocks;
    for (unsigned b = 0; b * 32 < cap; ++b)
      blocks.push_back(s.smp(p.route, mad::kGet, mad::kVlArbTable, ((first + b) << 16) | p.port));
    view::Record rec = base;
    rec.add("Priority", std::string("priority ") + prio + " ", prio);
    rec.add("Cap", "capacity " + std::to_string(cap) + " ", cap);
    add_table(rec, mad::kVlArbTable, blocks, cap);
    c.out.record(rec);
  }
}

void port_show(Ctx& c) {
  MadWords w(c);
  if (!w.target) throw Error("missing target (lid N, guid G, gid G or dr PATH)");
  std::optional<uint8_t> port;
  std::string table;
  while (!w.empty()) {
    std::string k = w.next();
    if (matches(k, "port"))
      port = parse_port(w.need("port number"));
    else if (k == "pkeys" || k == "guids" || k == "sl2vl" || k == "vlarb")
      table = k;
    else
      throw Error("unknown port show argument \"" + k + "\"");
  }
  MadSession s(c, w.via);
  PortCtx p;
  p.route = s.route(w.target);
  view::Record rec;
  add_target(rec, p.route);
  if (table.empty()) {
    mad::Mad pi = s.smp(p.route, mad::kGet, mad::kPortInfo, port.value_or(0));
    // Without "port N" a CA answers for the port the MAD arrived on.
    unsigned n = port ? *port : pi.get_attr(mad::kPortInfo, "LocalPortNum");
    rec.add("port", "port " + std::to_string(n) + " ", n);
    mad::decode(mad::kPortInfo, pi.data(), c.opt.details, rec);
    c.out.record(rec);
    return;
  }
  p.node = s.smp(p.route, mad::kGet, mad::kNodeInfo, 0);
  p.is_switch = field(mad::kNodeInfo, p.node, "NodeType") == kSwitch;
  // Without a port: the port the MAD arrived on (CAs), port 0 (switches).
  p.port = port.value_or(p.is_switch ? 0 : field(mad::kNodeInfo, p.node, "LocalPortNum"));
  rec.add("port", "port " + std::to_string(p.port) + " ", p.port);
  if (table == "pkeys")
    show_pkeys(c, s, p, rec);
  else if (table == "guids")
    show_guids(c, s, p, rec);
  else if (table == "sl2vl")
    show_sl2vl(c, s, p, rec);
  else
    show_vlarb(c, s, p, rec);
}

// Sets the physical state of a port with a PortInfo Set that changes
// nothing else: PortState 0 is "no change" and the rest is as read.
void set_phys(MadSession& s, const mad::Route& r, uint8_t port, unsigned phys) {
  mad::Mad pi = s.smp(r, mad::kGet, mad::kPortInfo, port);
  pi.set_attr(mad::kPortInfo, "PortState", 0);
  pi.set_attr(mad::kPortInfo, "PortPhysicalState", phys);
  s.smp(r, mad::kSet, mad::kPortInfo, port, &pi);
}

void port_set(Ctx& c) {
  MadWords w(c);
  if (!w.target) throw Error("missing target (lid N, guid G, gid G or dr PATH)");
  std::optional<uint8_t> port;
  std::string action;
  while (!w.empty()) {
    std::string k = w.next();
    if (matches(k, "port"))
      port = parse_port(w.need("port number"));
    else if (k == "enable" || k == "disable" || k == "reset")
      action = k;
    else
      throw Error("unknown port set argument \"" + k + "\"");
  }
  if (!port) throw Error("missing \"port N\"");
  if (action.empty()) throw Error("missing action: enable, disable or reset");
  MadSession s(c, w.via);
  mad::Route r = s.route(w.target);
  if (action == "disable" || action == "reset") set_phys(s, r, *port, kPhysDisabled);
  if (action == "enable" || action == "reset") set_phys(s, r, *port, kPhysPolling);
}

}  // namespace

void cmd_port(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, port_help}, {"show", port_show}, {"list", port_show},
      {"set", port_set},    {"help", port_help},
  };
  dispatch(c, kTable, "port command");
}

}  // namespace rdma
