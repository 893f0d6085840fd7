#include "lib/mad/target.h"

#include <arpa/inet.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/types.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

// An unsigned number, decimal or 0x hex, no sign or blank first.
bool target_number(const std::string& s, uint64_t max, uint64_t& out) {
  std::optional<uint64_t> v = view::parse_number(
      s, {.max = max, .c_bases = true, .blanks_and_sign = true, .not_first = "-+ "});
  if (!v) return false;
  out = *v;
  return true;
}

bool is_number(const std::string& s) {
  return !s.empty() && s[0] >= '0' && s[0] <= '9';
}

std::string gid_str(const std::array<uint8_t, 16>& g) {
  return gid_text(std::span(g));
}

void put_gid(std::span<uint8_t> attr, const FieldDef& f, const std::array<uint8_t, 16>& g) {
  std::copy(g.begin(), g.end(), attr.begin() + f.bit / 8);
}

}  // namespace

uint16_t parse_lid(const std::string& s) {
  uint64_t v = 0;
  if (!target_number(s, 0xffff, v) || v == 0)
    throw UsageError("invalid LID \"" + s + "\" (expected 1-49151, decimal or 0x hex)");
  // 0xffff is not a multicast LID but the permissive one (IBA 7.11.1).
  if (v >= kFirstMlid)
    throw UsageError("LID " + s + (v == 0xffff ? " is the permissive LID" : " is a multicast LID") +
                     "; a target needs a unicast LID");
  return static_cast<uint16_t>(v);
}

uint64_t parse_guid(const std::string& s) {
  uint64_t v = 0;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    if (s.size() > 2 && s.size() <= 18 && target_number(s, UINT64_MAX, v)) return v;
  } else if (s.size() == 19 && s[4] == ':' && s[9] == ':' && s[14] == ':') {
    std::string hex;
    for (char c : s)
      if (c != ':') hex += c;
    if (hex.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos)
      return *view::parse_number(hex, {.hex = true});
  }
  throw UsageError("invalid GUID \"" + s +
                   "\" (expected 0x0002c90300a1b2c3 or 0002:c903:00a1:b2c3)");
}

std::array<uint8_t, 16> parse_gid(const std::string& s) {
  std::array<uint8_t, 16> g{};
  if (inet_pton(AF_INET6, s.c_str(), g.data()) != 1)
    throw UsageError("invalid GID \"" + s + "\" (expected IPv6 form, e.g. fe80::2:c903:a1:b2c3)");
  return g;
}

std::vector<uint8_t> parse_path(const std::string& s) {
  std::vector<uint8_t> path;
  size_t start = 0;
  bool first = true;
  while (true) {
    size_t comma = s.find(',', start);
    std::string part =
        s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    uint64_t v = 0;
    if (!target_number(part, 255, v) || (v == 0 && !first))
      throw UsageError("invalid directed route \"" + s +
                       "\" (expected output ports like 0,1,4: 0 is the local port, then 1-255)");
    if (!(first && v == 0)) path.push_back(static_cast<uint8_t>(v));
    first = false;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (path.size() > kMaxHops)
    throw UsageError("directed route \"" + s + "\" has " + std::to_string(path.size()) +
                     " hops (at most " + std::to_string(kMaxHops) + ")");
  return path;
}

std::optional<Target> parse_target(const std::vector<std::string>& w, size_t& i) {
  if (i >= w.size()) return std::nullopt;
  const std::string& key = w[i];
  auto value = [&](const char* what) -> const std::string& {
    if (i + 1 >= w.size()) throw UsageError("\"" + key + "\" needs " + what);
    return w[i + 1];
  };
  Target t;
  if (is_number(key)) {
    t.lid = parse_lid(key);
    t.text = "lid " + std::to_string(t.lid);
    i += 1;
    return t;
  }
  if (key == "lid") {
    t.lid = parse_lid(value("a LID"));
    t.text = "lid " + std::to_string(t.lid);
  } else if (key == "guid") {
    t.kind = Target::Kind::Guid;
    t.guid = parse_guid(value("a GUID"));
    t.text = "guid " + guid_hex(t.guid);
  } else if (key == "gid") {
    t.kind = Target::Kind::Gid;
    t.gid = parse_gid(value("a GID"));
    t.text = "gid " + gid_str(t.gid);
  } else if (key == "name") {
    t = name_target(value("a node name"));
  } else if (key == "dr") {
    t.kind = Target::Kind::Dr;
    // "dr lid L PATH": a combined route, LID-routed to L and directed
    // from there (smpquery -c L PATH). "lid" is no path, so the words stay
    // one target where a command takes two ("route trace lid 1 dr 0,1").
    if (value("a directed route like 0,1,4") == "lid") {
      if (i + 3 >= w.size())
        throw UsageError("\"dr lid\" needs a LID and a directed route from it, like dr lid 4 0,1");
      t.lid = parse_lid(w[i + 2]);
      t.path = parse_path(w[i + 3]);
      t.text = "dr lid " + std::to_string(t.lid) + " " + w[i + 3];
      i += 4;
      return t;
    }
    t.path = parse_path(w[i + 1]);
    t.text = "dr " + w[i + 1];
  } else {
    return std::nullopt;
  }
  i += 2;
  return t;
}

Target name_target(const std::string& name) {
  if (name.empty()) throw UsageError("empty node name after \"name\"");
  Target t;
  t.kind = Target::Kind::Name;
  t.name = name;
  t.text = "name \"" + name + "\"";
  return t;
}

std::string route_text(const Route& r) {
  if (!r.directed) return "lid " + std::to_string(r.lid);
  std::string s = r.lid ? "dr lid " + std::to_string(r.lid) + " 0" : "dr 0";
  for (uint8_t p : r.path) s += "," + std::to_string(p);
  return s;
}

uint64_t gid_prefix(const std::array<uint8_t, 16>& gid) {
  return get_bits(gid, 0, 64);
}

uint64_t gid_guid(const std::array<uint8_t, 16>& gid) {
  return get_bits(gid, 64, 64);
}

std::array<uint8_t, 16> make_gid(uint64_t prefix, uint64_t guid) {
  std::array<uint8_t, 16> g{};
  set_bits(g, 0, 64, prefix);
  set_bits(g, 64, 64, guid);
  return g;
}

Route resolve(Engine& e, const LocalPort& local, const Target& t) {
  Route r;
  switch (t.kind) {
    case Target::Kind::Lid:
      r.lid = t.lid;
      return r;
    case Target::Kind::Dr:
      r.directed = true;
      r.lid = t.lid;  // a combined route's start, 0 for the local port
      r.path = t.path;
      return r;
    case Target::Kind::Name:
      throw Error("cannot resolve " + t.text + " without the fabric's node records");
    case Target::Kind::Guid:
    case Target::Kind::Gid:
      break;
  }
  // A GUID's port in our subnet: the local prefix and the GUID.
  std::array<uint8_t, 16> dgid =
      t.kind == Target::Kind::Guid ? make_gid(local.gid_prefix, t.guid) : t.gid;
  std::array<uint8_t, 16> sgid = make_gid(local.gid_prefix, local.port_guid);
  if (local.sm_lid == 0)
    throw Error("cannot resolve " + t.text +
                ": no subnet manager (the local port has no SM LID); use a LID or \"dr\"");
  Mad q = make_gmp(kClassSa, kGet, kPathRecord, 0);
  q.set(hdr::kCompMask, component_mask(kPathRecord, {"DGID", "SGID"}));
  put_gid(q.data(), *find_field(kPathRecord, "DGID"), dgid);
  put_gid(q.data(), *find_field(kPathRecord, "SGID"), sgid);
  std::string what =
      "PathRecord for " + t.text + " from the SA at lid " + std::to_string(local.sm_lid);
  Mad reply;
  try {
    reply = e.call(q, gsi_address(local.sm_lid), what);
  } catch (const MadError& err) {
    const Failure& f = err.failure;
    if (f.kind == Failure::Kind::Timeout)
      throw Error("cannot resolve " + t.text + ": the subnet manager (SA at lid " +
                  std::to_string(local.sm_lid) + ") does not answer; is one running?");
    if (f.kind == Failure::Kind::Status && (f.status >> 8) == kSaNoRecords)
      throw NoSuchPort("cannot resolve " + t.text + ": no such port in the subnet");
    throw;
  }
  r.lid = static_cast<uint16_t>(reply.get_attr(kPathRecord, "DLID"));
  if (r.lid == 0) throw Error("cannot resolve " + t.text + ": the SA answered LID 0");
  return r;
}

}  // namespace rdma::mad
