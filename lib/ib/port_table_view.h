// A port's tables (port_table_blocks.h) as port show prints them: each
// value in the format of the attribute field it is read from, so the
// front end names no attribute.
#pragma once

#include "lib/ib/port_table_blocks.h"
#include "lib/view/record.h"

namespace rdma::ib {

// PKeyTable's P_KeyTableBlock entries.
void add_pkey_values(const PKeyTable& t, view::Record& out);
// GUIDInfo's GUIDBlock entries.
void add_guid_values(const GuidTable& t, view::Record& out);
// SLtoVLMappingTable's SLtoVL entries.
void add_sl2vl_values(const Sl2VlTable& t, view::Record& out);
// VLArbitrationTable's VL entries, then their Weight.
void add_vlarb_values(const VlArbTable& t, view::Record& out);

}  // namespace rdma::ib
