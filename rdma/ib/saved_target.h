// `node show` and `port show` TARGET from FILE: the target found in a
// saved fabric or a topology file (lib/ib/cache.h), labelled as the live
// view labels it, and the one note on stderr naming what the file lacks.
#pragma once

#include <string>
#include <vector>

#include "lib/ib/cache.h"
#include "lib/ib/fabric_model.h"
#include "lib/ib/node_name_map.h"
#include "lib/mad/target.h"
#include "rdma/ib/session.h"

namespace rdma {

struct SavedTarget {
  ib::NodeNameMap names;  // --node-name-map's
  ib::Fabric fabric;      // names applied
  ib::FabricFile kind = ib::FabricFile::Saved;
  ib::PortRef at;    // the port t names
  mad::Route label;  // a directed route as given, else the LID t resolves to
};

// Throws UsageError with --sa (a file is not the SA), Error for a file
// that cannot be read or a target it does not have.
SavedTarget load_saved_target(Ctx& c, const mad::Target& t, const std::string& file);

// "note: FILE does not hold a, b" on stderr; nothing when nothing lacks.
void note_not_held(Ctx& c, const std::string& file, const std::vector<std::string>& missing);

}  // namespace rdma
