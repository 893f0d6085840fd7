// rdma sa show KIND [filters]: the subnet administrator's records (IBA 15.2.5)
// as saquery reads them, one GetTable each; tables longer than one MAD come
// whole through RMPP (the kernel reassembles them for the SA agent).
#include "lib/mad/sa.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "lib/error.h"
#include "lib/ib/sa_records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void sa_help(Ctx& c) {
  std::fputs(
      "Usage: rdma sa show { nodes | ports | links | switches | sm | lft } [ lid LID ]\n"
      "                    [ guid GUID ] [ port N ] [ name DESCRIPTION ] [via DEV/PORT]\n"
      "       rdma sa show paths [ SRC ] DST [ pkey PKEY ] [ sl SL ] [ mtu MTU ] [ rate CODE ]\n"
      "                    [via DEV/PORT]\n"
      "where  SRC, DST := { lid LID | LID | guid GUID | gid GID }\n"
      "SRC is the local port when only DST is given.\n",
      c.help_out);
}

struct SaWords {
  const ib::SaKind* kind = nullptr;
  std::vector<mad::Target> targets;
  std::optional<uint16_t> lid;
  std::optional<uint64_t> guid;
  std::optional<uint8_t> port;
  std::optional<std::string> name;
  std::optional<uint16_t> pkey;
  std::optional<uint8_t> sl, mtu, rate;
  std::string via;
};

uint64_t number(const std::string& s, uint64_t max, const char* what) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (s.empty() || s[0] == '-' || *end || errno || v > max)
    throw UsageError("invalid " + std::string(what) + " \"" + s + "\"");
  return v;
}

uint8_t mtu_code(const std::string& s) {
  static const std::map<std::string, uint8_t> kMtu = {
      {"256", 1}, {"512", 2}, {"1024", 3}, {"2048", 4}, {"4096", 5}};
  auto it = kMtu.find(s);
  if (it == kMtu.end())
    throw UsageError("invalid MTU \"" + s + "\" (256, 512, 1024, 2048 or 4096)");
  return it->second;
}

SaWords sa_words(Ctx& c) {
  std::vector<std::string> all;
  while (!c.args.empty()) all.push_back(c.args.next());
  SaWords w;
  if (all.empty())
    throw UsageError("missing record type (nodes, ports, links, paths, switches, sm or lft)");
  w.kind = ib::find_sa_kind(all[0]);
  if (!w.kind)
    throw UsageError("unknown record type \"" + all[0] +
                     "\" (nodes, ports, links, paths, switches, sm or lft)");
  bool paths = w.kind->record == &mad::kPathRecord;
  for (size_t i = 1; i < all.size();) {
    const std::string& k = all[i];
    if (paths && k != "pkey" && k != "sl" && k != "mtu" && k != "rate" && k != "via") {
      if (std::optional<mad::Target> t = mad::parse_target(all, i)) {
        if (t->kind == mad::Target::Kind::Dr)
          throw UsageError("a path runs between LIDs or GIDs; \"" + t->text +
                           "\" is a directed route");
        if (w.targets.size() == 2) throw UsageError("unexpected argument \"" + t->text + "\"");
        w.targets.push_back(*t);
        continue;
      }
    }
    if (i + 1 >= all.size()) throw UsageError("\"" + k + "\" needs a value");
    const std::string& v = all[i + 1];
    i += 2;
    if (k == "via") {
      w.via = check_via(v);
    } else if (!paths && k == "lid") {
      w.lid = mad::parse_lid(v);
    } else if (!paths && k == "guid") {
      w.guid = mad::parse_guid(v);
    } else if (!paths && k == "port") {
      w.port = parse_port(v);
    } else if (!paths && k == "name") {
      w.name = v;
    } else if (paths && k == "pkey") {
      w.pkey = static_cast<uint16_t>(number(v, 0xffff, "P_Key"));
    } else if (paths && k == "sl") {
      w.sl = static_cast<uint8_t>(number(v, 15, "SL"));
    } else if (paths && k == "mtu") {
      w.mtu = mtu_code(v);
    } else if (paths && k == "rate") {
      w.rate = static_cast<uint8_t>(number(v, 63, "rate code"));
    } else {
      throw UsageError("unknown sa show " + std::string(w.kind->word) + " argument \"" + k + "\"");
    }
  }
  if (!paths && w.port && w.kind->port_bit < 0)
    throw UsageError(std::string(w.kind->word) + " records have no port to filter on");
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
                                        uint64_t mask, std::span<const uint8_t> example) {
  mad::SaTable t = mad::get_table(s.engine(), sa_lid(s), rec, mask, example);
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
  auto recs = table(c, s, mad::kPathRecord, mask, q.data().first(mad::kPathRecord.bytes));
  view::Record out;
  for (const auto& r : recs) {
    out.clear();
    ib::sa_record(*w.kind, r, c.opt.details, out);
    c.out.record(out);
  }
}

void sa_show(Ctx& c) {
  SaWords w = sa_words(c);
  MadSession s(c, w.via);
  if (w.kind->record == &mad::kPathRecord) return show_paths(c, s, w);
  // guid and name select nodes: their LIDs, from the NodeRecords.
  std::optional<std::set<uint16_t>> lids;
  if (w.guid || w.name) {
    std::vector<uint8_t> none(mad::kNodeRecord.bytes);
    lids.emplace();
    for (const auto& r : table(c, s, mad::kNodeRecord, 0, none)) {
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
  std::vector<uint8_t> example(rec.bytes);
  uint64_t mask = 0;
  if (w.lid && w.kind->lid_bit >= 0) {
    mad::set_bits(example, 0, 16, *w.lid);
    mask |= uint64_t{1} << w.kind->lid_bit;
  }
  if (w.port) {
    mad::set_bits(example, 16, 8, *w.port);
    mask |= uint64_t{1} << w.kind->port_bit;
  }
  view::Record out;
  for (const auto& r : table(c, s, rec, mask, example)) {
    uint16_t lid = ib::sa_record_lid(*w.kind, r);
    // Filters again here: an SA may ignore a component it does not index.
    if (w.lid && lid != *w.lid) continue;
    if (w.port && mad::get_bits(r, 16, 8) != *w.port) continue;
    if (lids && !lids->count(lid)) continue;
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
