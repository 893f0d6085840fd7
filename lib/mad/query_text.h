// The text a query's messages name it by when its caller left
// Query::what empty: "NodeInfo from dr 0,1,3", "PortInfo port 4 from dr
// 0,2", "PortCounters port 1 from lid 7". Made when a message needs it,
// not kept per query: a discovery's queued queries each held a heap block
// of that text (bench/fabric_results.md, the engine's share of the peak).
#pragma once

#include <string>

#include "lib/mad/mad.h"

namespace rdma::mad {

// The attribute's name, " port " and the modifier when not 0, " from "
// and the route (route_text's words: "dr 0,1,3", "dr lid 4 0,1", "lid 7").
std::string query_text(const Mad& m, const Address& to);

}  // namespace rdma::mad
