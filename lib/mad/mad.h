// One MAD: 256 bytes, its common header and the class headers (SMP, directed
// route SMP, SA), declared as field tables like the attributes so that -dd
// prints them the same way. Builders for requests and the checks every reply
// goes through.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lib/mad/bits.h"
#include "lib/mad/field.h"
#include "lib/mad/result.h"

namespace rdma::mad {

inline constexpr size_t kMadBytes = 256;
inline constexpr size_t kMaxHops = 63;  // the initial path holds 64 bytes, entry 0 unused

enum Method : uint8_t {
  kGet = 0x01,
  kSet = 0x02,
  kGetResp = 0x81,
  // SA (15.2.2): every record that matches, in RMPP segments when long.
  kSaGetTable = 0x12,
  kSaGetTableResp = 0x92,
};

// MAD statuses (13.4.7) and the SA's class-specific ones (15.2.1.1, the
// high byte).
inline constexpr uint16_t kStatusBadVersion = 1 << 2;
inline constexpr uint16_t kStatusBadMethod = 2 << 2;
inline constexpr uint16_t kStatusBadMethodAttr = 3 << 2;
inline constexpr uint16_t kStatusBadField = 7 << 2;
inline constexpr uint16_t kSaStatusReqInvalid = 2 << 8;
inline constexpr uint16_t kSaStatusNoRecords = 3 << 8;
inline constexpr uint16_t kSaStatusTooManyRecords = 4 << 8;

// RMPP (13.6.2.1): types and flags.
inline constexpr uint8_t kRmppData = 1, kRmppAck = 2;
inline constexpr uint8_t kRmppActive = 1, kRmppFirst = 2, kRmppLast = 4;

namespace hdr {
// Common MAD header (IBA 13.4.3).
inline constexpr FieldDef kBaseVersion{"BaseVersion", "base_version", 0, 8};
inline constexpr FieldDef kMgmtClass{"MgmtClass", "class", 8, 8, Fmt::Hex};
inline constexpr FieldDef kClassVersion{"ClassVersion", "class_version", 16, 8};
inline constexpr FieldDef kResponse{"R", "response", 24, 1};
inline constexpr FieldDef kMethod{"Method", "method", 25, 7, Fmt::Hex};
inline constexpr FieldDef kStatus{"Status", "status", 32, 16, Fmt::Hex};
inline constexpr FieldDef kClassSpecific{"ClassSpecific", "class_specific", 48, 16, Fmt::Hex};
inline constexpr FieldDef kTid{"TransactionID", "tid", 64, 64, Fmt::Hex};
inline constexpr FieldDef kAttrId{"AttributeID", "attr_id", 128, 16, Fmt::Hex};
inline constexpr FieldDef kAttrMod{"AttributeModifier", "attr_mod", 160, 32, Fmt::Hex};
// SMP (14.2.1).
inline constexpr FieldDef kMKey{"M_Key", "mkey", 192, 64, Fmt::Key};
// Directed route SMP: the status word splits into D and Status; hops.
inline constexpr FieldDef kDirection{"D", "direction", 32, 1};
inline constexpr FieldDef kDrStatus{"Status", "status", 33, 15, Fmt::Hex};
inline constexpr FieldDef kHopPointer{"HopPointer", "hop_pointer", 48, 8};
inline constexpr FieldDef kHopCount{"HopCount", "hop_count", 56, 8};
inline constexpr FieldDef kDrSlid{"DrSLID", "dr_slid", 256, 16};
inline constexpr FieldDef kDrDlid{"DrDLID", "dr_dlid", 272, 16};
inline constexpr FieldDef kInitialPath{"InitialPath", "initial_path", 1024, 8, Fmt::Uint, 0, 64};
inline constexpr FieldDef kReturnPath{"ReturnPath", "return_path", 1536, 8, Fmt::Uint, 0, 64};
// SA header (15.2.1.1) after the RMPP header (13.6.2.1).
inline constexpr FieldDef kRmppVersion{"RMPPVersion", "rmpp_version", 192, 8};
inline constexpr FieldDef kRmppType{"RMPPType", "rmpp_type", 200, 8};
inline constexpr FieldDef kRmppFlags{"RMPPFlags", "rmpp_flags", 213, 3, Fmt::Hex};
inline constexpr FieldDef kRmppStatus{"RMPPStatus", "rmpp_status", 216, 8};
inline constexpr FieldDef kRmppSegment{"SegmentNumber", "segment", 224, 32};
inline constexpr FieldDef kRmppPayload{"PayloadLength", "paylen_newwin", 256, 32};
inline constexpr FieldDef kSmKey{"SM_Key", "sm_key", 288, 64, Fmt::Key};
inline constexpr FieldDef kAttrOffset{"AttributeOffset", "attr_offset", 352, 16};
inline constexpr FieldDef kCompMask{"ComponentMask", "comp_mask", 384, 64, Fmt::Hex};
}  // namespace hdr

// The header fields of a MAD of this class, in wire order (for -dd).
std::span<const FieldDef> header_fields(uint8_t mgmt_class);

// Where the attribute starts: 64 for SMPs and GMPs, 56 for SA.
size_t data_offset(uint8_t mgmt_class);

struct Mad {
  std::array<uint8_t, kMadBytes> bytes{};

  uint64_t get(const FieldDef& f) const { return get_bits(bytes, f.bit, f.width); }
  void set(const FieldDef& f, uint64_t v) { set_bits(bytes, f.bit, f.width, v); }
  uint8_t mgmt_class() const { return bytes[1]; }
  // A directed-route SMP's initial path (IBA 14.2.1.2): the output port at
  // each of its HopCount hops, entry 0 (unused) left out; at most kMaxHops,
  // all the field holds, whatever HopCount says. Empty for other classes.
  std::span<const uint8_t> dr_path() const {
    if (mgmt_class() != kClassSmiDr) return {};
    size_t hops = get(hdr::kHopCount);
    return std::span(bytes).subspan(hdr::kInitialPath.bit / 8 + 1,
                                    hops < kMaxHops ? hops : kMaxHops);
  }
  std::span<uint8_t> data() { return std::span(bytes).subspan(data_offset(mgmt_class())); }
  std::span<const uint8_t> data() const {
    return std::span(bytes).subspan(data_offset(mgmt_class()));
  }
  // A field of the attribute by its IBA name (the same table as decoding).
  uint64_t get_attr(const AttrDef& a, const char* field) const;
  void set_attr(const AttrDef& a, const char* field, uint64_t v);
};

// Where an SMP goes: a LID, or a directed route given as the output port at
// each hop after the local port ("dr 0,1,4" is {1, 4}).
struct Route {
  bool directed = false;
  uint16_t lid = 0;
  std::vector<uint8_t> path;
};

// Where the transport sends a MAD.
struct Address {
  uint16_t lid = 0;
  uint32_t qp = 0;
  uint32_t qkey = 0;
  // The local port's P_Key table entry the MAD leaves with (ib_mad_addr's
  // pkey_index): 0 for SMPs always; GMPs take EngineConfig::gmp_pkey_index.
  uint16_t pkey_index = 0;
};

inline constexpr uint16_t kPermissiveLid = 0xffff;
inline constexpr uint32_t kGsiQkey = 0x80010000;

// A Get or Set SMP for attribute a with modifier mod. Throws Error for more
// than kMaxHops hops.
Mad make_smp(const Route& r, uint8_t method, const AttrDef& a, uint32_t mod);
Address smp_address(const Route& r);

// A Get or Set GMP (PerfMgt, SA) for a; class version 1, 2 for SA.
Mad make_gmp(uint8_t mgmt_class, uint8_t method, const AttrDef& a, uint32_t mod);
inline Address gsi_address(uint16_t lid) {
  return {lid, 1, kGsiQkey};
}

// Checks a reply against its request: size, version, class, method,
// attribute and status. On success fills out and returns nullopt; else the
// Failure (Malformed or Status) naming what is wrong ("what" names the
// request, e.g. "NodeInfo from lid 4").
std::optional<Failure> verify_reply(const Mad& request, std::span<const uint8_t> reply,
                                    const std::string& what, Mad& out);
// verify_reply that returns the reply or throws MadError.
Mad check_reply(const Mad& request, std::span<const uint8_t> reply, const std::string& what);

// The meaning of a MAD status word, e.g. "unsupported method/attribute".
std::string status_text(uint16_t status, uint8_t mgmt_class);

// Name of an attribute id in a class (for -dd); "0x1234" when unknown.
std::string attr_name(uint8_t mgmt_class, uint16_t id);

}  // namespace rdma::mad
