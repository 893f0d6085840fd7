#include "lib/mad/rate_text.h"

namespace rdma::mad {

// ".5" is the one fraction a product of the lane rates has (1X SDR).
std::string rate_text(unsigned tenths) {
  return std::to_string(tenths / 10) + (tenths % 10 ? ".5" : "");
}

view::Json rate_json(unsigned tenths) {
  return tenths % 10 ? view::Json(tenths / 10.0) : view::Json(tenths / 10);
}

}  // namespace rdma::mad
