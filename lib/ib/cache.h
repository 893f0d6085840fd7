// The discovery cache: a fabric saved to a file (`fabric save FILE`) and
// read back (`from FILE`) so every fabric command can work without sending
// a MAD. JSON Lines, one object per line: a header, one line per node (its
// NodeInfo, description, route, SwitchInfo and each port's PortInfo), one
// per link. Written and read a line at a time, so memory follows the
// fabric's model, not the file's size.
#pragma once

#include <cstdio>
#include <string>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// Throws Error when the file cannot be written.
void save_fabric(const Fabric& f, const std::string& path);
void write_fabric(const Fabric& f, std::FILE* out);

// The file as `from FILE` takes it: a saved fabric, or a topology file
// (ibnetdiscover's text, lib/ib/topology_read.h), told apart by content.
// Throws Error naming the file and line for anything malformed: a bad
// header or version, a line that is not JSON, a missing or out-of-range
// field, a link to a node or port the file does not have.
// kind, when given, says which format the file was.
enum class FabricFile { Saved, Topology };
Fabric load_fabric(const std::string& path, FabricFile* kind = nullptr);

}  // namespace rdma::ib
