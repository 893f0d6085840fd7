// Links running below what both ends support: iblinkinfo's "could be".
#pragma once

#include <cstdint>
#include <optional>

#include "lib/ib/smp.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

// The best width and speed both ends of a link support (PortInfo's
// LinkWidthSupported, LinkSpeedSupported and LinkSpeedExtSupported).
struct LinkBest {
  uint8_t width = 0;       // one LinkWidth bit
  uint8_t speed = 0;       // one LinkSpeed bit
  uint8_t speed_ext = 0;   // one LinkSpeedExt bit; 0: not both ends have one
  bool width_low = false;  // the active width is below width
  bool speed_low = false;  // the active speed is below speed (or speed_ext)

  // The generation speed and speed_ext make.
  mad::Generation generation() const { return mad::generation(speed, speed_ext); }
};

// What a and b could run at, and whether the link (as a sees it) runs
// lower; nullopt when it does not.
std::optional<LinkBest> degraded(const PortInfo& a, const PortInfo& b);

}  // namespace rdma::ib
