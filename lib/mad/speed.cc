#include "lib/mad/speed.h"

#include <cstdlib>

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/rate_text.h"

namespace rdma::mad {

namespace {

struct GenInfo {
  Generation g;
  const char* name;
  const char* lane;      // signalling rate per lane, Gb/s
  unsigned lane_tenths;  // data rate per lane, 0.1 Gb/s (the kernel's table)
};

constexpr GenInfo kGens[] = {
    {Generation::Sdr, "SDR", "2.5", 25},      {Generation::Ddr, "DDR", "5.0", 50},
    {Generation::Qdr, "QDR", "10.0", 100},    {Generation::Fdr10, "FDR10", "10.0", 100},
    {Generation::Fdr, "FDR", "14.0625", 140}, {Generation::Edr, "EDR", "25.78125", 250},
    {Generation::Hdr, "HDR", "53.125", 500},  {Generation::Ndr, "NDR", "106.25", 1000},
    {Generation::Xdr, "XDR", "212.5", 2000},
};

const GenInfo* info(Generation g) {
  for (const GenInfo& i : kGens)
    if (i.g == g) return &i;
  return nullptr;
}

}  // namespace

unsigned width_lanes(unsigned width_active) {
  switch (width_active) {
    case 1:
      return 1;
    case 2:
      return 4;
    case 4:
      return 8;
    case 8:
      return 12;
    case 16:
      return 2;
    default:
      return 0;
  }
}

Generation generation(unsigned speed_active, unsigned speed_ext_active, unsigned speed_ext2_active,
                      bool fdr10) {
  if (speed_ext2_active) return speed_ext2_active == 1 ? Generation::Xdr : Generation::Unknown;
  switch (speed_ext_active) {
    case 0:
      break;
    case 1:
      return Generation::Fdr;
    case 2:
      return Generation::Edr;
    case 4:
      return Generation::Hdr;
    case 8:
      return Generation::Ndr;
    default:
      return Generation::Unknown;
  }
  if (fdr10) return Generation::Fdr10;
  switch (speed_active) {
    case 1:
      return Generation::Sdr;
    case 2:
      return Generation::Ddr;
    case 4:
      return Generation::Qdr;
    default:
      return Generation::Unknown;
  }
}

ExtSpeedCaps ext_speed_caps(uint32_t cap_mask, uint32_t cap_mask2) {
  ExtSpeedCaps c;
  c.ext = (cap_mask & kCapExtendedSpeeds) != 0;
  c.ext2 = c.ext && (cap_mask & kCapMask2Supported) && (cap_mask2 & kCap2ExtendedSpeeds2);
  return c;
}

ExtSpeedCaps ext_speed_caps(std::span<const uint8_t> pi) {
  return ext_speed_caps(static_cast<uint32_t>(get_field(kPortInfo, pi, "CapabilityMask")),
                        static_cast<uint32_t>(get_field(kPortInfo, pi, "CapabilityMask2")));
}

Generation trusted_generation(ExtSpeedCaps caps, unsigned speed_active, unsigned speed_ext_active,
                              unsigned speed_ext2_active, bool fdr10) {
  return generation(speed_active, caps.ext ? speed_ext_active : 0,
                    caps.ext2 ? speed_ext2_active : 0, fdr10);
}

Generation port_generation(std::span<const uint8_t> pi, bool fdr10,
                           std::span<const uint8_t> caps_pi) {
  ExtSpeedCaps caps = caps_pi.empty() ? ExtSpeedCaps{true, true} : ext_speed_caps(caps_pi);
  return trusted_generation(
      caps, static_cast<unsigned>(get_field(kPortInfo, pi, "LinkSpeedActive")),
      static_cast<unsigned>(get_field(kPortInfo, pi, "LinkSpeedExtActive")),
      static_cast<unsigned>(get_field(kPortInfo, pi, "LinkSpeedExtActive2")), fdr10);
}

const char* generation_name(Generation g) {
  const GenInfo* i = info(g);
  return i ? i->name : nullptr;
}

const char* lane_speed_text(Generation g) {
  const GenInfo* i = info(g);
  return i ? i->lane : nullptr;
}

unsigned rate_tenths(Generation g, unsigned width_active) {
  const GenInfo* i = info(g);
  return i ? i->lane_tenths * width_lanes(width_active) : 0;
}

std::string speed_text(Generation g, unsigned speed_active) {
  const char* lane = lane_speed_text(g);
  return lane ? lane : value_text(Fmt::Speed, speed_active);
}

void add_speed(view::Record& out, Generation g, unsigned width_active, unsigned speed_active,
               const std::string& prefix) {
  // JSON: the lane's Gb/s a number, as rate is (a code without a known
  // lane rate stays its text).
  std::string speed = speed_text(g, speed_active);
  if (const char* lane = lane_speed_text(g)) {
    // A double: JSON writes 10.0 as the text does.
    out.pair(prefix + "speed", speed, view::Json(std::strtod(lane, nullptr)));
  } else {
    out.pair(prefix + "speed", speed);
  }
  // As the kernel's sysfs rate (lib/mad/rate_text.h).
  if (unsigned r = rate_tenths(g, width_active))
    out.pair(prefix + "rate", rate_text(r), rate_json(r));
  if (const char* name = generation_name(g)) out.pair(prefix + "generation", name);
}

}  // namespace rdma::mad
