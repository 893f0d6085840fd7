#include "lib/ib/client.h"

#include <algorithm>
#include <memory>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/find.h"
#include "lib/ib/mkey_transport.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/sa_query.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/combined_route.h"
#include "lib/mad/describe.h"
#include "lib/mad/sa.h"
#include "lib/view/printer.h"
#include "lib/view/record.h"

namespace rdma::ib {

MadTrace print_trace(std::FILE* err, bool show_keys) {
  return [err, show_keys](const char* dir, std::span<const uint8_t> bytes) {
    // The header and the attribute as the InfiniBand views print them (no
    // line ends in a blank), then the bytes.
    std::unique_ptr<view::Printer> out = view::make_text_printer(err);
    out->set_line_ends(view::Printer::LineEnds::Trimmed);
    view::Record h, a, line;
    line.add("", std::string(dir) + " ", nullptr);
    try {
      mad::describe(bytes, h, a, show_keys);
      for (const view::Field& f : h) line.add("", f.text, nullptr);
      line.add("", "\n" + std::string(dir) + " ", nullptr);
      for (const view::Field& f : a) line.add("", f.text, nullptr);
    } catch (const Error& e) {
      line.add("", e.what(), nullptr);
    }
    out->record(line);
    std::fputs(mad::hex_dump(bytes).c_str(), err);
  };
}

MadClient::MadClient(const mad::Access& access, const std::string& via,
                     const mad::EngineConfig& config, MadTrace trace) {
  if (!access.find_port || !access.open) throw Error("InfiniBand management is not available here");
  local_ = access.find_port(via);
  keys_.set_local(local_.lid, static_cast<uint8_t>(local_.port), local_.port_guid);
  auto keyed = std::make_unique<MkeyTransport>(access.open(local_), keys_);
  // SMPs are traced as they leave the transport, with the key it gave
  // them; the rest (and every reply) as the engine sees them.
  keyed->trace = trace;
  engine_ = std::make_unique<mad::Engine>(*keyed, config);
  transport_ = std::move(keyed);
  if (trace)
    engine_->trace = [trace](const char* dir, std::span<const uint8_t> mad) {
      const bool smp =
          mad.size() > 1 && (mad[1] == mad::kClassSmiLid || mad[1] == mad::kClassSmiDr);
      if (dir[0] != '>' || !smp) trace(dir, mad);
    };
}

uint16_t MadClient::sm_lid() const {
  if (!local_.sm_lid)
    throw Error("no subnet manager: local port " + local_.ca + "/" + std::to_string(local_.port) +
                " has no SM LID");
  return local_.sm_lid;
}

mad::Route MadClient::route(const std::optional<mad::Target>& t) {
  if (t && t->kind == mad::Target::Kind::Name) return name_route(*t);
  if (t) {
    try {
      return mad::resolve(*engine_, local_, *t);
    } catch (const mad::NoSuchPort&) {
      std::optional<uint16_t> lid;
      if (t->kind == mad::Target::Kind::Guid) lid = node_guid_lid(t->guid);
      if (!lid) throw;
      mad::Route r;
      r.lid = *lid;
      return r;
    }
  }
  mad::Route r;
  r.lid = sm_lid();
  return r;
}

mad::Mad MadClient::smp(const mad::Route& r, uint8_t method, const mad::AttrDef& a, uint32_t mod,
                        const mad::Mad* body) {
  // A port whose GUID is not known yet is asked its NodeInfo first (with
  // the single key), which tells the transport's key source who it is.
  if (keys_.by_guid() && !keys_.guid_at(key_where(r))) {
    mad::Mad q = mad::make_smp_from(local_.lid, r, mad::kGet, mad::kNodeInfo, 0);
    engine_->call(q, mad::smp_address(r), "NodeInfo from " + mad::route_text(r));
  }
  mad::Mad m = mad::make_smp_from(local_.lid, r, method, a, mod);
  if (body) std::copy(body->data().begin(), body->data().end(), m.data().begin());
  // The key the transport gives it, set here too so that -dd shows it.
  m.set(mad::hdr::kMKey, keys_.key_for(key_where(r)));
  return engine_->call(m, mad::smp_address(r), std::string(a.name) + " from " + mad::route_text(r));
}

std::string MadClient::key_where(const mad::Route& r) const {
  return MkeySource::where(mad::make_smp_from(local_.lid, r, mad::kGet, mad::kNodeInfo, 0),
                           mad::smp_address(r));
}

void MadClient::set_mkey_at(const mad::Route& r, uint64_t key) {
  keys_.set_key_at(key_where(r), key);
}

void MadClient::set_mkeys(std::map<uint64_t, uint64_t> by_port_guid) {
  keys_.set_keys(std::move(by_port_guid));
  if (!local_.sm_lid) return;  // no SA: each port's NodeInfo tells it
  try {
    std::vector<uint8_t> none(mad::kNodeRecord.bytes);
    mad::SaTable nodes = mad::get_table(*engine_, local_.sm_lid, mad::kNodeRecord, 0, none);
    for (const auto& rec : nodes.records) {
      NodeRecord n = NodeRecord::from(rec);
      keys_.learn_lid(n.lid, n.info.port_guid);
    }
    std::vector<uint8_t> no_link(mad::kLinkRecord.bytes);
    mad::SaTable links = mad::get_table(*engine_, local_.sm_lid, mad::kLinkRecord, 0, no_link);
    for (const auto& rec : links.records)
      keys_.learn_link(static_cast<uint16_t>(mad::get_field(mad::kLinkRecord, rec, "FromLID")),
                       static_cast<uint8_t>(mad::get_field(mad::kLinkRecord, rec, "FromPort")),
                       static_cast<uint16_t>(mad::get_field(mad::kLinkRecord, rec, "ToLID")));
  } catch (const mad::MadError&) {
    // No answer or no records: the ports' NodeInfo answers tell the rest.
  }
}

mad::Mad MadClient::gmp(uint16_t lid, uint8_t mgmt_class, uint8_t method, const mad::AttrDef& a,
                        uint32_t mod, const mad::Mad* body) {
  mad::Mad m = mad::make_gmp(mgmt_class, method, a, mod);
  if (body) std::copy(body->data().begin(), body->data().end(), m.data().begin());
  return engine_->call(m, mad::gsi_address(lid),
                       std::string(a.name) + " from lid " + std::to_string(lid));
}

mad::Route MadClient::name_route(const mad::Target& t) {
  NodeNameMap names = load_node_name_map(name_map_);
  auto mapped = [&](uint64_t guid) {
    auto it = names.names.find(guid);
    return it == names.names.end() ? std::string() : it->second;
  };
  mad::Route r;
  if (local_.sm_lid) {
    std::vector<NodeRecord> records;
    try {
      std::vector<uint8_t> none(mad::kNodeRecord.bytes);
      mad::SaTable all = mad::get_table(*engine_, local_.sm_lid, mad::kNodeRecord, 0, none);
      if (mad::cut_warning(all, mad::kNodeRecord).empty())
        for (const auto& rec : all.records) records.push_back(NodeRecord::from(rec));
    } catch (const mad::MadError&) {
      records.clear();  // no answer: discovery below
    }
    if (!records.empty()) {
      std::vector<NamedNode> nodes;
      for (const NodeRecord& n : records)
        nodes.push_back({n.info.node_guid, n.description, mapped(n.info.node_guid)});
      r.lid = records[find_named(nodes, t.name)].lid;
      if (r.lid) return r;
    }
  }
  Discovery d = discover(*engine_);
  for (Node& n : d.fabric.nodes)
    if (std::string m = mapped(n.info.node_guid); !m.empty()) n.description = m;
  PortRef at = find_name(d.fabric, t.name);
  const Port* p = d.fabric.nodes[at.node].port(at.port);
  if (p && p->info && p->info->lid) {
    r.lid = p->info->lid;
    return r;
  }
  r.directed = true;
  r.path = d.fabric.nodes[at.node].path;
  return r;
}

std::optional<uint16_t> MadClient::node_guid_lid(uint64_t guid) {
  std::vector<uint8_t> example(mad::kNodeRecord.bytes);
  mad::set_field(mad::kNodeInfo, std::span(example).subspan(mad::kNodeRecordNodeInfo), "NodeGUID",
                 guid);
  mad::SaTable table;
  try {
    table = mad::get_table(*engine_, sm_lid(), mad::kNodeRecord,
                           mad::component_mask(mad::kNodeRecord, {"NodeGUID"}), example);
  } catch (const mad::MadError&) {
    return std::nullopt;  // no records, or no answer: the port's error stands
  }
  for (const auto& r : table.records) {
    NodeRecord n = NodeRecord::from(r);
    if (n.info.node_guid == guid) return n.lid;  // an SA may ignore the component
  }
  return std::nullopt;
}

uint16_t MadClient::sa_lid(const mad::Target& t) {
  switch (t.kind) {
    case mad::Target::Kind::Lid:
      return t.lid;
    case mad::Target::Kind::Dr:
      throw Error("the SA knows LIDs and GUIDs, not directed routes (" + t.text + ")");
    case mad::Target::Kind::Name: {
      mad::Route r = name_route(t);
      if (r.directed) throw Error(t.text + " has no LID for the SA to know it by");
      return r.lid;
    }
    case mad::Target::Kind::Guid:
    case mad::Target::Kind::Gid:
      break;
  }
  uint64_t guid = t.kind == mad::Target::Kind::Guid ? t.guid : mad::gid_guid(t.gid);
  std::vector<uint8_t> none(mad::kNodeRecord.bytes);
  mad::SaTable all = mad::get_table(*engine_, sm_lid(), mad::kNodeRecord, 0, none);
  std::vector<NodeRecord> records;
  for (const auto& r : all.records) records.push_back(NodeRecord::from(r));
  // A port GUID names that port's LID; a node GUID its first record's.
  for (const NodeRecord& r : records)
    if (r.info.port_guid == guid) return r.lid;
  for (const NodeRecord& r : records)
    if (r.info.node_guid == guid) return r.lid;
  std::string cut = mad::cut_warning(all, mad::kNodeRecord);
  throw Error("cannot resolve " + t.text + ": the SA has no such node or port" +
              (cut.empty() ? "" : " (" + cut + ")"));
}

std::vector<std::vector<uint8_t>> MadClient::sa_records(const mad::Target& t,
                                                        const mad::AttrDef& rec,
                                                        std::optional<uint8_t> port) {
  uint16_t lid = sa_lid(t);
  // Records about a node start with its LID (a PortInfoRecord's EndportLID).
  const char* lid_field = rec.fields[0].name;
  std::vector<uint8_t> example(rec.bytes);
  mad::set_field(rec, example, lid_field, lid);
  uint64_t mask = mad::component_mask(rec, {lid_field});
  if (port) {
    mad::set_field(rec, example, "PortNum", *port);
    mask |= mad::component_mask(rec, {"PortNum"});
  }
  std::vector<std::vector<uint8_t>> out;
  mad::SaTable table = mad::get_table(*engine_, sm_lid(), rec, mask, example);
  for (auto& r : table.records)
    if (mad::get_field(rec, r, lid_field) == lid &&
        (!port || mad::get_field(rec, r, "PortNum") == *port))
      out.push_back(std::move(r));
  std::string cut = mad::cut_warning(table, rec);
  if (out.empty())
    throw Error("the SA has no " + std::string(rec.name) + " for lid " + std::to_string(lid) +
                (port ? " port " + std::to_string(*port) : std::string()) +
                (cut.empty() ? "" : " (" + cut + ")"));
  return out;
}

}  // namespace rdma::ib
