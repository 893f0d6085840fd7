// GUID edits of a saved fabric, as ibcacheedit makes them in an
// ibnetdiscover cache: after a board swap the new GUIDs go into the saved
// fabric that `fabric diff` and `from FILE` compare against, instead of a
// new discovery that would forget what the old one knew.
#pragma once

#include <cstdint>
#include <string>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

struct GuidEdit {
  enum class Kind : uint8_t {
    Switch,    // a switch's node GUID, and its port 0's (the same GUID)
    Ca,        // a channel adapter's (or router's) node GUID
    SysImage,  // SystemImageGUID, on every node that has before
    Port,      // a port GUID of the node whose GUID is node
  };
  Kind kind = Kind::Switch;
  uint64_t node = 0;  // Port: the node's GUID
  uint64_t before = 0;
  uint64_t after = 0;
};

// Applies e to f. Throws Error, leaving f as it was, when before is on no
// node of that kind (naming what there is instead, a CA's GUID given as a
// switch's), or when a node or port GUID after is one f has already: two
// nodes with one GUID are no longer two nodes to the tool.
void edit_guid(Fabric& f, const GuidEdit& e);

}  // namespace rdma::ib
