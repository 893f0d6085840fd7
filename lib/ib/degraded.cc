#include "lib/ib/degraded.h"

#include "lib/mad/speed.h"

namespace rdma::ib {

namespace {

// The highest bit of mask, as a mask; widths compare by lanes, not by bit.
uint8_t best_width(uint8_t mask) {
  uint8_t best = 0;
  for (uint8_t bit = 1; bit && bit <= 16; bit <<= 1)
    if ((mask & bit) && mad::width_lanes(bit) > mad::width_lanes(best)) best = bit;
  return best;
}

uint8_t top_bit(uint8_t mask) {
  uint8_t best = 0;
  for (unsigned bit = 1; bit < 256; bit <<= 1)
    if (mask & bit) best = static_cast<uint8_t>(bit);
  return best;
}

mad::ExtSpeedCaps caps_of(const PortInfo* caps) {
  return caps ? mad::ext_speed_caps(caps->caps, caps->caps2) : mad::ExtSpeedCaps{true, true};
}

}  // namespace

std::optional<LinkBest> degraded(const PortInfo& a, const PortInfo& b, const PortInfo* a_caps,
                                 const PortInfo* b_caps) {
  LinkBest l;
  l.width = best_width(a.width_supported & b.width_supported);
  l.speed = top_bit(a.speed_supported & b.speed_supported);
  l.width_low = l.width && mad::width_lanes(a.width_active) < mad::width_lanes(l.width);
  bool ext = caps_of(a_caps).ext && caps_of(b_caps).ext;
  if (ext) l.speed_ext = top_bit(a.speed_ext_supported & b.speed_ext_supported);
  if (!l.speed_ext)
    l.fdr10 = (a.mlnx_speed_supported & b.mlnx_speed_supported & mad::kMlnxSpeedFdr10) != 0;
  if (l.speed_ext)
    l.speed_low = top_bit(a.speed_ext_active) < l.speed_ext;
  else if (l.fdr10)
    l.speed_low = !(a.mlnx_speed_active & mad::kMlnxSpeedFdr10);
  else
    l.speed_low = l.speed && top_bit(a.speed_active) < l.speed;
  if (!l.width_low && !l.speed_low) return std::nullopt;
  return l;
}

}  // namespace rdma::ib
