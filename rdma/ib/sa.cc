// rdma sa show KIND [filters]: the subnet administrator's records (IBA 15.2.5)
// as saquery reads them, one GetTable each; tables longer than one MAD come
// whole through RMPP (the kernel reassembles them for the SA agent).
#include "lib/mad/sa.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "lib/error.h"
#include "lib/ib/sa_records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
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
  auto d = std::span(w.example);
  switch (f.value) {
    case V::Number:
      mad::set_bits(d, f.bit, f.width, number(v, f.max, f.word));
      break;
    case V::Gid: {
      std::array<uint8_t, 16> g = mad::parse_gid(v);
      std::copy(g.begin(), g.end(), d.begin() + f.bit / 8);
      break;
    }
    case V::Guid:  // the prefix comes from the local port (sa_show)
      mad::set_bits(d, f.bit, 64, mad::parse_guid(v));
      break;
    case V::Name:
      if (v.size() > f.width / 8u)
        throw UsageError("invalid " + std::string(f.word) + " \"" + v + "\" (at most " +
                         std::to_string(f.width / 8) + " bytes)");
      std::copy(v.begin(), v.end(), d.begin() + f.bit / 8);
      break;
  }
  w.mask |= uint64_t{1} << f.mask_bit;
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

uint16_t sa_lid(MadSession& s) {
  if (!s.local().sm_lid)
    throw Error("no subnet manager: local port " + s.local().ca + "/" +
                std::to_string(s.local().port) + " has no SM LID");
  return s.local().sm_lid;
}

// One GetTable; a table cut short (an SA or transport without RMPP) is a
// warning and exit status 1.
std::vector<std::vector<uint8_t>> table(Ctx& c, MadSession& s, const mad::AttrDef& rec,
                                        uint64_t mask, std::span<const uint8_t> example,
                                        uint64_t sm_key = 0) {
  mad::SaTable t;
  try {
    t = mad::get_table(s.engine(), sa_lid(s), rec, mask, example, sm_key);
  } catch (const mad::MadError& e) {
    // opensm gives P_Key tables to trusted requesters only (IBA 15.4.1).
    if (&rec == &mad::kPKeyTableRecord && !sm_key && e.failure.kind == mad::Failure::Kind::Status &&
        e.failure.status == mad::kSaStatusReqInvalid)
      throw Error(std::string(e.what()) + "; the SA may answer P_Key tables only to a trusted " +
                  "requester: give its SM_Key with smkey KEY");
    throw;
  }
  if (t.missing) {
    std::fprintf(c.err, "warning: the SA's %s table lacks %zu of its records (no RMPP?)\n",
                 rec.name, t.missing);
    c.status = 1;
  }
  return std::move(t.records);
}

// The paths' SGID/SLID and DGID/DLID from targets (IBA 15.2.5.16 mask bits).
void put_end(MadSession& s, const mad::Target& t, bool src, mad::Mad& q, uint64_t& mask) {
  auto d = q.data();
  if (t.kind == mad::Target::Kind::Lid) {
    q.set_attr(mad::kPathRecord, src ? "SLID" : "DLID", t.lid);
    mask |= src ? 1u << 5 : 1u << 4;
    return;
  }
  size_t bit = mad::find_field(mad::kPathRecord, src ? "SGID" : "DGID")->bit;
  if (t.kind == mad::Target::Kind::Gid) {
    std::copy(t.gid.begin(), t.gid.end(), d.begin() + bit / 8);
  } else {
    mad::set_bits(d, bit, 64, s.local().gid_prefix);
    mad::set_bits(d, bit + 64, 64, t.guid);
  }
  mask |= src ? 1u << 3 : 1u << 2;
}

void show_paths(Ctx& c, MadSession& s, const SaWords& w) {
  mad::Mad q;
  q.bytes[1] = mad::kClassSa;
  uint64_t mask = 0;
  if (w.targets.size() == 1) {
    mad::Target local;
    local.kind = mad::Target::Kind::Guid;
    local.guid = s.local().port_guid;
    put_end(s, local, true, q, mask);
  } else if (w.targets.size() == 2) {
    put_end(s, w.targets[0], true, q, mask);
  }
  if (!w.targets.empty()) put_end(s, w.targets.back(), false, q, mask);
  auto set = [&](const char* f, uint64_t v, int bit) {
    q.set_attr(mad::kPathRecord, f, v);
    mask |= uint64_t{1} << bit;
  };
  if (w.pkey) set("P_Key", *w.pkey, 13);
  if (w.sl) set("SL", *w.sl, 15);
  if (w.mtu) set("MTUSelector", 2, 16), set("MTU", *w.mtu, 17);
  if (w.rate) set("RateSelector", 2, 18), set("Rate", *w.rate, 19);
  auto recs = table(c, s, mad::kPathRecord, mask, q.data().first(mad::kPathRecord.bytes), w.sm_key);
  view::Record out;
  for (const auto& r : recs) {
    out.clear();
    ib::sa_record(*w.kind, r, c.opt.details, out);
    c.out.record(out);
  }
}

// A filter's component of a record equals the example's.
bool same(std::span<const uint8_t> rec, std::span<const uint8_t> example, const ib::SaFilter& f) {
  if (f.width <= 64)
    return mad::get_bits(rec, f.bit, f.width) == mad::get_bits(example, f.bit, f.width);
  return std::equal(rec.begin() + f.bit / 8, rec.begin() + (f.bit + f.width) / 8,
                    example.begin() + f.bit / 8);
}

void sa_show(Ctx& c) {
  SaWords w = sa_words(c);
  MadSession s(c, w.via);
  if (w.kind->record == &mad::kPathRecord) return show_paths(c, s, w);
  view::Record out;
  if (w.kind->get) {
    std::vector<uint8_t> a = mad::get_one(s.engine(), sa_lid(s), *w.kind->record);
    mad::decode(*w.kind->record, a, c.opt.details, out);
    c.out.record(out);
    return;
  }
  // guid and name select nodes: their LIDs, from the NodeRecords.
  std::optional<std::set<uint16_t>> lids;
  if (w.guid || w.name) {
    std::vector<uint8_t> none(mad::kNodeRecord.bytes);
    lids.emplace();
    for (const auto& r : table(c, s, mad::kNodeRecord, 0, none, w.sm_key)) {
      std::span<const uint8_t> ni = std::span(r).subspan(mad::kNodeRecordNodeInfo);
      uint64_t node_guid = mad::get_bits(ni, 96, 64), port_guid = mad::get_bits(ni, 160, 64);
      std::string desc(reinterpret_cast<const char*>(r.data()) + mad::kNodeRecordNodeDesc, 64);
      desc.resize(desc.find('\0') == std::string::npos ? 64 : desc.find('\0'));
      if (w.guid && *w.guid != node_guid && *w.guid != port_guid) continue;
      if (w.name && *w.name != desc) continue;
      lids->insert(static_cast<uint16_t>(mad::get_bits(r, 0, 16)));
    }
  }
  const mad::AttrDef& rec = *w.kind->record;
  if (w.lid) {
    mad::set_bits(w.example, 0, 16, *w.lid);
    w.mask |= uint64_t{1} << w.kind->lid_bit;
  }
  // A port GUID asks for the GID of the local subnet.
  for (const ib::SaFilter* f : w.filters)
    if (f->value == ib::SaFilter::Value::Guid)
      mad::set_bits(w.example, f->bit - 64, 64, s.local().gid_prefix);
  for (auto& r : table(c, s, rec, w.mask, w.example, w.sm_key)) {
    ib::sa_fix_record(*w.kind, r);
    uint16_t lid = ib::sa_record_lid(*w.kind, r);
    // Filters again here: an SA may ignore a component it does not index.
    if (w.lid && lid != *w.lid) continue;
    if (lids && !lids->count(lid)) continue;
    if (!std::all_of(w.filters.begin(), w.filters.end(),
                     [&](const ib::SaFilter* f) { return same(r, w.example, *f); }))
      continue;
    out.clear();
    ib::sa_record(*w.kind, r, c.opt.details, out);
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
