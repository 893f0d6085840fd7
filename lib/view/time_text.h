// The time now as text, by a strftime format, in UTC or local time: one
// helper for the views that stamp what they print (report, top).
#pragma once

#include <string>

namespace rdma::view {

std::string time_text(const char* format, bool utc);

}  // namespace rdma::view
