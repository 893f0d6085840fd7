// Listing the objects of one resource type on one device: a doit per port
// when the filters name one object, otherwise one dump covering all ports,
// each record printed as its message is decoded.
#pragma once

#include <optional>
#include <string>

#include "lib/nldev/devices.h"
#include "lib/res/filter.h"
#include "lib/res/types.h"
#include "rdma/command.h"

namespace rdma {

// Which devices and ports the command covers.
struct ResScope {
  std::optional<std::string> dev;
  uint32_t port = 0;      // link DEV/PORT
  bool portless = false;  // link DEV/-
};

// Reads "dev DEV" or "link DEV[/PORT|/-]" into s. Throws Error.
void parse_res_scope(const res::TypeSpec& t, const std::string& key, const std::string& value,
                     ResScope& s);

struct ResShow {
  Ctx& c;
  const res::TypeSpec& type;
  res::Filters filters;
  ResScope scope;
};

// Prints the objects of d that pass the filters.
void show_res_device(ResShow& s, const nldev::Device& d);

}  // namespace rdma
