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

}  // namespace
}  // namespace rdma::mad
