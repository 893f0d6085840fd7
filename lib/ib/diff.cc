#include "lib/ib/diff.h"

#include <map>
#include <set>
#include <tuple>

#include "lib/ib/records.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

using End = std::pair<uint64_t, int>;  // node GUID, port
using LinkKey = std::pair<End, End>;   // lower end first

LinkKey key_of(const Fabric& f, const Link& l) {
  End a{f.nodes[l.a.node].info.node_guid, l.a.port};
  End b{f.nodes[l.b.node].info.node_guid, l.b.port};
  return a < b ? LinkKey{a, b} : LinkKey{b, a};
}

std::string lids_text(const Node& n) {
  std::string s;
  for (uint16_t l : n.lids()) s += (s.empty() ? "" : ",") + std::to_string(l);
  return s.empty() ? "-" : s;
}

// The values of a port that a diff reports, by name.
std::vector<std::pair<const char*, std::string>> port_values(const Node& n, const Port& p) {
  const PortInfo& i = *p.info;
  std::vector<std::pair<const char*, std::string>> v = {
      {"state", mad::value_text(mad::Fmt::PortState, i.state)},
      {"physical_state", mad::value_text(mad::Fmt::PhysState, i.phys_state)},
      {"width", width_text(i)},
      {"speed", speed_text(i, speed_caps(n, i))},
  };
  if (!n.is_switch() || p.num == 0) v.push_back({"lid", std::to_string(i.lid)});
  return v;
}

void add_link(std::vector<Change>& out, Change::Kind kind, const Fabric& f, const Link& l) {
  const Node& a = f.nodes[l.a.node];
  const Node& b = f.nodes[l.b.node];
  Change c;
  c.kind = kind;
  c.object = Change::Object::Link;
  c.node_type = a.info.node_type;
  c.peer_node_type = b.info.node_type;
  c.node_guid = a.info.node_guid;
  c.description = a.description;
  c.port = l.a.port;
  c.peer_node_guid = b.info.node_guid;
  c.peer_port = l.b.port;
  c.peer_description = b.description;
  out.push_back(std::move(c));
}

bool kind_checked(uint8_t type, const DiffChecks& k) {
  switch (static_cast<NodeType>(type)) {
    case NodeType::Switch:
      return k.switches;
    case NodeType::Ca:
      return k.cas;
    case NodeType::Router:
      return k.routers;
  }
  return true;  // a kind the IBA does not name: no check leaves it out
}

// Whether a change is one the checks ask for: its node's kind (a link's
// either end's), and what changed.
bool checked(const Change& c, const DiffChecks& k) {
  if (c.object == Change::Object::Link)
    return k.links && (kind_checked(c.node_type, k) || kind_checked(c.peer_node_type, k));
  if (!kind_checked(c.node_type, k)) return false;
  if (c.kind != Change::Kind::Changed) return true;
  if (c.field == "description") return k.descriptions;
  if (c.field == "lids" || c.field == "lid") return k.lids;
  return k.ports;
}

}  // namespace

std::vector<Change> diff(const Fabric& before, const Fabric& now, const DiffChecks& checks) {
  std::vector<Change> out;
  auto node_change = [&](Change::Kind k, const Node& n) {
    Change c;
    c.kind = k;
    c.object = Change::Object::Node;
    c.node_type = n.info.node_type;
    c.node_guid = n.info.node_guid;
    c.description = n.description;
    out.push_back(std::move(c));
  };
  for (const Node& n : before.nodes)
    if (!now.find(n.info.node_guid)) node_change(Change::Kind::Gone, n);
  for (const Node& n : now.nodes)
    if (!before.find(n.info.node_guid)) node_change(Change::Kind::Added, n);

  std::set<LinkKey> before_links, now_links;
  for (const Link& l : before.links()) before_links.insert(key_of(before, l));
  for (const Link& l : now.links()) now_links.insert(key_of(now, l));
  for (const Link& l : before.links())
    if (!now_links.count(key_of(before, l))) add_link(out, Change::Kind::Gone, before, l);
  for (const Link& l : now.links())
    if (!before_links.count(key_of(now, l))) add_link(out, Change::Kind::Added, now, l);

  for (const Node& n : now.nodes) {
    const Node* old = before.find(n.info.node_guid);
    if (!old) continue;
    auto changed = [&](int port, const char* field, const std::string& b, const std::string& a) {
      if (b == a) return;
      Change c;
      c.object = port < 0 ? Change::Object::Node : Change::Object::Port;
      c.node_type = n.info.node_type;
      c.node_guid = n.info.node_guid;
      c.description = n.description;
      c.port = port;
      c.field = field;
      c.before = b;
      c.now = a;
      out.push_back(std::move(c));
    };
    changed(-1, "description", old->description, n.description);
    changed(-1, "ports", std::to_string(old->info.num_ports), std::to_string(n.info.num_ports));
    changed(-1, "lids", lids_text(*old), lids_text(n));
    for (const Port& p : n.ports) {
      const Port* op = old->port(p.num);
      if (!p.info || !op || !op->info) continue;  // not seen both times
      auto b = port_values(*old, *op), a = port_values(n, p);
      for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        changed(p.num, a[i].first, b[i].second, a[i].second);
    }
  }
  std::erase_if(out, [&checks](const Change& c) { return !checked(c, checks); });
  return out;
}

void change_record(const Change& c, view::Record& out) {
  static const char* const kKinds[] = {"added", "gone", "changed"};
  static const char* const kObjects[] = {"node", "port", "link"};
  const char* kind = kKinds[static_cast<int>(c.kind)];
  const char* object = kObjects[static_cast<int>(c.object)];
  out.add("change", std::string(kind) + " ", kind);
  out.add("object", std::string(object) + " ", object);
  std::string guid = mad::guid_hex(c.node_guid);
  out.pair("node_guid", guid);
  if (c.port >= 0) out.pair("port", c.port);
  out.pair("description", mad::desc_text(c.description), c.description);
  if (c.object == Change::Object::Link) {
    std::string peer = mad::guid_hex(c.peer_node_guid);
    out.pair("peer_node_guid", peer);
    out.pair("peer_port", c.peer_port);
    out.pair("peer_description", mad::desc_text(c.peer_description), c.peer_description);
  }
  if (c.kind == Change::Kind::Changed) {
    out.pair("field", c.field);
    out.pair("before", c.before);
    out.pair("now", c.now);
  }
}

}  // namespace rdma::ib
