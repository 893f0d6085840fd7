#include "lib/ib/port_counters_view.h"

#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/format.h"

namespace rdma::ib {

void add_extended_counters(const PortCounters& c, view::Record& out) {
  if (c.ext.empty()) return;
  std::vector<mad::FieldDef> ext;
  for (const mad::FieldDef& d : mad::kPortCountersExtended.fields)
    if (d.level == mad::kShow) ext.push_back(d);
  mad::decode_fields(ext, c.ext, 0, out);
}

void add_error_details(const PortCounters& c, view::Record& out) {
  if (!c.rcv_details.empty()) mad::decode(mad::kPortRcvErrorDetails, c.rcv_details, 0, out);
  if (!c.xmit_details.empty()) mad::decode(mad::kPortXmitDiscardDetails, c.xmit_details, 0, out);
}

}  // namespace rdma::ib
