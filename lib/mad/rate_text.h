// A total data rate (mad::rate_tenths, lib/mad/speed.h) as ibstat prints
// it: the port views' "rate" (speed.cc's add_speed, lib/verbs' link status).
#pragma once

#include <string>

#include "lib/view/record.h"

namespace rdma::mad {

// Whole Gb/s, "2.5" for 1X SDR (the kernel's sysfs rate, which ibstat reads).
std::string rate_text(unsigned tenths);
// The same as a JSON number.
view::Json rate_json(unsigned tenths);

}  // namespace rdma::mad
