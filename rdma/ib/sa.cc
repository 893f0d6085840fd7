// rdma sa show KIND [filters]: the subnet administrator's records (IBA 15.2.5)
// as saquery reads them, one GetTable each; tables longer than one MAD come
// whole through RMPP (the kernel reassembles them for the SA agent).
#include "lib/mad/sa.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "lib/error.h"
#include "lib/ib/sa_query.h"
#include "lib/ib/sa_records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void sa_help(Ctx& c) {
  std::fputs(
      "Usage: rdma sa show { nodes | ports | links | switches | sm | lft | guids | pkeys |\n"
      "                      sl2vl | vlarb } [ lid LID ] [ guid GUID ] [ name DESCRIPTION ]\n"
      "                    [ port N ] [ block N ] [ in_port N ] [ out_port N ] [ smkey KEY ]\n"
      "                    [ via DEV/PORT ]\n"
      "       rdma sa show paths [ SRC ] DST [ pkey PKEY ] [ sl SL ] [ mtu MTU ] [ rate CODE ]\n"
      "                    [ via DEV/PORT ]\n"
      "       rdma sa show mcast [ mgid GID ] [ mlid MLID ] [ guid PORT_GUID ] [ via DEV/PORT ]\n"
      "       rdma sa show services [ id SERVICE_ID ] [ guid PORT_GUID ] [ name NAME ]\n"
      "                    [ via DEV/PORT ]\n"
      "       rdma sa show classportinfo [ via DEV/PORT ]\n"
      "where  SRC, DST := { lid LID | LID | guid GUID | gid GID }\n"
      "SRC is the local port when only DST is given.\n",
      c.help_out);
}

constexpr const char* kKindWords =
    "nodes, ports, links, paths, switches, sm, lft, services, mcast, guids, pkeys, sl2vl, vlarb "
    "or classportinfo";

struct SaWords {
  const ib::SaKind* kind = nullptr;
  std::vector<mad::Target> targets;
  // Node selectors of records about a node (lid_bit >= 0).
  std::optional<uint16_t> lid;
  std::optional<uint64_t> guid;
  std::optional<std::string> name;
  // The kind's own filters: their values in example, their bits in mask.
  std::vector<const ib::SaFilter*> filters;
  std::vector<uint8_t> example;
  uint64_t mask = 0;
  std::optional<uint16_t> pkey;
  std::optional<uint8_t> sl, mtu, rate;
  uint64_t sm_key = 0;
  std::string via;
};

uint64_t number(const std::string& s, uint64_t max, const char* what) {
  std::optional<uint64_t> v = parse_number(s, {.max = max, .c_bases = true});
  if (!v) throw UsageError("invalid " + std::string(what) + " \"" + s + "\"");
  return *v;
}

uint8_t mtu_code(const std::string& s) {
  static const std::map<std::string, uint8_t> kMtu = {
      {"256", 1}, {"512", 2}, {"1024", 3}, {"2048", 4}, {"4096", 5}};
  auto it = kMtu.find(s);
  if (it == kMtu.end())
    throw UsageError("invalid MTU \"" + s + "\" (256, 512, 1024, 2048 or 4096)");
  return it->second;
}

// The words a kind takes, for messages.
std::string filter_words(const ib::SaKind& k) {
  std::string all = k.lid_bit >= 0 ? "lid, guid, name" : "";
  for (const ib::SaFilter& f : k.filters) all += (all.empty() ? "" : ", ") + std::string(f.word);
  return all.empty() ? "none" : all;
}

// A filter word's value into the example record.
void put_filter(SaWords& w, const ib::SaFilter& f, const std::string& v) {
  using V = ib::SaFilter::Value;
  ib::SaFilterValue x;
  switch (f.value) {
    case V::Number:
      x.number = number(v, f.max, f.word);
      break;
    case V::Gid:
      x.gid = mad::parse_gid(v);
      break;
    case V::Guid:  // the prefix comes from the local port (sa_show)
      x.number = mad::parse_guid(v);
      break;
    case V::Name:
      x.name = v;
      break;
  }
  ib::put_sa_filter(*w.kind, f, x, w.example, w.mask);
  w.filters.push_back(&f);
}

SaWords sa_words(Ctx& c) {
  SaWords w;
  if (c.args.empty()) throw UsageError(std::string("missing record type (") + kKindWords + ")");
  std::string kind = c.args.next();
  w.kind = ib::find_sa_kind(kind);
  if (!w.kind) throw UsageError("unknown record type \"" + kind + "\" (" + kKindWords + ")");
  w.example.assign(w.kind->record->bytes, 0);
  bool paths = w.kind->record == &mad::kPathRecord;
  while (!c.args.empty()) {
    const std::string k = c.args.peek();
    if (paths && k != "pkey" && k != "sl" && k != "mtu" && k != "rate" && k != "via" &&
        k != "smkey") {
      if (std::optional<mad::Target> t = c.args.target()) {
        if (t->kind == mad::Target::Kind::Dr)
          throw UsageError("a path runs between LIDs or GIDs; \"" + t->text +
                           "\" is a directed route");
        if (w.targets.size() == 2) throw UsageError("unexpected argument \"" + t->text + "\"");
        w.targets.push_back(*t);
        continue;
      }
    }
    const ib::SaFilter* f = paths ? nullptr : ib::find_sa_filter(*w.kind, k);
    bool node_word = !paths && w.kind->lid_bit >= 0 && (k == "lid" || k == "guid" || k == "name");
    bool path_word = paths && (k == "pkey" || k == "sl" || k == "mtu" || k == "rate");
    if (!f && !node_word && !path_word && k != "via" && k != "smkey")
      throw UsageError("unknown sa show " + std::string(w.kind->word) + " argument \"" + k +
                       "\" (filters: " + (paths ? "pkey, sl, mtu, rate" : filter_words(*w.kind)) +
                       ")");
    c.args.next();
    if (c.args.empty()) throw UsageError("\"" + k + "\" needs a value");
    const std::string v = c.args.next();
    if (k == "via") {
      w.via = check_via(v);
    } else if (k == "smkey") {
      w.sm_key = number(v, ~uint64_t{0}, "SM_Key");
    } else if (f) {
      put_filter(w, *f, v);
    } else if (k == "lid") {
      w.lid = mad::parse_lid(v);
    } else if (k == "guid") {
      w.guid = mad::parse_guid(v);
    } else if (k == "name") {
      w.name = v;
    } else if (k == "pkey") {
      w.pkey = static_cast<uint16_t>(number(v, 0xffff, "P_Key"));
    } else if (k == "sl") {
      w.sl = static_cast<uint8_t>(number(v, 15, "SL"));
    } else if (k == "mtu") {
      w.mtu = mtu_code(v);
    } else {
      w.rate = static_cast<uint8_t>(number(v, 63, "rate code"));
    }
  }
  return w;
}

// One GetTable; a table cut short (an SA or transport without RMPP) is a
// warning and exit status 1, said once per command (warned: the record
// types said so far).
std::vector<std::vector<uint8_t>> table(Ctx& c, MadSession& s, const mad::AttrDef& rec,
                                        uint64_t mask, std::span<const uint8_t> example,
                                        uint64_t sm_key, std::set<const mad::AttrDef*>& warned) {
  mad::SaTable t;
  try {
    t = mad::get_table(s.engine(), s.sm_lid(), rec, mask, example, sm_key);
  } catch (const mad::MadError& e) {
    // opensm gives P_Key tables to trusted requesters only (IBA 15.4.1).
    if (&rec == &mad::kPKeyTableRecord && !sm_key && e.failure.kind == mad::Failure::Kind::Status &&
        e.failure.status == mad::kSaStatusReqInvalid)
      throw Error(std::string(e.what()) + "; the SA may answer P_Key tables only to a trusted " +
                  "requester: give its SM_Key with smkey KEY");
    throw;
  }
  if (std::string cut = mad::cut_warning(t, rec); !cut.empty()) {
    if (warned.insert(&rec).second) std::fprintf(c.err, "warning: %s\n", cut.c_str());
    c.status = 1;
  }
  return std::move(t.records);
}

void show_paths(Ctx& c, MadSession& s, const SaWords& w) {
  std::vector<uint8_t> example;
  uint64_t mask = 0;
  ib::path_example(s.local(), w.targets, {w.pkey, w.sl, w.mtu, w.rate}, example, mask);
  std::set<const mad::AttrDef*> warned;
  auto recs = table(c, s, mad::kPathRecord, mask, example, w.sm_key, warned);
  view::Record out;
  for (const auto& r : recs) {
    out.clear();
    ib::sa_record(*w.kind, r, c.opt.details, out, c.opt.show_keys);
    c.out.record(out);
  }
}

void sa_show(Ctx& c) {
  SaWords w = sa_words(c);
  MadSession s(c, w.via);
  if (w.kind->record == &mad::kPathRecord) return show_paths(c, s, w);
  view::Record out;
  if (w.kind->get) {
    std::vector<uint8_t> a = mad::get_one(s.engine(), s.sm_lid(), *w.kind->record);
    mad::decode(*w.kind->record, a, c.opt.details, out, c.opt.show_keys);
    c.out.record(out);
    return;
  }
  // guid and name select nodes: their LIDs, from the NodeRecords.
  std::optional<std::set<uint16_t>> lids;
  std::set<const mad::AttrDef*> warned;
  if (w.guid || w.name) {
    std::vector<uint8_t> none(mad::kNodeRecord.bytes);
    lids = ib::node_record_lids(table(c, s, mad::kNodeRecord, 0, none, w.sm_key, warned), w.guid,
                                w.name);
  }
  const mad::AttrDef& rec = *w.kind->record;
  if (w.lid) ib::put_sa_lid(*w.kind, w.example, w.mask, *w.lid);
  // A port GUID asks for the GID of the local subnet.
  for (const ib::SaFilter* f : w.filters)
    ib::put_sa_prefix(*w.kind, *f, w.example, s.local().gid_prefix);
  for (auto& r : table(c, s, rec, w.mask, w.example, w.sm_key, warned)) {
    ib::sa_fix_record(*w.kind, r);
    uint16_t lid = ib::sa_record_lid(*w.kind, r);
    // Filters again here: an SA may ignore a component it does not index.
    if (w.lid && lid != *w.lid) continue;
    if (lids && !lids->count(lid)) continue;
    if (!std::all_of(w.filters.begin(), w.filters.end(), [&](const ib::SaFilter* f) {
          return ib::sa_filter_matches(*w.kind, *f, r, w.example);
        }))
      continue;
    out.clear();
    ib::sa_record(*w.kind, r, c.opt.details, out, c.opt.show_keys);
    c.out.record(out);
  }
}

}  // namespace

void cmd_sa(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, sa_help}, {"show", sa_show}, {"list", sa_show}, {"help", sa_help}};
  dispatch(c, kTable, "sa command");
}

}  // namespace rdma
