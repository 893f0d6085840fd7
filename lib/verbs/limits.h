// rdma dev limits: a device's attributes and limits as ibv_devinfo -v
// prints them (same names, same order), plus the extended attributes of
// ibv_query_device_ex the device has. One record per device: text is a
// "dev NAME" line and an indented "key value" line per attribute.
#pragma once

#include <string>

#include "lib/verbs/verbs.h"
#include "lib/view/record.h"

namespace rdma::verbs {

void limits_record(const std::string& dev, Device& d, view::Record& out);

}  // namespace rdma::verbs
