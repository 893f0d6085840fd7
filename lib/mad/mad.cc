#include "lib/mad/mad.h"

#include <algorithm>
#include <cstdio>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_cc.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kCommon[] = {
    hdr::kBaseVersion, hdr::kMgmtClass,     hdr::kClassVersion, hdr::kResponse, hdr::kMethod,
    hdr::kStatus,      hdr::kClassSpecific, hdr::kTid,          hdr::kAttrId,   hdr::kAttrMod,
};

constexpr FieldDef kSmpLid[] = {
    hdr::kBaseVersion, hdr::kMgmtClass, hdr::kClassVersion,  hdr::kResponse,
    hdr::kMethod,      hdr::kStatus,    hdr::kClassSpecific, hdr::kTid,
    hdr::kAttrId,      hdr::kAttrMod,   hdr::kMKey,
};

constexpr FieldDef kSmpDr[] = {
    hdr::kBaseVersion, hdr::kMgmtClass,  hdr::kClassVersion, hdr::kResponse, hdr::kMethod,
    hdr::kDirection,   hdr::kDrStatus,   hdr::kHopPointer,   hdr::kHopCount, hdr::kTid,
    hdr::kAttrId,      hdr::kAttrMod,    hdr::kMKey,         hdr::kDrSlid,   hdr::kDrDlid,
    hdr::kInitialPath, hdr::kReturnPath,
};

constexpr FieldDef kSa[] = {
    hdr::kBaseVersion, hdr::kMgmtClass,     hdr::kClassVersion, hdr::kResponse,   hdr::kMethod,
    hdr::kStatus,      hdr::kClassSpecific, hdr::kTid,          hdr::kAttrId,     hdr::kAttrMod,
    hdr::kRmppVersion, hdr::kRmppType,      hdr::kRmppFlags,    hdr::kRmppStatus, hdr::kSmKey,
    hdr::kAttrOffset,  hdr::kCompMask,
};

// Congestion control (annex A10.4.1): the CC_Key after the common header.
constexpr FieldDef kCc[] = {
    hdr::kBaseVersion, hdr::kMgmtClass, hdr::kClassVersion,  hdr::kResponse,
    hdr::kMethod,      hdr::kStatus,    hdr::kClassSpecific, hdr::kTid,
    hdr::kAttrId,      hdr::kAttrMod,   hdr::kCcKey,
};

}  // namespace

std::span<const FieldDef> header_fields(uint8_t mgmt_class) {
  switch (mgmt_class) {
    case kClassSmiLid:
      return kSmpLid;
    case kClassSmiDr:
      return kSmpDr;
    case kClassSa:
      return kSa;
    case kClassCc:
      return kCc;
    default:
      return kCommon;
  }
}

size_t data_offset(uint8_t mgmt_class) {
  return mgmt_class == kClassSa ? 56 : 64;
}

uint64_t Mad::get_attr(const AttrDef& a, const char* field) const {
  return get_field(a, data(), field);
}

void Mad::set_attr(const AttrDef& a, const char* field, uint64_t v) {
  set_field(a, data(), field, v);
}

Mad make_smp(const Route& r, uint8_t method, const AttrDef& a, uint32_t mod) {
  if (r.path.size() > kMaxHops)
    throw Error("directed route of " + std::to_string(r.path.size()) +
                " hops is too long (at most " + std::to_string(kMaxHops) + ")");
  // A combined route needs the requester's LID as DrSLID (combined_route.h).
  if (r.directed && r.lid)
    throw Error("a combined route (LID " + std::to_string(r.lid) +
                ", then directed) is not supported here");
  Mad m;
  m.set(hdr::kBaseVersion, 1);
  m.set(hdr::kMgmtClass, r.directed ? kClassSmiDr : kClassSmiLid);
  m.set(hdr::kClassVersion, 1);
  m.set(hdr::kMethod, method);
  m.set(hdr::kAttrId, a.id);
  m.set(hdr::kAttrMod, mod);
  if (r.directed) {
    m.set(hdr::kHopCount, r.path.size());
    m.set(hdr::kDrSlid, kPermissiveLid);
    m.set(hdr::kDrDlid, kPermissiveLid);
    for (size_t i = 0; i < r.path.size(); ++i)
      set_bits(m.bytes, hdr::kInitialPath.bit + (i + 1) * 8, 8, r.path[i]);
  }
  return m;
}

Address smp_address(const Route& r) {
  // A combined route's LID-routed part ends at its start LID.
  return {r.directed && !r.lid ? kPermissiveLid : r.lid, 0, 0};
}

Mad make_gmp(uint8_t mgmt_class, uint8_t method, const AttrDef& a, uint32_t mod) {
  Mad m;
  m.set(hdr::kBaseVersion, 1);
  m.set(hdr::kMgmtClass, mgmt_class);
  m.set(hdr::kClassVersion, mgmt_class == kClassSa || mgmt_class == kClassCc ? 2 : 1);
  m.set(hdr::kMethod, method);
  m.set(hdr::kAttrId, a.id);
  m.set(hdr::kAttrMod, mod);
  return m;
}

std::string status_text(uint16_t status, uint8_t mgmt_class) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  if (status & 0x1) add("busy");
  if (status & 0x2) add("redirect required");
  switch ((status >> 2) & 0x7) {
    case 0:
      break;
    case 1:
      add("bad version or class version");
      break;
    case 2:
      add("method not supported");
      break;
    case 3:
      add("method/attribute combination not supported");
      break;
    case 7:
      add("invalid attribute or attribute modifier value");
      break;
    default:
      add("invalid field code " + std::to_string((status >> 2) & 0x7));
      break;
  }
  unsigned cls = status >> 8;
  if (cls && mgmt_class == kClassSa) {
    static const char* const kSa[] = {"",
                                      "insufficient SA resources",
                                      "invalid SA request",
                                      "no records",
                                      "too many records",
                                      "invalid GID",
                                      "insufficient components"};
    add(cls < std::size(kSa) ? kSa[cls] : "SA error " + std::to_string(cls));
  } else if (cls) {
    add("class-specific error " + std::to_string(cls));
  }
  return out.empty() ? "success" : out;
}

std::string attr_name(uint8_t mgmt_class, uint16_t id) {
  const AttrDef* a = attr_by_id(mgmt_class, id);
  return a ? a->name : view::hex_text(id, 4);
}

std::optional<Failure> verify_reply(const Mad& request, std::span<const uint8_t> reply,
                                    const std::string& what, Mad& r) {
  auto malformed = [&](const char* field, const std::string& why) {
    Failure f{Failure::Kind::Malformed, 0, 0, "malformed reply to " + what + ": " + why};
    f.field = field;
    return f;
  };
  // A reply may end after its attribute (opensm's SA replies under ibsim
  // do); it must hold the header and the whole attribute.
  // A table may hold no record at all.
  const AttrDef* a = attr_by_id(request.mgmt_class(), request.get(hdr::kAttrId));
  size_t need = request.get(hdr::kMethod) == kSaGetTable ? data_offset(kClassSa)
                : a ? data_offset(request.mgmt_class()) + a->bytes
                    : kMadBytes;
  if (reply.size() < need)
    return malformed("length",
                     std::to_string(reply.size()) + " bytes, need " + std::to_string(need));
  r.bytes.fill(0);
  std::copy(reply.begin(), reply.begin() + std::min(reply.size(), kMadBytes), r.bytes.begin());
  if (r.get(hdr::kBaseVersion) != 1)
    return malformed("base version", "base version " + std::to_string(r.get(hdr::kBaseVersion)));
  if (r.mgmt_class() != request.mgmt_class())
    return malformed("class", "class " + view::hex_text(r.mgmt_class(), 4) + ", expected " +
                                  view::hex_text(request.mgmt_class(), 4));
  if (r.get(hdr::kClassVersion) != request.get(hdr::kClassVersion))
    return malformed("class version", "class version " + std::to_string(r.get(hdr::kClassVersion)) +
                                          ", expected " +
                                          std::to_string(request.get(hdr::kClassVersion)));
  // Get and Set are both answered by GetResp (0x81); others by method | 0x80.
  uint64_t expect = request.get(hdr::kMethod) == kSet ? uint64_t{kGet} : request.get(hdr::kMethod);
  if (!r.get(hdr::kResponse) || r.get(hdr::kMethod) != expect)
    return malformed("method", "method " + view::hex_text(r.bytes[3], 4) +
                                   " is not a response to " + view::hex_text(request.bytes[3], 4));
  // The low 32 bits of the TID are the requester's (the kernel owns the high
  // ones). A request without one was matched by TID already (Engine).
  uint64_t want_tid = request.get(hdr::kTid) & 0xffffffffu;
  uint64_t got_tid = r.get(hdr::kTid) & 0xffffffffu;
  if (want_tid && got_tid != want_tid)
    return malformed("transaction id", "transaction id " + view::hex_text(got_tid, 8) +
                                           ", expected " + view::hex_text(want_tid, 8));
  if (r.get(hdr::kAttrId) != request.get(hdr::kAttrId))
    return malformed("attribute", "attribute " + attr_name(r.mgmt_class(), r.get(hdr::kAttrId)));
  if (r.get(hdr::kAttrMod) != request.get(hdr::kAttrMod))
    return malformed("attribute modifier",
                     "attribute modifier " + view::hex_text(r.get(hdr::kAttrMod), 8) +
                         ", expected " + view::hex_text(request.get(hdr::kAttrMod), 8));
  if (r.mgmt_class() == kClassSmiDr) {
    // The way back of the way the request went (IBA 14.2.2): the direction
    // bit set, the same hops, DR LIDs and initial path.
    if (!r.get(hdr::kDirection)) return malformed("direction", "directed route going out");
    uint64_t hops = request.get(hdr::kHopCount);
    if (r.get(hdr::kHopCount) != hops)
      return malformed("hop count", "hop count " + std::to_string(r.get(hdr::kHopCount)) +
                                        ", expected " + std::to_string(hops));
    if (r.get(hdr::kDrSlid) != request.get(hdr::kDrSlid) ||
        r.get(hdr::kDrDlid) != request.get(hdr::kDrDlid) ||
        !std::ranges::equal(r.dr_path(), request.dr_path()))
      return malformed("path", "another directed route");
  }
  uint16_t status = r.mgmt_class() == kClassSmiDr ? r.get(hdr::kDrStatus) : r.get(hdr::kStatus);
  if (status)
    return Failure{Failure::Kind::Status, 0, status,
                   what + " failed: status " + view::hex_text(status, 4) + " (" +
                       status_text(status, r.mgmt_class()) + ")"};
  return std::nullopt;
}

Mad check_reply(const Mad& request, std::span<const uint8_t> reply, const std::string& what) {
  Mad r;
  if (std::optional<Failure> f = verify_reply(request, reply, what, r)) throw MadError(*f);
  return r;
}

}  // namespace rdma::mad
