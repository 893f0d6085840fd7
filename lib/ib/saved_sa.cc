#include "lib/ib/saved_sa.h"

#include <algorithm>
#include <cstring>

#include "lib/error.h"
#include "lib/ib/saved_fields.h"
#include "lib/ib/smp.h"
#include "lib/ib/topology_read.h"
#include "lib/mad/attrs.h"
#include "lib/mad/field.h"

namespace rdma::ib {

namespace {

// The LID a node answers at through port p: a switch's port 0's, a CA's
// port's own; 0 when the file has none.
uint16_t lid_at(const Node& n, const Port& p) {
  const Port& at = n.is_switch() ? n.ports[0] : p;
  return at.info ? at.info->lid : 0;
}

// What a topology file says of every port: its LID and LMC (the "lid N
// lmc M" comments). Its link's rate ("4xSDR") only linked ports have, not
// a switch's port 0: left out for all.
bool topology_port_holds(std::string_view name) {
  return name == "LID" || name == "LMC";
}

struct Builder {
  const SaKind& k;
  bool topology;
  std::set<std::string_view> names;  // IBA names held, of the carried attributes

  std::vector<uint8_t> record() const { return std::vector<uint8_t>(k.record->bytes, 0); }
  std::span<uint8_t> carried(std::vector<uint8_t>& rec, int i) const {
    return std::span(rec).subspan(k.at[i], k.carried[i]->bytes);
  }

  void node(const Node& n, const Port& p, uint16_t lid, SavedSa& out) {
    std::vector<uint8_t> rec = record();
    mad::set_field(*k.record, rec, "LID", lid);
    // A CA's record is its port's, as its SMA answers there; a switch's is
    // port 0's (the file's LocalPortNum is where discovery came in).
    NodeInfo info = n.info;
    info.local_port = p.num;
    if (!n.is_switch()) info.port_guid = p.guid;
    encode_held(
        mad::kNodeInfo, info, [](auto& s, auto&& g) { node_info_fields(s, g); },
        topology ? topology_holds : nullptr, carried(rec, 0), names);
    std::span<uint8_t> desc = carried(rec, 1);
    std::memcpy(desc.data(), n.description.data(), std::min(desc.size(), n.description.size()));
    out.records.push_back(std::move(rec));
  }

  void port(const Node& n, const Port& p, SavedSa& out) {
    std::vector<uint8_t> rec = record();
    mad::set_field(*k.record, rec, "EndportLID", lid_at(n, p));
    mad::set_field(*k.record, rec, "PortNum", p.num);
    encode_held(
        mad::kPortInfo, *p.info, [](auto& s, auto&& g) { port_info_fields(s, g); },
        topology ? topology_port_holds : nullptr, carried(rec, 0), names);
    out.records.push_back(std::move(rec));
  }

  void link(const Fabric& f, const Node& n, const Port& p, SavedSa& out) const {
    const Node& peer = f.nodes[p.peer->node];
    const Port* q = peer.port(p.peer->port);
    if (!q) return;
    std::vector<uint8_t> rec = record();
    mad::set_field(*k.record, rec, "FromLID", lid_at(n, p));
    mad::set_field(*k.record, rec, "FromPort", p.num);
    mad::set_field(*k.record, rec, "ToPort", q->num);
    mad::set_field(*k.record, rec, "ToLID", lid_at(peer, *q));
    out.records.push_back(std::move(rec));
  }
};

}  // namespace

SavedSa saved_sa_records(const Fabric& f, const SaKind& k, bool topology, int detail) {
  const bool nodes = k.record == &mad::kNodeRecord, ports = k.record == &mad::kPortInfoRecord,
             links = k.record == &mad::kLinkRecord;
  if (!nodes && !ports && !links)
    throw Error(std::string("a saved fabric answers sa show nodes, ports and links, not ") +
                k.word);
  SavedSa out;
  Builder b{k, topology, {}};
  for (const Node& n : f.nodes) {
    for (const Port& p : n.ports) {
      if (p.num == 0 && !n.is_switch()) continue;  // a CA's ports[0] is unused
      if (nodes) {
        uint16_t lid = lid_at(n, p);
        // A switch's one record (port 0), a CA's each port with a LID.
        if (n.is_switch() ? p.num == 0 : lid != 0) b.node(n, p, lid, out);
      } else if (ports) {
        if (p.info) b.port(n, p, out);
      } else if (p.peer) {
        b.link(f, n, p, out);
      }
    }
  }
  std::set<std::string_view> own;  // the record's keys, which it always has
  for (const mad::FieldDef& fd : k.record->fields) own.insert(fd.label);
  for (int i = 0; i < 2 && k.carried[i]; ++i) {
    // NodeDescription: the description, which every file has.
    if (k.carried[i] == &mad::kNodeDescription) continue;
    for (const mad::FieldDef& fd : k.carried[i]->fields) {
      if (b.names.count(fd.name) || own.count(fd.label)) continue;
      out.lacking.insert(fd.label);
      if (fd.level <= detail &&
          std::find(out.missing.begin(), out.missing.end(), fd.label) == out.missing.end())
        out.missing.push_back(fd.label);
    }
  }
  return out;
}

void saved_sa_record(const SaKind& k, const SavedSa& s, std::span<const uint8_t> rec, int detail,
                     view::Record& out, bool show_keys) {
  view::Record all;
  sa_record(k, rec, detail, all, show_keys);
  for (const view::Field& f : all)
    if (f.key.empty() || !s.lacking.count(f.key)) out.next() = f;
}

}  // namespace rdma::ib
