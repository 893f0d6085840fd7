// Driver-specific attributes of a resource entry (RDMA_NLDEV_ATTR_DRIVER):
// a flat run of {name, [print type], value} tuples, shown as drv_NAME.
#pragma once

#include <libmnl/libmnl.h>

#include "lib/view/record.h"

namespace rdma::res {

// Appends one field per tuple: "drv_name value " in text (0x%x with the hex
// print type), the full 64-bit value in JSON. pretty_text starts them on an
// indented line of their own and wraps long runs, as iproute2's -p does.
// Throws Error for a tuple of the wrong size.
void append_driver(const nlattr* table, bool pretty_text, view::Record& r);

}  // namespace rdma::res
