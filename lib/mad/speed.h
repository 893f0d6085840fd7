// The one reading of a port's link speed: PortInfo's LinkSpeedActive,
// LinkSpeedExtActive and LinkSpeedExtActive2 (and the vendor's FDR10) as a
// generation, its per-lane signalling rate as iblinkinfo prints it and the
// total data rate as ibstat prints it. Every view that shows a speed asks
// here.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "lib/view/record.h"

namespace rdma::mad {

// MlnxExtPortInfo's speed bit for FDR10 (libibmad's FDR10).
inline constexpr unsigned kMlnxSpeedFdr10 = 0x01;

// The bits of PortInfo's speed and width masks (LinkSpeedSupported and
// LinkSpeedEnabled, LinkSpeedExt*, LinkWidth*; IBA 14.2.5.6), and the
// Enabled values that mean every supported one.
inline constexpr unsigned kSpeedSdr = 1, kSpeedDdr = 2, kSpeedQdr = 4;
inline constexpr unsigned kSpeedAllSupported = 15;
inline constexpr unsigned kSpeedExtFdr = 1, kSpeedExtEdr = 2, kSpeedExtHdr = 4, kSpeedExtNdr = 8;
inline constexpr unsigned kSpeedExtDisable = 30, kSpeedExtAllSupported = 31;
inline constexpr unsigned kWidth1x = 1, kWidth4x = 2, kWidth8x = 4, kWidth12x = 8, kWidth2x = 16;
inline constexpr unsigned kWidthAllSupported = 255;

enum class Generation : uint8_t { Unknown, Sdr, Ddr, Qdr, Fdr10, Fdr, Edr, Hdr, Ndr, Xdr };

// The active generation from the fields' values: LinkSpeedExtActive2 (XDR)
// over LinkSpeedExtActive (FDR..NDR) over the vendor's FDR10 over
// LinkSpeedActive (SDR..QDR). An extended field counts when it is not zero
// (IBA: reserved, so zero, where a port lacks it). Unknown for values no
// generation has.
Generation generation(unsigned speed_active, unsigned speed_ext_active,
                      unsigned speed_ext2_active = 0, bool fdr10 = false);

// PortInfo capability bits that vouch for the extended speed fields (IBA
// 14.2.5.6): CapabilityMask IsExtendedSpeedsSupported and
// IsCapabilityMask2Supported, CapabilityMask2 IsExtendedSpeeds2Supported.
inline constexpr uint32_t kCapExtendedSpeeds = 1u << 14;
inline constexpr uint32_t kCapMask2Supported = 1u << 15;
inline constexpr uint32_t kCap2ExtendedSpeeds2 = 1u << 11;

// Which extended speed fields of a port hold a speed, as iblinkinfo and
// ibnetdiscover trust them (libibnetdisc's ibnd_get_agg_linkspeedext):
// LinkSpeedExt* only when CapabilityMask has IsExtendedSpeedsSupported;
// LinkSpeedExt*2 only when besides CapabilityMask has
// IsCapabilityMask2Supported and CapabilityMask2 IsExtendedSpeeds2Supported.
// The masks are the port's own on a CA or router, and for any port of a
// switch its port 0's (an external port's are reserved).
struct ExtSpeedCaps {
  bool ext = false;
  bool ext2 = false;
};
ExtSpeedCaps ext_speed_caps(uint32_t cap_mask, uint32_t cap_mask2);
// The same from the masks' PortInfo bytes.
ExtSpeedCaps ext_speed_caps(std::span<const uint8_t> caps_port_info);

// generation() of a port's fields, the extended ones read only where caps
// vouch for them.
Generation trusted_generation(ExtSpeedCaps caps, unsigned speed_active, unsigned speed_ext_active,
                              unsigned speed_ext2_active, bool fdr10);

// The same from a PortInfo attribute's bytes (at least PortInfo's size),
// the extended fields trusted as caps_port_info's masks say (the port's
// own PortInfo, or a switch's port 0), or read as they are (as smpquery
// prints them) when that is empty.
Generation port_generation(std::span<const uint8_t> port_info, bool fdr10 = false,
                           std::span<const uint8_t> caps_port_info = {});

// "SDR" .. "XDR", "FDR10"; nullptr for Unknown.
const char* generation_name(Generation g);

// Per-lane signalling rate in Gb/s as iblinkinfo prints it: "2.5", "5.0",
// "10.0" (QDR and FDR10: iblinkinfo's "10.0 Gbps (FDR10)"), "14.0625", "25.78125", "53.125",
// "106.25", "212.5"; nullptr for Unknown.
const char* lane_speed_text(Generation g);

// The lane rate, or the raw LinkSpeedActive's name ("unknown(3)") when no
// generation is known: the views' "speed".
std::string speed_text(Generation g, unsigned speed_active);

// Lanes of a LinkWidthActive value (1X 1, 2X 2, 4X 4, 8X 8, 12X 12), 0
// for any other value.
unsigned width_lanes(unsigned width_active);

// Total data rate in tenths of Gb/s, lanes times the per-lane data rate
// (SDR 2.5, DDR 5, QDR and FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100,
// XDR 200), as the kernel's sysfs rate and so ibstat: 4X EDR 1000. 0 when
// the width (LinkWidthActive) or the generation is unknown.
unsigned rate_tenths(Generation g, unsigned width_active);

// The speed of a link as the views print it: "speed" (the lane rate; the
// raw LinkSpeedActive name when no generation is known), then "rate" (Gb/s:
// a JSON number, 2.5 or a whole number) and "generation", each with prefix
// before its key ("could_be_"), the last two only when known.
void add_speed(view::Record& out, Generation g, unsigned width_active, unsigned speed_active,
               const std::string& prefix = "");

}  // namespace rdma::mad
