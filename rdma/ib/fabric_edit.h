// rdma fabric edit FILE: ibcacheedit's GUID edits of a saved fabric.
#pragma once

#include "rdma/command.h"

namespace rdma {

// `fabric edit FILE [ to NEWFILE ] EDIT...`: every edit applied in order,
// then the fabric written to NEWFILE, or back to FILE (through a temporary
// file renamed over it). Nothing is written when an edit fails.
void fabric_edit(Ctx& c);

}  // namespace rdma
