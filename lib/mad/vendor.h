// Vendor-specific classes (IBA 13.4.3): the OpenIB ping (ibping) and
// sysstat (ibsysstat) classes of range 2, whose MADs carry an OUI after the
// common header and their data from byte 40, and the Mellanox class of
// range 1 (vendstat), whose data starts after the common header. Where
// their fields live is here; lib/ib/vendor.h asks and answers with them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/mad/mad.h"

namespace rdma::mad {

// Range 2 (0x30-0x4f) carries an OUI; the kernel registers such a class
// only with one (umad_register_oui).
inline constexpr uint8_t kClassOpenIbPing = 0x32;
inline constexpr uint8_t kClassOpenIbSysstat = 0x33;
inline constexpr uint32_t kOpenIbOui = 0x001405;
inline constexpr uint8_t kClassMellanox = 0x0a;

// ibsysstat's attributes.
inline constexpr uint16_t kSysstatPing = 0x10;
inline constexpr uint16_t kSysstatHost = 0x11;
inline constexpr uint16_t kSysstatCpu = 0x12;
// vendstat's: ClassPortInfo first (required of a class an agent supports),
// then GeneralInfo.
inline constexpr uint16_t kMellanoxGeneralInfo = 0x17;
// vendstat's others: the InfiniScale III configuration space (-R, -W, and
// -w's port xmit wait counters), InfiniScale IV counter groups (-i, -c).
inline constexpr uint16_t kMellanoxConfigSpace = 0x50;
inline constexpr uint16_t kMellanoxCounterGroupInfo = 0x90;
inline constexpr uint16_t kMellanoxConfigCounterGroup = 0x91;

bool vendor_range2(uint8_t mgmt_class);

// A vendor Get of attr (modifier mod); range 2 with oui.
Mad make_vendor_get(uint8_t mgmt_class, uint16_t attr, uint32_t mod = 0, uint32_t oui = kOpenIbOui);
// The same as a Set (data filled in by the caller).
Mad make_vendor_set(uint8_t mgmt_class, uint16_t attr, uint32_t mod = 0, uint32_t oui = kOpenIbOui);

// The OUI of a range-2 MAD (0 in range 1).
uint32_t vendor_oui(const Mad& m);

// The data of a vendor MAD: from byte 40 in range 2, 24 in range 1.
std::span<const uint8_t> vendor_data(const Mad& m);
std::span<uint8_t> vendor_data(Mad& m);

// The data as the C string the OpenIB servers put there (up to its NUL).
std::string vendor_text(const Mad& m);

// Whether m is a request a server of (class, oui) answers: a Get of that
// class and OUI, not a response.
bool is_vendor_request(const Mad& m, uint8_t mgmt_class, uint32_t oui);

// The GetResp to request carrying text (cut to the data's size, NUL
// ended), or with status and no data.
Mad vendor_response(const Mad& request, std::string_view text, uint16_t status = 0);

// Mellanox GeneralInfo (vendstat -N): the hardware, firmware and software
// parts. A device with extended firmware info (is_ext_fw) gives its
// firmware version there instead.
struct MellanoxGeneralInfo {
  uint16_t hw_revision = 0, device_id = 0;
  uint32_t uptime = 0;
  uint32_t fw_major = 0, fw_minor = 0, fw_sub_minor = 0;
  uint32_t fw_build_id = 0;
  uint8_t fw_month = 0, fw_day = 0;
  uint16_t fw_year = 0;
  std::string psid;
  uint32_t fw_ini_version = 0;
  uint8_t sw_major = 0, sw_minor = 0, sw_sub_minor = 0;
};

// Whether a device (its id) reports extended firmware info (vendstat's
// list: SwitchX, Switch-IB, Quantum, ConnectX, BlueField and Bull's).
bool mellanox_ext_fw(uint16_t device_id);
MellanoxGeneralInfo decode_general_info(std::span<const uint8_t> data);
// The data of a GeneralInfo with these values (the fake fabric's answer).
void encode_general_info(const MellanoxGeneralInfo& g, std::span<uint8_t> data);

// One record of the InfiniScale III configuration space: a 32-bit word
// at address, the bits of mask. A MAD carries up to kConfigRecordsMax.
struct ConfigRecord {
  uint32_t address = 0, data = 0, mask = 0xffffffff;
};
inline constexpr unsigned kConfigRecordsMax = 18;

// The attribute modifier of a config space access of n records.
uint32_t config_space_mod(unsigned n);
// How many records a config space access's modifier carries.
unsigned config_space_records(uint32_t mod);
// Records into and out of the data (at most kConfigRecordsMax).
void encode_config_records(std::span<const ConfigRecord> records, std::span<uint8_t> data);
std::vector<ConfigRecord> decode_config_records(std::span<const uint8_t> data, unsigned n);

// InfiniScale III's PortXmitWait counters (vendstat -w): the device id
// that has them, and where block b (1-24) of them lives.
inline constexpr uint16_t kIs3DeviceId = 47396;
inline constexpr unsigned kIs3XmitWaitBlocks = 24;
uint32_t is3_xmit_wait_address(unsigned block);
// The port vendstat names block b's counter with (its labels, kept: the
// blocks 17-24 say ports 21-24, then 1-4).
unsigned is3_xmit_wait_port(unsigned block);

// InfiniScale IV counter groups of a port (vendstat -i): how many, and
// the groups' masks (the first kCounterGroups: the attribute has two).
inline constexpr unsigned kCounterGroups = 2;
struct CounterGroupInfo {
  uint8_t groups = 0;
  std::vector<uint32_t> masks;
};
CounterGroupInfo decode_counter_group_info(std::span<const uint8_t> data);
void encode_counter_group_info(const CounterGroupInfo& info, std::span<uint8_t> data);

// The counter groups' selects (vendstat -c G0,G1).
using CounterGroupSelect = std::array<uint8_t, kCounterGroups>;
CounterGroupSelect decode_counter_group_select(std::span<const uint8_t> data);
void encode_counter_group_select(const CounterGroupSelect& select, std::span<uint8_t> data);

}  // namespace rdma::mad
