#include "lib/mad/query_text.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "lib/mad/target.h"

namespace rdma::mad {
namespace {

// What discovery named its queries by before it left Query::what empty:
// the attribute's name, the port when a modifier is given, the route.
TEST(QueryText, NamesSmpsAsDiscoveryDid) {
  for (const AttrDef* a :
       {&kNodeInfo, &kPortInfo, &kNodeDescription, &kSwitchInfo, &kMlnxExtPortInfo}) {
    for (uint32_t mod : {0u, 3u, 36u}) {
      for (const std::vector<uint8_t>& path :
           {std::vector<uint8_t>{}, {1}, {1, 3, 5}, {255, 2, 9, 9, 9, 9, 9, 9, 9, 9}}) {
        Route r{true, 0, path};
        std::string was = std::string(a->name) + (mod ? " port " + std::to_string(mod) : "") +
                          " from " + route_text(r);
        EXPECT_EQ(query_text(make_smp(r, kGet, *a, mod), smp_address(r)), was);
      }
    }
  }
}

// A combined route (its LID-routed part first) and a LID-routed SMP say
// so as route_text does.
TEST(QueryText, NamesCombinedAndLidRoutes) {
  Route directed{true, 0, {1, 2}};
  Address to = smp_address(Route{false, 4, {}});
  EXPECT_EQ(query_text(make_smp(directed, kGet, kNodeInfo, 0), to), "NodeInfo from dr lid 4 0,1,2");
  Route lid{false, 7, {}};
  EXPECT_EQ(query_text(make_smp(lid, kGet, kPortInfo, 2), smp_address(lid)),
            "PortInfo port 2 from lid 7");
}

}  // namespace
}  // namespace rdma::mad
