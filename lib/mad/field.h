// The one description of every MAD attribute: a table of fields, each with
// its IBA name, a short label (the text's and the JSON key), its bit offset and width,
// and how it prints. Decoding, encoding, text and JSON all read these tables;
// nothing else knows where a field lives.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace rdma::mad {

// How a field's value prints. JSON carries what the text says (format.cc's
// render_value: "ACTIVE", "4X", "0x0012"); plain numbers (Uint, DataWords)
// and MTUs stay numbers.
enum class Fmt : uint8_t {
  Uint,          // decimal
  DataWords,     // a count of 4-byte words (PortXmitData, PortRcvData): decimal bytes
  Hex,           // 0x with width/4 digits
  Key,           // a secret (M_Key, SM_Key, ServiceKey): Hex, or hidden (decode)
  Guid,          // 0x%016x as the IB tools print it (text and JSON)
  Gid,           // 128 bits as IPv6 (text and JSON)
  Str,           // NUL-padded string (ServiceName)
  Desc,          // NUL-padded NodeDescription: quoted and escaped in text, raw in JSON
  NodeType,      // 1 ca, 2 switch, 3 router
  PortState,     // DOWN, INIT, ARMED, ACTIVE
  PhysState,     // SLEEP, POLLING, DISABLED, ..., LINK_UP
  LinkDownDef,   // NOCHANGE, SLEEP, POLLING
  Width,         // one width: 1X, 4X, 8X, 12X, 2X
  WidthMask,     // set of widths: 1X,4X
  Speed,         // one speed: 2.5, 5.0, 10.0 (Gb/s per lane)
  LinkSpeed,     // PortInfo's LinkSpeedActive: decode shows the link's speed, rate and
                 // generation, read from the whole attribute (lib/mad/speed.h)
  SpeedMask,     // set of speeds
  SpeedExt,      // one extended speed: 14.0625, 25.78125, 53.125, 106.25
  SpeedExtMask,  // set of extended speeds
  Mtu,           // 256 .. 4096 (JSON: the number of bytes)
  VlCap,         // VL0, VL0-1, VL0-3, VL0-7, VL0-14
  SmState,       // NOTACTIVE, DISCOVERING, STANDBY, MASTER
};

// Detail level: shown by default, or only with -d; kHidden fields are never
// printed, only read by the typed views (lib/ib/smp.h).
enum : uint8_t { kShow = 0, kDetail = 1, kHidden = 0xff };

struct FieldDef {
  const char* name;   // IBA name (what mad set's FIELD= and the code use)
  const char* label;  // text label and JSON key
  uint16_t bit;       // offset from the start of the attribute, MSB first
  uint16_t width;     // bits (up to 64; 128 for Gid, any multiple of 8 for Str)
  Fmt fmt = Fmt::Uint;
  uint8_t level = kShow;
  uint8_t count = 1;    // a table of count elements (P_Keys, GUIDs, ...)
  uint16_t stride = 0;  // bits between elements; 0: width
};

// Management classes this tool speaks.
enum Class : uint8_t {
  kClassSmiLid = 0x01,
  kClassSa = 0x03,
  kClassPerf = 0x04,
  kClassSmiDr = 0x81,
};

struct AttrDef {
  const char* name;    // IBA attribute name, e.g. "NodeInfo"
  uint16_t id;         // AttributeID
  uint8_t mgmt_class;  // kClassSmiLid (SMPs, LID or directed route), kClassPerf, kClassSa
  uint16_t bytes;      // size of the attribute
  std::span<const FieldDef> fields;
};

// The field named name (IBA name, exact), or nullptr.
const FieldDef* find_field(const AttrDef& a, std::string_view name);

// The value of a's field called name (up to 64 bits; element index of a
// table) in attr, a's bytes or a record's that starts with them; set_field
// stores one. Throws Error when a has no such field or element (a bug) or
// attr is too short to hold it.
uint64_t get_field(const AttrDef& a, std::span<const uint8_t> attr, std::string_view name,
                   unsigned index = 0);
void set_field(const AttrDef& a, std::span<uint8_t> attr, std::string_view name, uint64_t v);

}  // namespace rdma::mad
