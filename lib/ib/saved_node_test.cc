// node show from FILE: a discovered node as the file holds it prints as
// node show prints the node live, field for field, the fields the file
// does not hold left out and named; a topology file's fewer.
#include "lib/ib/saved_node.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "lib/ib/discover.h"
#include "lib/ib/node_view.h"
#include "lib/ib/saved_sa.h"
#include "lib/mad/attrs.h"
#include "lib/mad/sa.h"
#include "lib/testing/fabric/client.h"
#include "lib/view/number.h"

namespace rdma::ib {
namespace {

std::map<std::string, std::string> saved_node_fields(const view::Record& r) {
  std::map<std::string, std::string> out;
  for (const view::Field& f : r) out[f.key] = f.text;
  return out;
}

// sa show nodes|ports|links from FILE: each record a discovered fabric
// makes is one the SA (the double's) sends, printed alike but for what the
// file lacks, which is named; the same records, no more, no fewer.
TEST(SavedSa, RecordsAsTheSaSendsThem) {
  ibtest::FabricClient fc;
  Fabric f = discover(fc.client().engine()).fabric;
  for (const char* word : {"nodes", "ports", "links"}) {
    SCOPED_TRACE(word);
    const SaKind& k = *find_sa_kind(word);
    std::vector<uint8_t> none(k.record->bytes);
    mad::SaTable live =
        mad::get_table(fc.client().engine(), fc.client().local().sm_lid, *k.record, 0, none);
    SavedSa saved = saved_sa_records(f, k, false, 1);
    EXPECT_EQ(saved.records.size(), live.records.size());
    // Records by their first fields (LID and port): the SA's order is its own.
    auto key = [&](std::span<const uint8_t> r) {
      return std::vector<uint8_t>(r.begin(), r.begin() + 4);
    };
    std::map<std::vector<uint8_t>, std::map<std::string, std::string>> want;
    for (const auto& r : live.records) {
      view::Record out;
      sa_record(k, r, 1, out);
      want[key(r)] = saved_node_fields(out);
    }
    for (const auto& r : saved.records) {
      view::Record out;
      saved_sa_record(k, saved, r, 1, out, false);
      ASSERT_TRUE(want.count(key(r)));
      std::map<std::string, std::string> got = saved_node_fields(out), w = want[key(r)];
      for (const auto& [field, v] : got) {
        // A switch port's PortInfo LocalPortNum is the port an SMP came in
        // by: the file's is discovery's, opensm's the SM's (the same under
        // ibsim: tests/ibsim/route.sh); the double's SA puts the port's own.
        if (field == "local_port" && k.record == &mad::kPortInfoRecord) continue;
        EXPECT_EQ(v, w[field]) << field;
      }
      for (const auto& [field, v] : w) {
        if (!got.count(field)) {
          EXPECT_TRUE(saved.lacking.count(field) || field == "rate" || field == "generation")
              << field;
        }
      }
    }
    EXPECT_EQ(saved.missing.empty(), k.record == &mad::kLinkRecord || word == std::string("nodes"));
  }
  // No other record type.
  EXPECT_THROW(saved_sa_records(f, *find_sa_kind("paths"), false, 1), Error);
}

TEST(SavedNode, EveryHeldFieldAsTheLiveViewPrintsIt) {
  ibtest::FabricClient fc;
  Fabric f = discover(fc.client().engine()).fabric;
  ASSERT_GT(f.nodes.size(), 2u);
  for (const Node& n : f.nodes) {
    SCOPED_TRACE(n.description);
    // The route discovery took: NodeInfo's arriving port is the file's.
    NodeAttrs a = read_node_attrs(fc.client(), {true, 0, n.path});
    view::Record live, saved;
    add_node_attrs(a, 1, {}, live);
    unsigned port = n.is_switch() ? 0 : n.info.local_port;
    std::vector<std::string> missing = add_saved_node(n, port, false, 1, {}, saved);
    std::map<std::string, std::string> want = saved_node_fields(live),
                                       got = saved_node_fields(saved);
    for (const auto& [k, v] : got) EXPECT_EQ(v, want[k]) << k;
    for (const auto& [k, v] : want) {
      bool said = std::find(missing.begin(), missing.end(), k) != missing.end();
      EXPECT_NE(got.count(k) != 0, said) << k;
    }
    // A CA's NodeInfo and description are whole in a saved fabric.
    if (!n.is_switch()) {
      EXPECT_TRUE(missing.empty());
    } else {
      EXPECT_EQ(got.count("linear_fdb_top"), 1u);
    }
  }
}

TEST(SavedNode, ATopologyFileHoldsFewerFieldsAndSaysWhich) {
  ibtest::FabricClient fc;
  Fabric f = discover(fc.client().engine()).fabric;
  const Node& sw = f.nodes[1];
  ASSERT_TRUE(sw.is_switch());
  view::Record r;
  std::vector<std::string> missing = add_saved_node(sw, 0, true, 0, {}, r);
  std::map<std::string, std::string> got = saved_node_fields(r);
  EXPECT_EQ(got.count("linear_fdb_top"), 0u);
  EXPECT_EQ(got.count("node_guid"), 1u);
  EXPECT_EQ(got.count("enhanced_port0"), 1u);
  EXPECT_NE(std::find(missing.begin(), missing.end(), "linear_fdb_top"), missing.end());
  // A CA named by a port other than discovery's: that port's GUID and
  // number, as an SMP arriving there is answered.
  Node ca = f.nodes[0];
  ASSERT_FALSE(ca.is_switch());
  ASSERT_TRUE(ca.ports[1].guid);
  ca.info.port_guid = 0x99;
  ca.info.local_port = 7;
  view::Record c;
  add_saved_node(ca, 1, true, 1, {}, c);
  std::map<std::string, std::string> cf = saved_node_fields(c);
  EXPECT_EQ(cf["local_port"], "local_port 1 ");
  EXPECT_EQ(cf["port_guid"], "port_guid " + view::hex_text(ca.ports[1].guid, 16) + " ");
}

}  // namespace
}  // namespace rdma::ib
