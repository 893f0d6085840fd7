// Link speeds as iblinkinfo and ibstat print them: every generation's lane
// rate, every width's total rate, the extended fields over the base one,
// and PortInfo's speed keys as decode shows them.
#include "lib/mad/speed.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/format.h"

namespace rdma::mad {
namespace {

constexpr unsigned k1x = 1, k4x = 2, k8x = 4, k12x = 8, k2x = 16;

TEST(Speed, EveryGeneration) {
  struct Case {
    Generation g;
    const char* name;
    const char* lane;
    unsigned rate_4x;  // tenths of Gb/s
  };
  const Case cases[] = {
      {generation(1, 0), "SDR", "2.5", 100},
      {generation(2, 0), "DDR", "5.0", 200},
      {generation(4, 0), "QDR", "10.0", 400},
      {generation(4, 0, 0, true), "FDR10", "10.0", 400},
      {generation(4, 1), "FDR", "14.0625", 560},
      {generation(4, 2), "EDR", "25.78125", 1000},
      {generation(4, 4), "HDR", "53.125", 2000},
      {generation(4, 8), "NDR", "106.25", 4000},
      {generation(4, 8, 1), "XDR", "212.5", 8000},
  };
  for (const Case& c : cases) {
    EXPECT_STREQ(generation_name(c.g), c.name);
    EXPECT_STREQ(lane_speed_text(c.g), c.lane) << c.name;
    EXPECT_EQ(rate_tenths(c.g, k4x), c.rate_4x) << c.name;
  }
}

TEST(Speed, ExtendedFieldsWinAndUnknownValues) {
  // LinkSpeedActive stays SDR..QDR when an extended speed runs: the
  // extended field decides (4X EDR reads 25.78125, not 10.0).
  EXPECT_EQ(generation(4, 2), Generation::Edr);
  EXPECT_EQ(generation(1, 1), Generation::Fdr);
  EXPECT_EQ(generation(4, 2, 0, true), Generation::Edr);  // FDR10 only without one
  EXPECT_EQ(generation(4, 0, 1), Generation::Xdr);
  EXPECT_EQ(generation(3, 0), Generation::Unknown);  // a set, not one speed
  EXPECT_EQ(generation(0, 0), Generation::Unknown);
  EXPECT_EQ(generation(4, 16), Generation::Unknown);
  EXPECT_EQ(generation(4, 0, 2), Generation::Unknown);
  EXPECT_EQ(generation_name(Generation::Unknown), nullptr);
  EXPECT_EQ(lane_speed_text(Generation::Unknown), nullptr);
  EXPECT_EQ(rate_tenths(Generation::Unknown, k4x), 0u);
}

TEST(Speed, RatesAsIbstatForEveryWidth) {
  // ibstat's Rate (the kernel's sysfs rate): 4X EDR 100, 8X FDR 112, 12X DDR
  // 60, 4X HDR 200, 1X SDR 2.5.
  EXPECT_EQ(rate_tenths(Generation::Sdr, k1x), 25u);
  EXPECT_EQ(rate_tenths(Generation::Sdr, k2x), 50u);
  EXPECT_EQ(rate_tenths(Generation::Ddr, k12x), 600u);
  EXPECT_EQ(rate_tenths(Generation::Fdr, k8x), 1120u);
  EXPECT_EQ(rate_tenths(Generation::Edr, k4x), 1000u);
  EXPECT_EQ(rate_tenths(Generation::Hdr, k4x), 2000u);
  EXPECT_EQ(rate_tenths(Generation::Ndr, k2x), 2000u);
  EXPECT_EQ(rate_tenths(Generation::Xdr, k12x), 24000u);
  EXPECT_EQ(rate_tenths(Generation::Edr, 3), 0u);  // no such width
  EXPECT_EQ(width_lanes(k1x) + width_lanes(k2x) + width_lanes(k4x), 7u);
  EXPECT_EQ(width_lanes(k8x) + width_lanes(k12x), 20u);
}

TEST(Speed, RecordKeysTextAndJson) {
  view::Record r;
  add_speed(r, Generation::Edr, k4x, 4);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].text, "speed 25.78125 ");
  EXPECT_EQ(r[0].value, 25.78125);  // a number, as rate
  EXPECT_EQ(r[1].text, "rate 100 ");
  EXPECT_TRUE(r[1].value.is_number_integer());
  EXPECT_EQ(r[1].value, 100);
  EXPECT_EQ(r[2].text, "generation EDR ");
  EXPECT_EQ(r[2].value, "EDR");

  r.clear();
  add_speed(r, Generation::Sdr, k1x, 1, "could_be_");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].key, "could_be_speed");
  EXPECT_EQ(r[1].key, "could_be_rate");
  EXPECT_EQ(r[1].text, "could_be_rate 2.5 ");
  EXPECT_TRUE(r[1].value.is_number_float());
  EXPECT_EQ(r[1].value, 2.5);
  EXPECT_EQ(r[2].key, "could_be_generation");

  // Nothing known: the raw LinkSpeedActive and no rate or generation.
  r.clear();
  add_speed(r, Generation::Unknown, k4x, 3);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].text, "speed unknown(3) ");
  EXPECT_EQ(speed_text(Generation::Edr, 4), "25.78125");
  EXPECT_EQ(speed_text(Generation::Unknown, 4), "10.0");
}

// PortInfo bytes with the given speed fields, 4X, state `state`.
std::vector<uint8_t> port_info(unsigned active, unsigned ext, unsigned ext2, unsigned state = 4) {
  std::vector<uint8_t> pi(kPortInfo.bytes);
  set_field(kPortInfo, pi, "LinkWidthActive", k4x);
  set_field(kPortInfo, pi, "LinkSpeedActive", active);
  set_field(kPortInfo, pi, "LinkSpeedExtActive", ext);
  set_bits(pi, 449, 2, ext2);  // LinkSpeedExtActive2 (libibmad's offset)
  set_field(kPortInfo, pi, "PortState", state);
  return pi;
}

std::string keys_of(const std::vector<uint8_t>& pi) {
  view::Record r;
  decode(kPortInfo, pi, 0, r);
  std::string s;
  for (const view::Field& f : r)
    if (f.key == "width" || f.key == "speed" || f.key == "rate" || f.key == "generation")
      s += f.text;
  return s;
}

TEST(Speed, PortInfoDecodeShowsTheLinkSpeed) {
  EXPECT_EQ(port_generation(port_info(4, 2, 0)), Generation::Edr);
  EXPECT_EQ(port_generation(port_info(4, 8, 1)), Generation::Xdr);
  EXPECT_EQ(port_generation(port_info(4, 0, 0), true), Generation::Fdr10);
  EXPECT_EQ(keys_of(port_info(4, 2, 0)), "width 4X speed 25.78125 rate 100 generation EDR ");
  EXPECT_EQ(keys_of(port_info(4, 4, 0)), "width 4X speed 53.125 rate 200 generation HDR ");
  EXPECT_EQ(keys_of(port_info(4, 0, 1)), "width 4X speed 212.5 rate 800 generation XDR ");
  EXPECT_EQ(keys_of(port_info(2, 0, 0)), "width 4X speed 5.0 rate 20 generation DDR ");
  // A down port: LinkSpeedActive as it reads, no rate or generation.
  EXPECT_EQ(keys_of(port_info(1, 2, 0, 1)), "width 4X speed 2.5 ");
  // The field itself still reads and prints as LinkSpeedActive.
  EXPECT_EQ(get_field(kPortInfo, port_info(4, 2, 0), "LinkSpeedActive"), 4u);
  EXPECT_EQ(value_text(Fmt::LinkSpeed, 4), "10.0");
}

// iblinkinfo's rule (libibnetdisc's ibnd_get_agg_linkspeedext): the
// extended fields count only where the capability masks vouch for them.
TEST(Speed, ExtendedSpeedsNeedTheCapabilityMaskBits) {
  constexpr uint32_t kExt = 1u << 14, kMask2 = 1u << 15, kExt2 = 1u << 11;
  EXPECT_FALSE(ext_speed_caps(0, kExt2).ext);
  EXPECT_FALSE(ext_speed_caps(0, kExt2).ext2);
  EXPECT_TRUE(ext_speed_caps(kExt, 0).ext);
  EXPECT_FALSE(ext_speed_caps(kExt, kExt2).ext2);  // no IsCapabilityMask2Supported
  EXPECT_FALSE(ext_speed_caps(kExt | kMask2, 0).ext2);
  EXPECT_FALSE(ext_speed_caps(kMask2, kExt2).ext2);  // ext2 only with ext
  EXPECT_TRUE(ext_speed_caps(kExt | kMask2, kExt2).ext2);

  // An EDR port whose masks vouch for LinkSpeedExtActive, and one whose do
  // not: QDR, its LinkSpeedActive.
  std::vector<uint8_t> edr = port_info(4, 2, 0), caps = port_info(4, 0, 0);
  set_field(kPortInfo, caps, "CapabilityMask", kExt);
  EXPECT_EQ(port_generation(edr, false, caps), Generation::Edr);
  EXPECT_EQ(port_generation(edr, false, edr), Generation::Qdr);  // its own masks: 0
  set_field(kPortInfo, edr, "CapabilityMask", kExt);
  EXPECT_EQ(port_generation(edr, false, edr), Generation::Edr);
  // XDR: LinkSpeedExtActive2 with CapabilityMask2's bit, else
  // LinkSpeedExtActive (NDR here).
  std::vector<uint8_t> xdr = port_info(4, 8, 1);
  set_field(kPortInfo, caps, "CapabilityMask", kExt | kMask2);
  EXPECT_EQ(port_generation(xdr, false, caps), Generation::Ndr);
  set_field(kPortInfo, caps, "CapabilityMask2", kExt2);
  EXPECT_EQ(port_generation(xdr, false, caps), Generation::Xdr);
  set_field(kPortInfo, caps, "CapabilityMask", kMask2);
  EXPECT_EQ(port_generation(xdr, false, caps), Generation::Qdr);
  // FDR10 is the vendor's word, not an extended speed field.
  EXPECT_EQ(port_generation(port_info(4, 0, 0), true, caps), Generation::Fdr10);
  // decode reads the keys as DecodeOptions::speed_caps vouch.
  view::Record r;
  std::vector<uint8_t> bare = port_info(4, 2, 0);
  decode(kPortInfo, bare, 0, r, {.speed_caps = bare});
  bool qdr = false;
  for (const view::Field& f : r) qdr |= f.key == "generation" && f.value == "QDR";
  EXPECT_TRUE(qdr);
  EXPECT_EQ(trusted_generation({true, false}, 4, 2, 1, false), Generation::Edr);
  EXPECT_EQ(trusted_generation({false, false}, 1, 2, 1, false), Generation::Sdr);
}

}  // namespace
}  // namespace rdma::mad
