#include "lib/mad/vendor.h"

#include <gtest/gtest.h>

#include <cstring>

namespace rdma::mad {
namespace {

TEST(VendorMad, Range2GetCarriesTheOuiBeforeItsData) {
  Mad m = make_vendor_get(kClassOpenIbSysstat, kSysstatHost);
  EXPECT_EQ(m.bytes[0], 1);     // base version
  EXPECT_EQ(m.bytes[1], 0x33);  // class
  EXPECT_EQ(m.bytes[2], 1);     // class version
  EXPECT_EQ(m.bytes[3], 0x01);  // Get
  EXPECT_EQ(m.bytes[16], 0x00);
  EXPECT_EQ(m.bytes[17], 0x11);  // attribute: host
  // IBA 13.4.3: byte 36 reserved, the OUI in 37-39, data from 40.
  EXPECT_EQ(m.bytes[36], 0);
  EXPECT_EQ(m.bytes[37], 0x00);
  EXPECT_EQ(m.bytes[38], 0x14);
  EXPECT_EQ(m.bytes[39], 0x05);
  EXPECT_EQ(vendor_oui(m), kOpenIbOui);
  EXPECT_EQ(vendor_data(m).size(), 216u);
  EXPECT_TRUE(is_vendor_request(m, kClassOpenIbSysstat, kOpenIbOui));
  EXPECT_FALSE(is_vendor_request(m, kClassOpenIbSysstat, 0x0002c9));
  EXPECT_FALSE(is_vendor_request(m, kClassOpenIbPing, kOpenIbOui));
}

TEST(VendorMad, Range1HasNoOuiAndDataAfterTheCommonHeader) {
  Mad m = make_vendor_get(kClassMellanox, kMellanoxGeneralInfo);
  EXPECT_FALSE(vendor_range2(kClassMellanox));
  EXPECT_EQ(vendor_oui(m), 0u);
  EXPECT_EQ(m.bytes[37], 0);
  EXPECT_EQ(vendor_data(m).size(), 232u);
}

TEST(VendorMad, ResponseCarriesTheTextNulEndedAndCut) {
  Mad req = make_vendor_get(kClassOpenIbPing, 0);
  req.bytes[12] = 0xab;  // TID kept
  Mad r = vendor_response(req, "host.example");
  EXPECT_EQ(r.bytes[3], 0x81);
  EXPECT_EQ(r.bytes[12], 0xab);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&r.bytes[40])), "host.example");
  EXPECT_EQ(vendor_text(r), "host.example");
  EXPECT_FALSE(is_vendor_request(r, kClassOpenIbPing, kOpenIbOui));  // a response
  Mad cut = vendor_response(req, std::string(300, 'x'));
  EXPECT_EQ(vendor_text(cut).size(), 215u);
  EXPECT_EQ(cut.bytes[255], 0);
  Mad bad = vendor_response(req, "", kStatusBadMethodAttr);
  EXPECT_EQ(bad.get(hdr::kStatus), kStatusBadMethodAttr);
}

TEST(VendorMad, GeneralInfoAtVendstatsOffsets) {
  Mad m = make_vendor_get(kClassMellanox, kMellanoxGeneralInfo);
  uint8_t* d = &m.bytes[24];
  d[8] = 0x00, d[9] = 0xa0;    // hw revision
  d[10] = 0xb9, d[11] = 0x24;  // device id 47396: InfiniScale III, no extended info
  d[39] = 0x10;                // uptime
  d[41] = 5, d[42] = 1, d[43] = 2;
  d[47] = 0x33;  // build id
  d[48] = 0x12, d[49] = 0x31, d[50] = 0x20, d[51] = 0x09;
  std::memcpy(d + 56, "MT_0001", 7);
  d[75] = 7;  // ini version
  d[77] = 1, d[78] = 2, d[79] = 3;
  MellanoxGeneralInfo g = decode_general_info(vendor_data(m));
  EXPECT_EQ(g.hw_revision, 0xa0);
  EXPECT_EQ(g.device_id, 47396);
  EXPECT_EQ(g.uptime, 0x10u);
  EXPECT_EQ(g.fw_major, 5u);
  EXPECT_EQ(g.fw_sub_minor, 2u);
  EXPECT_EQ(g.fw_build_id, 0x33u);
  EXPECT_EQ(g.fw_month, 0x12);
  EXPECT_EQ(g.fw_year, 0x2009);
  EXPECT_EQ(g.psid, "MT_0001");
  EXPECT_EQ(g.fw_ini_version, 7u);
  EXPECT_EQ(g.sw_sub_minor, 3);
}

TEST(VendorMad, GeneralInfoOfADeviceWithExtendedFirmwareInfo) {
  EXPECT_TRUE(mellanox_ext_fw(0xcb20));  // Switch-IB
  EXPECT_TRUE(mellanox_ext_fw(0x1010));  // within ConnectX's range
  EXPECT_FALSE(mellanox_ext_fw(47396));  // InfiniScale III
  MellanoxGeneralInfo g;
  g.device_id = 0xd2f0;  // Quantum
  g.fw_major = 27, g.fw_minor = 2010, g.fw_sub_minor = 1234;
  g.sw_major = 4;
  g.psid = "MT_0000000063";
  Mad m = make_vendor_get(kClassMellanox, kMellanoxGeneralInfo);
  encode_general_info(g, vendor_data(m));
  // The version in the extended part (data 76-87), sw_info after it (104).
  EXPECT_EQ(m.bytes[24 + 79], 27);
  EXPECT_EQ(m.bytes[24 + 82], 2010 >> 8);
  EXPECT_EQ(m.bytes[24 + 105], 4);
  MellanoxGeneralInfo back = decode_general_info(vendor_data(m));
  EXPECT_EQ(back.fw_minor, 2010u);
  EXPECT_EQ(back.fw_sub_minor, 1234u);
  EXPECT_EQ(back.sw_major, 4);
  EXPECT_EQ(back.psid, "MT_0000000063");
}

TEST(VendorMad, ConfigSpaceRecordsAtVendstatsOffsets) {
  // vendstat -R 10013c,ffff: a Get of 0x50, the modifier 2 << 22 | 1 << 16.
  ConfigRecord want{.address = 0x10013c, .data = 0, .mask = 0xffff};
  Mad m = make_vendor_get(kClassMellanox, kMellanoxConfigSpace, config_space_mod(1));
  encode_config_records(std::span(&want, 1), vendor_data(m));
  EXPECT_EQ(m.bytes[16], 0x00);
  EXPECT_EQ(m.bytes[17], 0x50);
  EXPECT_EQ(m.bytes[20], 0x00);  // modifier 0x00810000
  EXPECT_EQ(m.bytes[21], 0x81);
  EXPECT_EQ(m.bytes[22], 0x00);
  // The first record after 8 reserved bytes of the data (byte 24 + 8).
  const uint8_t rec[12] = {0x00, 0x10, 0x01, 0x3c, 0, 0, 0, 0, 0x00, 0x00, 0xff, 0xff};
  EXPECT_EQ(std::memcmp(&m.bytes[32], rec, 12), 0);
  EXPECT_EQ(config_space_records(static_cast<uint32_t>(m.get(hdr::kAttrMod))), 1u);
  // The second record 12 bytes on; the data big-endian.
  Mad r = m;
  r.bytes[44 + 4] = 0x12, r.bytes[44 + 7] = 0x34;
  std::vector<ConfigRecord> got = decode_config_records(vendor_data(r), 2);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].address, 0x10013cu);
  EXPECT_EQ(got[0].mask, 0xffffu);
  EXPECT_EQ(got[1].data, 0x12000034u);
  // 18 records at most, in the modifier and the data.
  EXPECT_EQ(config_space_records(config_space_mod(30)), 18u);
  EXPECT_EQ(config_space_mod(18), 0x00920000u);
  EXPECT_EQ(decode_config_records(vendor_data(r), 40).size(), 18u);
  Mad set = make_vendor_set(kClassMellanox, kMellanoxConfigSpace, config_space_mod(1));
  EXPECT_EQ(set.bytes[3], 0x02);
}

TEST(VendorMad, Is3XmitWaitAddressesAndVendstatsPortLabels) {
  EXPECT_EQ(is3_xmit_wait_address(1), 0x10113cu);
  EXPECT_EQ(is3_xmit_wait_address(24), 0x11813cu);
  EXPECT_EQ(is3_xmit_wait_port(1), 4u);  // "port 4 is first port"
  EXPECT_EQ(is3_xmit_wait_port(16), 19u);
  EXPECT_EQ(is3_xmit_wait_port(17), 21u);
  EXPECT_EQ(is3_xmit_wait_port(20), 24u);
  EXPECT_EQ(is3_xmit_wait_port(21), 1u);
  EXPECT_EQ(is3_xmit_wait_port(24), 4u);
}

TEST(VendorMad, CounterGroupInfoAndSelectsAtVendstatsOffsets) {
  Mad m = make_vendor_get(kClassMellanox, kMellanoxCounterGroupInfo, 12);
  EXPECT_EQ(m.bytes[17], 0x90);
  EXPECT_EQ(m.bytes[23], 12);  // the port in the modifier
  uint8_t* d = &m.bytes[24];
  d[11] = 2;
  d[12] = 0x80, d[15] = 0x01;
  d[19] = 0xff;
  CounterGroupInfo info = decode_counter_group_info(vendor_data(m));
  EXPECT_EQ(info.groups, 2);
  ASSERT_EQ(info.masks.size(), 2u);
  EXPECT_EQ(info.masks[0], 0x80000001u);
  EXPECT_EQ(info.masks[1], 0xffu);
  d[11] = 1;  // one group: one mask
  EXPECT_EQ(decode_counter_group_info(vendor_data(m)).masks.size(), 1u);
  d[11] = 2;
  Mad back = make_vendor_get(kClassMellanox, kMellanoxCounterGroupInfo);
  encode_counter_group_info(info, vendor_data(back));
  EXPECT_EQ(std::memcmp(&back.bytes[24], d, 20), 0);
  // vendstat -c 2,8: the selects in the last byte of the words at 12, 16.
  Mad c = make_vendor_set(kClassMellanox, kMellanoxConfigCounterGroup, 12);
  EXPECT_EQ(c.bytes[17], 0x91);
  encode_counter_group_select({2, 8}, vendor_data(c));
  EXPECT_EQ(c.bytes[24 + 15], 2);
  EXPECT_EQ(c.bytes[24 + 19], 8);
  EXPECT_EQ(c.bytes[24 + 12], 0);
  EXPECT_EQ(decode_counter_group_select(vendor_data(c)), (CounterGroupSelect{2, 8}));
}

}  // namespace
}  // namespace rdma::mad
