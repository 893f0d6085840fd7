// Links running below what both ends support: iblinkinfo's "could be".
#pragma once

#include <cstdint>
#include <optional>

#include "lib/ib/smp.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

// The best width and speed both ends of a link support (PortInfo's
// LinkWidthSupported, LinkSpeedSupported and LinkSpeedExtSupported, the
// vendor's MlnxExtPortInfo LinkSpeedSupported for FDR10).
struct LinkBest {
  uint8_t width = 0;       // one LinkWidth bit
  uint8_t speed = 0;       // one LinkSpeed bit
  uint8_t speed_ext = 0;   // one LinkSpeedExt bit; 0: not both ends have one
  bool fdr10 = false;      // no extended speed, both ends support FDR10
  bool width_low = false;  // the active width is below width
  bool speed_low = false;  // the active speed is below speed (or speed_ext, or FDR10)

  // The generation speed and speed_ext (or FDR10) make.
  mad::Generation generation() const {
    return fdr10 && !speed_ext ? mad::Generation::Fdr10 : mad::generation(speed, speed_ext);
  }
};

// What a and b could run at, and whether the link (as a sees it) runs
// lower; nullopt when it does not. As iblinkinfo: the extended speeds
// count when both ends' capability masks vouch for them (a_caps and
// b_caps: lib/ib/records.h's speed_caps; null: the fields as they are);
// else FDR10 when both ends support it (MlnxExtPortInfo, which discovery
// asks a port running QDR); else the base speeds.
std::optional<LinkBest> degraded(const PortInfo& a, const PortInfo& b,
                                 const PortInfo* a_caps = nullptr,
                                 const PortInfo* b_caps = nullptr);

}  // namespace rdma::ib
