#include "lib/mad/vendor.h"

#include <algorithm>
#include <cstring>

#include "lib/mad/bits.h"

namespace rdma::mad {

namespace {

// IBA 13.4.3: range 2 has the RMPP header (bytes 24-35), a reserved byte
// and the OUI (37-39) before its data; range 1 has data after the common
// header.
constexpr size_t kRange1Data = 24;
constexpr size_t kRange2Data = 40;
constexpr unsigned kOuiBit = 37 * 8;

// GeneralInfo's parts (vendstat.c's is3/is4_general_info_t), as byte
// offsets into the data.
constexpr size_t kHwRevision = 8, kDeviceId = 10, kUptime = 36;
constexpr size_t kFwMajor = 41, kFwMinor = 42, kFwSubMinor = 43, kFwBuildId = 44;
constexpr size_t kFwMonth = 48, kFwDay = 49, kFwYear = 50, kPsid = 56, kPsidBytes = 16;
constexpr size_t kFwIniVersion = 72;
constexpr size_t kIs3Sw = 76;  // sw_info without extended firmware info
constexpr size_t kExtMajor = 76, kExtMinor = 80, kExtSubMinor = 84;
constexpr size_t kIs4Sw = 104;                                 // after the extended firmware info
constexpr size_t kSwMajor = 1, kSwMinor = 2, kSwSubMinor = 3;  // within sw_info

// The config space records (vendstat.c's is3_config_space_t) after 8
// reserved bytes, 12 bytes each (address, data, mask); the record count
// in the modifier's bits 16-21 beside an access type of 2 in bits 22-23.
constexpr size_t kRecords = 8, kRecordBytes = 12;
constexpr unsigned kRecordCountShift = 16, kRecordCountBits = 6;
constexpr uint32_t kConfigAccess = 2u << 22;
constexpr uint32_t kIs3PortXmitWait = 0x10013c;
constexpr unsigned kBlockShift = 12;

// Counter groups (is4_counter_group_info_t, is4_config_counter_groups_t):
// the number at byte 11, the masks from 12; the selects in the last byte
// of each 4-byte word from 12.
constexpr size_t kGroupCount = 11, kGroupMasks = 12, kGroupSelects = 12;

uint64_t be(std::span<const uint8_t> d, size_t byte, unsigned bytes) {
  return get_bits(d, static_cast<unsigned>(byte * 8), bytes * 8);
}
void put(std::span<uint8_t> d, size_t byte, unsigned bytes, uint64_t v) {
  set_bits(d, static_cast<unsigned>(byte * 8), bytes * 8, v);
}

struct DeviceRange {
  uint16_t first, last;
};
// vendstat's list of devices with extended firmware info.
constexpr DeviceRange kExtFwDevices[] = {
    {0x0245, 0x0245}, {0xc738, 0xc73b}, {0xcb20, 0xcb20}, {0xcf08, 0xcf08}, {0xd2f0, 0xd2f0},
    {0x01b3, 0x01b3}, {0x1003, 0x101b}, {0xa2d2, 0xa2d2}, {0x1b02, 0x1b02}, {0x1b50, 0x1b50},
    {0x1ba0, 0x1ba0}, {0x1bd0, 0x1bd5}, {0x1bf0, 0x1bf0}, {0x1b33, 0x1b33}, {0x1b73, 0x1b73},
    {0x1b40, 0x1b41}, {0x1b60, 0x1b61}, {0x1b83, 0x1b83}, {0x1b93, 0x1b94}, {0x1bb4, 0x1bb5},
    {0x1bc4, 0x1bc6}};

}  // namespace

bool vendor_range2(uint8_t mgmt_class) {
  return mgmt_class >= 0x30 && mgmt_class <= 0x4f;
}

Mad make_vendor_get(uint8_t mgmt_class, uint16_t attr, uint32_t mod, uint32_t oui) {
  Mad m;
  m.set(hdr::kBaseVersion, 1);
  m.set(hdr::kMgmtClass, mgmt_class);
  m.set(hdr::kClassVersion, 1);
  m.set(hdr::kMethod, kGet);
  m.set(hdr::kAttrId, attr);
  m.set(hdr::kAttrMod, mod);
  if (vendor_range2(mgmt_class)) set_bits(m.bytes, kOuiBit, 24, oui);
  return m;
}

Mad make_vendor_set(uint8_t mgmt_class, uint16_t attr, uint32_t mod, uint32_t oui) {
  Mad m = make_vendor_get(mgmt_class, attr, mod, oui);
  m.set(hdr::kMethod, kSet);
  return m;
}

uint32_t vendor_oui(const Mad& m) {
  return vendor_range2(m.mgmt_class()) ? static_cast<uint32_t>(get_bits(m.bytes, kOuiBit, 24)) : 0;
}

std::span<const uint8_t> vendor_data(const Mad& m) {
  return std::span(m.bytes).subspan(vendor_range2(m.mgmt_class()) ? kRange2Data : kRange1Data);
}

std::span<uint8_t> vendor_data(Mad& m) {
  return std::span(m.bytes).subspan(vendor_range2(m.mgmt_class()) ? kRange2Data : kRange1Data);
}

std::string vendor_text(const Mad& m) {
  std::span<const uint8_t> d = vendor_data(m);
  auto end = std::find(d.begin(), d.end(), 0);
  return std::string(d.begin(), end);
}

bool is_vendor_request(const Mad& m, uint8_t mgmt_class, uint32_t oui) {
  return m.mgmt_class() == mgmt_class && !m.get(hdr::kResponse) && m.get(hdr::kMethod) == kGet &&
         vendor_oui(m) == (vendor_range2(mgmt_class) ? oui : 0);
}

Mad vendor_response(const Mad& request, std::string_view text, uint16_t status) {
  Mad r = request;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod, kGet);
  r.set(hdr::kStatus, status);
  std::span<uint8_t> d = vendor_data(r);
  std::fill(d.begin(), d.end(), 0);
  size_t n = std::min(text.size(), d.size() - 1);
  std::copy_n(text.begin(), n, d.begin());
  return r;
}

bool mellanox_ext_fw(uint16_t device_id) {
  return std::any_of(std::begin(kExtFwDevices), std::end(kExtFwDevices), [&](const DeviceRange& r) {
    return r.first <= device_id && device_id <= r.last;
  });
}

MellanoxGeneralInfo decode_general_info(std::span<const uint8_t> d) {
  MellanoxGeneralInfo g;
  g.hw_revision = static_cast<uint16_t>(be(d, kHwRevision, 2));
  g.device_id = static_cast<uint16_t>(be(d, kDeviceId, 2));
  g.uptime = static_cast<uint32_t>(be(d, kUptime, 4));
  g.fw_build_id = static_cast<uint32_t>(be(d, kFwBuildId, 4));
  g.fw_month = d[kFwMonth];
  g.fw_day = d[kFwDay];
  g.fw_year = static_cast<uint16_t>(be(d, kFwYear, 2));
  auto psid = d.subspan(kPsid, kPsidBytes);
  g.psid.assign(psid.begin(), std::find(psid.begin(), psid.end(), 0));
  g.fw_ini_version = static_cast<uint32_t>(be(d, kFwIniVersion, 4));
  size_t sw = kIs3Sw;
  if (mellanox_ext_fw(g.device_id)) {
    g.fw_major = static_cast<uint32_t>(be(d, kExtMajor, 4));
    g.fw_minor = static_cast<uint32_t>(be(d, kExtMinor, 4));
    g.fw_sub_minor = static_cast<uint32_t>(be(d, kExtSubMinor, 4));
    sw = kIs4Sw;
  } else {
    g.fw_major = d[kFwMajor];
    g.fw_minor = d[kFwMinor];
    g.fw_sub_minor = d[kFwSubMinor];
  }
  g.sw_major = d[sw + kSwMajor];
  g.sw_minor = d[sw + kSwMinor];
  g.sw_sub_minor = d[sw + kSwSubMinor];
  return g;
}

void encode_general_info(const MellanoxGeneralInfo& g, std::span<uint8_t> d) {
  put(d, kHwRevision, 2, g.hw_revision);
  put(d, kDeviceId, 2, g.device_id);
  put(d, kUptime, 4, g.uptime);
  put(d, kFwBuildId, 4, g.fw_build_id);
  d[kFwMonth] = g.fw_month;
  d[kFwDay] = g.fw_day;
  put(d, kFwYear, 2, g.fw_year);
  std::copy_n(g.psid.begin(), std::min(g.psid.size(), kPsidBytes - 1), d.begin() + kPsid);
  put(d, kFwIniVersion, 4, g.fw_ini_version);
  size_t sw = kIs3Sw;
  if (mellanox_ext_fw(g.device_id)) {
    put(d, kExtMajor, 4, g.fw_major);
    put(d, kExtMinor, 4, g.fw_minor);
    put(d, kExtSubMinor, 4, g.fw_sub_minor);
    sw = kIs4Sw;
  } else {
    d[kFwMajor] = static_cast<uint8_t>(g.fw_major);
    d[kFwMinor] = static_cast<uint8_t>(g.fw_minor);
    d[kFwSubMinor] = static_cast<uint8_t>(g.fw_sub_minor);
  }
  d[sw + kSwMajor] = g.sw_major;
  d[sw + kSwMinor] = g.sw_minor;
  d[sw + kSwSubMinor] = g.sw_sub_minor;
}

uint32_t config_space_mod(unsigned n) {
  return kConfigAccess | std::min(n, kConfigRecordsMax) << kRecordCountShift;
}

unsigned config_space_records(uint32_t mod) {
  unsigned n = (mod >> kRecordCountShift) & ((1u << kRecordCountBits) - 1);
  return std::min(n, kConfigRecordsMax);
}

void encode_config_records(std::span<const ConfigRecord> records, std::span<uint8_t> d) {
  size_t n = std::min<size_t>(records.size(), kConfigRecordsMax);
  for (size_t i = 0; i < n; ++i) {
    size_t at = kRecords + i * kRecordBytes;
    put(d, at, 4, records[i].address);
    put(d, at + 4, 4, records[i].data);
    put(d, at + 8, 4, records[i].mask);
  }
}

std::vector<ConfigRecord> decode_config_records(std::span<const uint8_t> d, unsigned n) {
  std::vector<ConfigRecord> out(std::min(n, kConfigRecordsMax));
  for (size_t i = 0; i < out.size(); ++i) {
    size_t at = kRecords + i * kRecordBytes;
    out[i].address = static_cast<uint32_t>(be(d, at, 4));
    out[i].data = static_cast<uint32_t>(be(d, at + 4, 4));
    out[i].mask = static_cast<uint32_t>(be(d, at + 8, 4));
  }
  return out;
}

uint32_t is3_xmit_wait_address(unsigned block) {
  return kIs3PortXmitWait + (block << kBlockShift);
}

unsigned is3_xmit_wait_port(unsigned block) {
  // vendstat: "port 4 is first port"; its second query (blocks 17-24)
  // labels i < 4 as i + 21, the rest as i - 3.
  if (block <= 16) return block + 3;
  unsigned i = block - 17;
  return i < 4 ? i + 21 : i - 3;
}

CounterGroupInfo decode_counter_group_info(std::span<const uint8_t> d) {
  CounterGroupInfo info;
  info.groups = d[kGroupCount];
  for (unsigned i = 0; i < std::min<unsigned>(info.groups, kCounterGroups); ++i)
    info.masks.push_back(static_cast<uint32_t>(be(d, kGroupMasks + 4 * i, 4)));
  return info;
}

void encode_counter_group_info(const CounterGroupInfo& info, std::span<uint8_t> d) {
  d[kGroupCount] = info.groups;
  for (size_t i = 0; i < std::min<size_t>(info.masks.size(), kCounterGroups); ++i)
    put(d, kGroupMasks + 4 * i, 4, info.masks[i]);
}

CounterGroupSelect decode_counter_group_select(std::span<const uint8_t> d) {
  CounterGroupSelect s{};
  for (unsigned i = 0; i < kCounterGroups; ++i) s[i] = d[kGroupSelects + 4 * i + 3];
  return s;
}

void encode_counter_group_select(const CounterGroupSelect& s, std::span<uint8_t> d) {
  for (unsigned i = 0; i < kCounterGroups; ++i) d[kGroupSelects + 4 * i + 3] = s[i];
}

}  // namespace rdma::mad
