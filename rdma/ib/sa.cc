// rdma sa show KIND [filters]: the subnet administrator's records (IBA 15.2.5)
// as saquery reads them, one GetTable each; tables longer than one MAD come
// whole through RMPP (the kernel reassembles them for the SA agent).
#include "lib/mad/sa.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "lib/error.h"
#include "lib/ib/alias_guid.h"
#include "lib/ib/cache.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/sa_query.h"
#include "lib/ib/sa_records.h"
#include "lib/ib/saved_sa.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "rdma/ib/sa_smkey.h"
#include "rdma/ib/saved_target.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void sa_help(Ctx& c) {
  std::fputs(
      "Usage: rdma sa show { nodes | ports | smports | links | switches | sm | lft | mft |\n"
      "                      guids | pkeys | sl2vl | vlarb } [ lid LID ] [ guid GUID ]\n"
      "                    [ name DESCRIPTION ] [ port N ] [ block N ] [ position N ]\n"
      "                    [ in_port N ] [ out_port N ] [ smkey KEY ] [ via DEV/PORT ]\n"
      "       rdma sa show paths [ SRC ] DST [ pkey PKEY ] [ sl SL ] [ mtu [<>=]MTU ]\n"
      "                    [ rate [<>=]CODE ] [ pkt_lifetime [<>=]N ] [ reversible 0|1 ]\n"
      "                    [ numb_path N ] [ qos_class N ] [ tclass N ] [ flow_label N ]\n"
      "                    [ hop_limit N ] [ service_id ID ] [ via DEV/PORT ]\n"
      "       rdma sa show mcast [ mgid GID ] [ mlid MLID ] [ guid PORT_GUID ] [ via DEV/PORT ]\n"
      "       rdma sa show inform [ gid SUBSCRIBER_GID ] [ via DEV/PORT ]\n"
      "       rdma sa show services [ id SERVICE_ID ] [ guid PORT_GUID ] [ name NAME ]\n"
      "                    [ via DEV/PORT ]\n"
      "       rdma sa show classportinfo [ via DEV/PORT ]\n"
      "       rdma sa show { nodes | ports | links } [ filters ] from FILE\n"
      "       rdma sa set guid TARGET index N GUID [ smkey KEY ] [ via DEV/PORT ]\n"
      "       rdma sa delete guid TARGET index N [ GUID ] [ smkey KEY ] [ via DEV/PORT ]\n"
      "where  SRC, DST, TARGET := { lid LID | LID | guid GUID | gid GID }\n"
      "       (SRC and DST also name NAME: a node description or node-name-map name)\n"
      "Every show also takes KEY=VALUE: the records whose field KEY (as printed) is VALUE.\n"
      "SRC is the local port when only DST is given; smkey x reads the key from the terminal.\n",
      c.help_out);
}

std::vector<std::string> kind_words() {
  std::vector<std::string> all;
  for (const ib::SaKind& k : ib::sa_kinds()) all.push_back(k.word);
  return all;
}

uint64_t number(const std::string& s, uint64_t max, const char* what) {
  std::optional<uint64_t> v = view::parse_number(s, {.max = max, .c_bases = true});
  if (!v) throw UsageError("invalid " + std::string(what) + " \"" + s + "\"");
  return *v;
}

// smkey KEY; "x": typed at the terminal, unseen (saquery --smkey x).
uint64_t sm_key_word(const std::string& v) {
  if (v == "x") return number(read_secret_from_tty("SM_Key: "), ~uint64_t{0}, "SM_Key");
  return number(v, ~uint64_t{0}, "SM_Key");
}

uint8_t mtu_code(const std::string& s) {
  static constexpr std::pair<std::string_view, uint8_t> kMtu[] = {
      {"256", 1}, {"512", 2}, {"1024", 3}, {"2048", 4}, {"4096", 5}};
  auto it =
      std::find_if(std::begin(kMtu), std::end(kMtu), [&](const auto& e) { return e.first == s; });
  if (it == std::end(kMtu))
    throw UsageError("invalid MTU \"" + s + "\" (256, 512, 1024, 2048 or 4096)");
  return it->second;
}

// The words a kind takes, for messages.
std::vector<std::string> filter_words(const ib::SaKind& k) {
  std::vector<std::string> all;
  if (k.lid_bit >= 0) all = {"lid", "guid", "name"};
  for (const ib::SaFilter& f : k.filters) all.push_back(f.word);
  all.push_back("smkey");
  return all;
}

// A filter word's value.
ib::SaFilterValue filter_value(const ib::SaFilter& f, const std::string& v) {
  using V = ib::SaFilter::Value;
  ib::SaFilterValue x;
  switch (f.value) {
    case V::Number:
      x.number = number(v, f.max, f.word);
      break;
    case V::Gid:
      x.gid = mad::parse_gid(v);
      break;
    case V::Guid:  // the prefix comes from the local port (SaQuery::complete)
      x.number = mad::parse_guid(v);
      break;
    case V::Name:
      x.name = v;
      break;
  }
  return x;
}

// The selector words of paths: a value with its selector (take_sa_selector).
ib::SaSelected selected(std::string v, const std::string& k) {
  ib::SaSelected x;
  x.selector = ib::take_sa_selector(v);
  if (k == "mtu")
    x.value = mtu_code(v);
  else if (k == "rate")
    x.value = static_cast<uint8_t>(number(v, 63, "rate code"));
  else
    x.value = static_cast<uint8_t>(number(v, 63, "packet lifetime"));
  return x;
}

// `KIND [filters]` into the question; via is taken before.
ib::SaQuery sa_query(Args& args) {
  if (args.empty()) throw UsageError("missing record type (" + or_list(kind_words()) + ")");
  std::string word = args.next();
  const ib::SaKind* kind = ib::find_sa_kind(word);
  if (!kind) throw UsageError(unknown_word("record type", word, kind_words()));
  ib::SaQuery q(*kind);
  bool paths = q.paths();
  static constexpr std::string_view kSelected[] = {"mtu", "rate", "pkt_lifetime"};
  auto is_selected = [](const std::string& w) {
    return std::find(std::begin(kSelected), std::end(kSelected), w) != std::end(kSelected);
  };
  while (!args.empty()) {
    const std::string k = args.peek();
    const ib::SaFilter* f = ib::find_sa_filter(*kind, k);
    if (paths && !f && !is_selected(k) && k != "smkey" && k.find('=') == std::string::npos) {
      if (std::optional<mad::Target> t = args.target()) {
        if (t->kind == mad::Target::Kind::Dr)
          throw UsageError("a path runs between LIDs or GIDs; \"" + t->text +
                           "\" is a directed route");
        if (q.ends.size() == 2) throw UsageError("unexpected argument \"" + t->text + "\"");
        q.ends.push_back(*t);
        continue;
      }
    }
    if (size_t eq = k.find('='); eq != std::string::npos && !kind->get) {  // ibtool's KEY=VALUE
      args.next();
      q.add(ib::sa_field_match(*kind, k.substr(0, eq), k.substr(eq + 1)));
      continue;
    }
    bool node_word = kind->lid_bit >= 0 && (k == "lid" || k == "guid" || k == "name");
    bool path_word = paths && is_selected(k);
    if (!f && !node_word && !path_word && k != "smkey") {
      std::vector<std::string> words = filter_words(*kind);
      if (paths) words.insert(words.end(), std::begin(kSelected), std::end(kSelected));
      if (!kind->get) words.push_back("KEY=VALUE");
      throw UsageError(unknown_word("sa show " + std::string(kind->word) + " argument", k, words));
    }
    args.next();
    if (args.empty()) throw UsageError("\"" + k + "\" needs a value");
    const std::string v = args.next();
    if (k == "smkey") {
      q.sm_key = sm_key_word(v);
    } else if (f) {
      q.add(*f, filter_value(*f, v));
    } else if (k == "lid") {
      q.lid = mad::parse_lid(v);
    } else if (k == "guid") {
      q.guid = mad::parse_guid(v);
    } else if (k == "name") {
      q.name = v;
    } else if (k == "mtu") {
      q.path.mtu = selected(v, k);
    } else if (k == "rate") {
      q.path.rate = selected(v, k);
    } else {
      q.path.lifetime = selected(v, k);
    }
  }
  return q;
}

// One GetTable; a table cut short (an SA or transport without RMPP) is a
// warning and exit status 1, said once per command (warned: the record
// types said so far).
std::vector<std::vector<uint8_t>> table(Ctx& c, MadSession& s, const mad::AttrDef& rec,
                                        uint64_t mask, std::span<const uint8_t> example,
                                        uint64_t sm_key, std::set<const mad::AttrDef*>& warned,
                                        bool bitwise = false) {
  mad::SaTable t;
  try {
    t = mad::get_table(s.engine(), s.sm_lid(), rec, mask, example, sm_key, bitwise);
  } catch (const mad::MadError& e) {
    // opensm gives P_Key tables to trusted requesters only (IBA 15.4.1).
    if (ib::sa_needs_sm_key(rec, sm_key, e.failure))
      throw Error(std::string(e.what()) + "; the SA may answer P_Key tables only to a trusted " +
                  "requester: give its SM_Key with smkey KEY");
    throw;
  }
  if (std::string cut = mad::cut_warning(t, rec); !cut.empty()) {
    // Warned once (exit status 1 from then on).
    if (warned.insert(&rec).second) c.warn(cut);
  }
  return std::move(t.records);
}

void show_paths(Ctx& c, MadSession& s, ib::SaQuery& q) {
  std::set<const mad::AttrDef*> warned;
  // Ends by name (saquery's --src-to-dst names): the LID of the node the
  // NodeRecords or the node-name-map call so.
  std::vector<std::vector<uint8_t>> nodes;
  ib::NodeNameMap names;
  for (mad::Target& t : q.ends) {
    if (t.kind != mad::Target::Kind::Name) continue;
    if (nodes.empty()) {
      const ib::SaKind* nk = ib::find_sa_kind("nodes");
      std::vector<uint8_t> none(nk->record->bytes);
      nodes = table(c, s, *nk->record, 0, none, q.sm_key, warned);
      names = ib::load_node_name_map(c.opt.node_name_map);
    }
    std::optional<uint16_t> lid = ib::named_node_lid(nodes, t.name, names);
    if (!lid) throw Error("no node called \"" + t.name + "\" in the SA's NodeRecords");
    t.kind = mad::Target::Kind::Lid;
    t.lid = *lid;
  }
  ib::path_example(s.local(), q.ends, q.path, q.example, q.mask);
  auto recs = table(c, s, *q.kind->record, q.mask, q.example, q.sm_key, warned);
  view::Record out;
  for (const auto& r : recs) {
    if (!std::all_of(q.fields.begin(), q.fields.end(),
                     [&](const ib::SaFieldMatch& m) { return ib::sa_field_matches(m, r); }))
      continue;
    out.clear();
    ib::sa_record(*q.kind, r, c.opt.details, out, c.opt.show_keys);
    c.out.record(out);
  }
}

// from FILE: the records a saved fabric or topology file answers, no MAD
// sent, printed as live; what the file does not hold is left out and said
// once on stderr (as node show from FILE).
void sa_show_saved(Ctx& c, ib::SaQuery& q, const std::string& file) {
  if (q.sm_key) throw UsageError("\"smkey\" is the SA's: not with \"from FILE\"");
  ib::FabricFile type;
  ib::Fabric f = ib::load_fabric(file, &type);
  const bool topology = type == ib::FabricFile::Topology;
  ib::SavedSa saved = ib::saved_sa_records(f, *q.kind, topology, c.opt.details);
  // guid and name select nodes by their NodeRecords: those just built when
  // the records shown are NodeRecords, else built for this.
  std::optional<std::set<uint16_t>> lids;
  const ib::SaKind* nodes = ib::find_sa_kind("nodes");
  if ((q.guid || q.name) && q.kind == nodes)
    lids = ib::node_record_lids(saved.records, q.guid, q.name);
  else if (q.guid || q.name)
    lids =
        ib::node_record_lids(ib::saved_sa_records(f, *nodes, topology, 0).records, q.guid, q.name);
  q.complete(0);
  ib::NodeNameMap names;
  if (q.kind == nodes) names = ib::load_node_name_map(c.opt.node_name_map);
  view::Record out;
  for (const auto& r : saved.records) {
    if (!q.answers(r, lids)) continue;
    out.clear();
    ib::saved_sa_record(*q.kind, saved, r, c.opt.details, out, c.opt.show_keys);
    if (!names.names.empty())
      ib::rename_description(names, ib::NodeRecord::from(r).info.node_guid, out);
    c.out.record(out);
  }
  note_not_held(c, file, saved.missing);
}

void sa_show(Ctx& c) {
  FabricSource src = c.args.take_source();
  ib::SaQuery q = sa_query(c.args);
  if (!src.from.empty()) {
    if (!src.via.empty()) throw UsageError("\"from FILE\" reads a file: not with \"via\"");
    return sa_show_saved(c, q, src.from);
  }
  MadSession s(c, src.via);
  if (q.paths()) return show_paths(c, s, q);
  view::Record out;
  if (q.kind->get) {
    std::vector<uint8_t> a = mad::get_one(s.engine(), s.sm_lid(), *q.kind->record);
    mad::decode(*q.kind->record, a, c.opt.details, out, {.show_keys = c.opt.show_keys});
    c.out.record(out);
    return;
  }
  // guid and name select nodes: their LIDs, from the NodeRecords.
  std::optional<std::set<uint16_t>> lids;
  std::set<const mad::AttrDef*> warned;
  const ib::SaKind* nodes = ib::find_sa_kind("nodes");
  if (q.guid || q.name) {
    std::vector<uint8_t> none(nodes->record->bytes);
    lids = ib::node_record_lids(table(c, s, *nodes->record, 0, none, q.sm_key, warned), q.guid,
                                q.name);
  }
  q.complete(s.local().gid_prefix);
  ib::NodeNameMap names;
  if (q.kind == nodes) names = ib::load_node_name_map(c.opt.node_name_map);
  auto show = [&](const ib::SaQuery& ask) {
    for (auto& r :
         table(c, s, *ask.kind->record, ask.mask, ask.example, ask.sm_key, warned, ask.bitwise)) {
      ib::sa_fix_record(*ask.kind, r);
      if (!ask.answers(r, lids)) continue;
      out.clear();
      ib::sa_record(*ask.kind, r, c.opt.details, out, c.opt.show_keys);
      if (!names.names.empty())
        ib::rename_description(names, ib::NodeRecord::from(r).info.node_guid, out);
      c.out.record(out);
    }
  };
  if (q.kind->cap_bits.empty()) return show(q);
  // smports: a table per CapabilityMask bit, as saquery -s lists them.
  for (uint32_t bit : q.kind->cap_bits) {
    ib::SaQuery ask = q;
    ask.ask_cap_bit(bit);
    show(ask);
  }
}

// sa set guid / sa delete guid: an alias GUID of the target's port, by
// SubnAdmSet / SubnAdmDelete of its GUIDInfoRecord; the record the SA
// answers with, as `sa show guids` prints it.
void sa_modify_guid(Ctx& c, ib::GuidChange how) {
  const bool set = how == ib::GuidChange::Set;
  const char* verb = set ? "set" : "delete";
  std::string kind = c.args.need("record type");
  if (!matches(kind, "guid") && !matches(kind, "guids"))
    throw UsageError(unknown_word("sa " + std::string(verb) + " record", kind, {"guid"}));
  std::string via = c.args.take_via();
  std::optional<mad::Target> target = c.args.target();
  if (!target) throw UsageError("missing target (lid N, guid G or gid G)");
  if (target->kind == mad::Target::Kind::Dr)
    throw UsageError("the SA knows LIDs and GUIDs, not directed routes (" + target->text + ")");
  ib::AliasGuid g;
  std::optional<uint64_t> guid;
  bool index = false;
  uint64_t sm_key = 0;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (k == "index") {
      // GUIDCap is 8 bits: entries 0-254; 0 is the port GUID (the SA refuses it).
      g.index =
          static_cast<unsigned>(number(c.args.need_value(k, "GUID index"), 254, "GUID index"));
      index = true;
    } else if (k == "smkey") {
      sm_key = sm_key_word(c.args.need_value(k, "SM_Key"));
    } else if (!guid) {
      guid = mad::parse_guid(k);
    } else {
      throw UsageError(
          unknown_word("sa " + std::string(verb) + " guid argument", k, {"index", "smkey"}));
    }
  }
  if (!index) throw UsageError("missing \"index N\" (the GUID's place in the port's table)");
  if (set && !guid) throw UsageError("missing GUID to set");
  g.guid = guid.value_or(0);
  MadSession s(c, via);
  g.lid = s.sa_lid(*target);
  // -d: the SubnAdmSet/Delete as sent and received (-dd shows every MAD).
  if (c.opt.details == 1) s.engine().trace = ib::print_trace(c.err, c.opt.show_keys);
  std::vector<uint8_t> answer = ib::change_alias_guid(s, how, g, sm_key);
  view::Record out;
  ib::sa_record(*ib::find_sa_kind("guids"), answer, c.opt.details, out, c.opt.show_keys);
  c.out.record(out);
  // opensm clears an entry it refuses (a GUID another port has) in its answer.
  if (set && ib::alias_guid_in(answer, g.index) != g.guid)
    throw Error("the SA did not set GUID " + mad::guid_hex(g.guid) + " at index " +
                std::to_string(g.index) + " (it answers " +
                mad::guid_hex(ib::alias_guid_in(answer, g.index)) + "; a GUID another port has?)");
}

void sa_set(Ctx& c) {
  sa_modify_guid(c, ib::GuidChange::Set);
}

void sa_delete(Ctx& c) {
  sa_modify_guid(c, ib::GuidChange::Delete);
}

}  // namespace

void cmd_sa(Ctx& c) {
  static constexpr Cmd kTable[] = {{nullptr, sa_help}, {"show", sa_show},     {"list", sa_show},
                                   {"set", sa_set},    {"delete", sa_delete}, {"help", sa_help}};
  dispatch(c, kTable, "sa command");
}

}  // namespace rdma
