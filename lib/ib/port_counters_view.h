// What fabric errors prints of a port's counters beyond PortCounters'
// (decoded by field list there): the PortCountersExtended counters and the
// details attributes, so the front end names no PMA attribute.
#pragma once

#include "lib/ib/errors.h"
#include "lib/view/record.h"

namespace rdma::ib {

// PortCountersExtended's counters shown by default, from c.ext (nothing
// when it is empty).
void add_extended_counters(const PortCounters& c, view::Record& out);

// PortRcvErrorDetails and PortXmitDiscardDetails, each where read.
void add_error_details(const PortCounters& c, view::Record& out);

}  // namespace rdma::ib
