// rdma fabric against the fabric double (lib/testing/fabric): the suite's fabric
// (tests/ibsim/net), healthy, sick and changed, through the whole program.
#include "lib/testing/fabric/fabric.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/topology.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using ibtest::FakeFabric;
using test::Result;

class FabricCmd : public madtest::MadCmd {
 protected:
  std::string tmp(const char* name) {
    std::string p = ::testing::TempDir() + "rdma-fabric-" + name;
    files_.push_back(p);
    return p;
  }
  ~FabricCmd() override {
    for (const std::string& f : files_) std::remove(f.c_str());
  }

  std::vector<std::string> files_;
};

TEST_F(FabricCmd, ShowListsEveryNodeOnce) {
  nlohmann::json j = json({"fabric", "show"});
  ASSERT_EQ(j.size(), 6u);
  std::set<std::string> names;
  for (const auto& n : j) {
    names.insert(n["description"]);
    int idx = fabric_.node(n["description"].get<std::string>());
    const auto& node = fabric_.nodes()[idx];
    EXPECT_EQ(n["type"], node.is_switch() ? "switch" : "ca");
    EXPECT_EQ(n["ports"], node.num_ports());
    EXPECT_EQ(n["node_guid"], guid(node.node_guid));
    ASSERT_EQ(n["lids"].size(), 1u);
    EXPECT_EQ(n["lids"][0], fabric_.lid(idx, node.is_switch() ? 0 : 1));
  }
  EXPECT_EQ(names, (std::set<std::string>{"hca1", "hca2", "hca3", "hca4", "sw1", "sw2"}));
  EXPECT_EQ(json({"fabric", "show", "switches"}).size(), 2u);
  EXPECT_EQ(json({"fabric", "show", "cas"}).size(), 4u);
  EXPECT_EQ(json({"fabric", "show", "routers"}).size(), 0u);
}

TEST_F(FabricCmd, TextAndJsonSayTheSame) {
  Result text = run({"fabric", "show", "switches"});
  ASSERT_EQ(text.status, 0) << text.err;
  nlohmann::json j = json({"fabric", "show", "switches"});
  uint16_t lid = fabric_.lid(fabric_.node("sw1"));
  EXPECT_EQ(text.out.substr(0, text.out.find('\n')),
            "type switch node_guid " + j[0]["node_guid"].get<std::string>() + " lids " +
                std::to_string(lid) + " ports 8 description \"sw1\"");
}

TEST_F(FabricCmd, LinksEachOnceWithBothEnds) {
  nlohmann::json j = json({"fabric", "links"});
  ASSERT_EQ(j.size(), 6u);
  std::set<std::string> pairs;
  for (const auto& l : j) {
    EXPECT_EQ(l["width"], "4X");
    EXPECT_EQ(l["state"], "ACTIVE");
    std::string a = l["description"].get<std::string>() + "/" + l["port"].dump();
    std::string b = l["peer_description"].get<std::string>() + "/" + l["peer_port"].dump();
    pairs.insert(std::min(a, b) + "-" + std::max(a, b));
  }
  EXPECT_EQ(pairs, (std::set<std::string>{"hca1/1-sw1/1", "hca2/1-sw1/2", "sw1/3-sw2/3",
                                          "sw1/4-sw2/4", "hca3/1-sw2/1", "hca4/1-sw2/2"}));
  // all: the switches' eight unconnected ports too, without a peer.
  nlohmann::json all = json({"fabric", "links", "all"});
  EXPECT_EQ(all.size(), 6u + 8u);
  for (const auto& l : all)
    if (!l.contains("peer_node_guid")) {
      EXPECT_EQ(l["state"], "DOWN");
    }
}

// The links of a JSON fabric links answer as "node/port-node/port" pairs.
std::set<std::string> fabric_cmd_links(const nlohmann::json& j) {
  std::set<std::string> pairs;
  for (const auto& l : j) {
    std::string a = l["description"].get<std::string>() + "/" + l["port"].dump();
    std::string b = l["peer_description"].get<std::string>() + "/" + l["peer_port"].dump();
    pairs.insert(std::min(a, b) + "-" + std::max(a, b));
  }
  return pairs;
}

TEST_F(FabricCmd, LinksFromANodeAndWithinHops) {
  using Links = std::set<std::string>;
  const Links sw1{"hca1/1-sw1/1", "hca2/1-sw1/2", "sw1/3-sw2/3", "sw1/4-sw2/4"};
  const Links sw2{"hca3/1-sw2/1", "hca4/1-sw2/2", "sw1/3-sw2/3", "sw1/4-sw2/4"};
  // from TARGET: the start node's links (one hop, as iblinkinfo -S/-D).
  EXPECT_EQ(fabric_cmd_links(json({"fabric", "links", "from", "dr", "0,1"})), sw1);
  const std::string sw2_lid = std::to_string(fabric_.lid(fabric_.node("sw2")));
  EXPECT_EQ(fabric_cmd_links(json({"fabric", "links", "from", "lid", sw2_lid})), sw2);
  // hops N from the local node (iblinkinfo -n), and from a remote CA,
  // found by its port GUID through the SA.
  EXPECT_EQ(fabric_cmd_links(json({"fabric", "links", "hops", "1"})), Links{"hca1/1-sw1/1"});
  EXPECT_EQ(fabric_cmd_links(json({"fabric", "links", "hops", "2"})), sw1);
  const std::string hca4 = guid(node("hca4").ports[1].guid);
  EXPECT_EQ(fabric_cmd_links(json({"fabric", "links", "hops", "2", "from", "guid", hca4})), sw2);
  // The form is the full listing's: the same fields for every link (the
  // end found first, which the start node decides, comes first).
  nlohmann::json full = json({"fabric", "links"});
  nlohmann::json part = json({"fabric", "links", "from", "dr", "0,1"});
  ASSERT_EQ(part.size(), 4u);
  auto keys = [](const nlohmann::json& o) {
    std::vector<std::string> k;
    for (const auto& [key, v] : o.items())
      if (key.find("port_guid") == std::string::npos) k.push_back(key);  // CA ends only
    return k;
  };
  for (const auto& l : part) EXPECT_EQ(keys(l), keys(full[0])) << l.dump();
  // `all` at the edge of a scan with hops: sw2's link to hca3 lies beyond
  // it, so its port 1 is listed without a peer; from alone lists sw1's
  // own ports, its four links and four down ports.
  bool edge = false;
  for (const auto& l : json({"fabric", "links", "all", "from", "dr", "0,1", "hops", "1"}))
    edge |= l["description"] == "sw2" && l["port"] == 1 && !l.contains("peer_node_guid");
  EXPECT_TRUE(edge);
  nlohmann::json own = json({"fabric", "links", "all", "from", "dr", "0,1"});
  EXPECT_EQ(own.size(), 8u);
  for (const auto& l : own)
    EXPECT_TRUE(l["description"] == "sw1" || l["peer_description"] == "sw1") << l.dump();
  // A bare number after from is still a saved file's name.
  EXPECT_EQ(run({"fabric", "links", "from", "5"}).err,
            "cannot read \"5\": No such file or directory\n");
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } bad[] = {
      {{"fabric", "links", "hops", "1", "from", "/tmp/f"},
       "\"from TARGET\" and \"hops\" scan the live fabric; no \"from FILE\"\n"},
      {{"--sa", "fabric", "links", "from", "dr", "0,1"},
       "--sa reads the whole fabric from the SA; a partial scan is by directed route\n"},
      {{"fabric", "links", "hops"}, "missing N after \"hops\"\n"},
      {{"fabric", "links", "from", "lid"}, "\"lid\" needs a LID\n"},
  };
  for (const Case& k : bad) {
    Result r = run(k.args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, k.err);
  }
  Result far = run({"fabric", "links", "hops", "64"});
  EXPECT_EQ(far.status, 1);
  EXPECT_NE(far.err.find("hops"), std::string::npos) << far.err;
  Result nowhere = run({"fabric", "links", "from", "lid", "99"});
  EXPECT_EQ(nowhere.status, 1);
  EXPECT_NE(nowhere.err.find("no route to lid 99"), std::string::npos) << nowhere.err;
}

TEST_F(FabricCmd, SaveThenReadBackWithoutAMad) {
  std::string file = tmp("saved");
  Result r = run({"fabric", "save", file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  Result live = run({"fabric", "links", "all"});
  uint64_t sent = fabric_.stats().received[0x81];
  Result cached = run({"fabric", "links", "all", "from", file});
  ASSERT_EQ(cached.status, 0) << cached.err;
  EXPECT_EQ(cached.out, live.out);
  std::string shown = run({"-d", "fabric", "show", "from", file}).out;
  EXPECT_EQ(fabric_.stats().received[0x81], sent);  // not a MAD from the file
  EXPECT_EQ(shown, run({"-d", "fabric", "show"}).out);
  EXPECT_GT(fabric_.stats().received[0x81], sent);  // the live show's
}

TEST_F(FabricCmd, DiffNamesWhatChangedAndSaysSoInItsExitStatus) {
  std::string file = tmp("before");
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  Result same = run({"fabric", "diff", file});
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_EQ(same.out, "");
  fabric_.unlink(fabric_.node("sw2"), 4);
  fabric_.set_link_active(fabric_.node("sw2"), 1, 1, 1);  // hca3's link at 1X
  Result r = run({"-j", "fabric", "diff", file});
  EXPECT_EQ(r.status, 1) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  bool link_gone = false, width = false, state = false;
  for (const auto& c : j) {
    if (c["change"] == "gone" && c["object"] == "link" && c["description"] == "sw1" &&
        c["port"] == 4 && c["peer_description"] == "sw2" && c["peer_port"] == 4)
      link_gone = true;
    if (c["change"] == "changed" && c["field"] == "width" && c["before"] == "4X" &&
        c["now"] == "1X")
      width = true;
    if (c["change"] == "changed" && c["field"] == "state" && c["description"] == "sw2" &&
        c["port"] == 4 && c["before"] == "ACTIVE" && c["now"] == "DOWN")
      state = true;
  }
  EXPECT_TRUE(link_gone) << r.out;
  EXPECT_TRUE(width) << r.out;
  EXPECT_TRUE(state) << r.out;
  // Two saved files, no fabric at all.
  std::string after = tmp("after");
  ASSERT_EQ(run({"fabric", "save", after}).status, 0);
  EXPECT_EQ(run({"fabric", "diff", file, "from", after}).status, 1);
  EXPECT_EQ(run({"fabric", "diff", after, "from", after}).status, 0);
  Result missing = run({"fabric", "diff", "/nonexistent/x"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err, "cannot read \"/nonexistent/x\": No such file or directory\n");
}

TEST_F(FabricCmd, ASickFabricIsAPartialResultWithWarnings) {
  fabric_.drop({{fabric_.node("hca3"), -1, 0x11}});
  Result r = run({"--timeout", "10", "--retries", "1", "-j", "fabric", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 5u);
  EXPECT_EQ(r.err,
            "warning: no reply to NodeInfo from dr 0,1,3,1 (2 tries, each given back at once by "
            "the local port: Connection timed out)\n");
}

TEST_F(FabricCmd, TopologyInIbnetdiscoversFormatParsesBack) {
  Result r = run({"fabric", "topology"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::string file = tmp("topo");
  std::FILE* f = std::fopen(file.c_str(), "w");
  std::fputs(r.out.c_str(), f);
  std::fclose(f);
  ibtest::Topology back = ibtest::load_topology(file);
  EXPECT_EQ(back.nodes.size(), 6u);
  EXPECT_EQ(back.links(), 6u);
  EXPECT_NE(r.out.find("Switch\t8 \"S-0000000000200000\"\t\t# \"sw1\" base port 0 lid "),
            std::string::npos)
      << r.out;
}

TEST_F(FabricCmd, BadCommandLinesAreOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"fabric", "show", "bogus"},
       "unknown fabric show argument \"bogus\" (switches, cas, hosts, routers or pkeys)\n"},
      {{"fabric", "links", "x"}, "unknown fabric links argument \"x\" (all, degraded or down)\n"},
      {{"fabric", "save"}, "missing FILE to save the fabric to\n"},
      {{"fabric", "show", "from"}, "missing FILE after \"from\"\n"},
      {{"fabric", "show", "switches", "cas"}, "unexpected argument \"cas\"\n"},
      {{"-j", "fabric", "topology"}, "fabric topology is ibnetdiscover's text format; no JSON\n"},
      {{"fabric", "topology", "grouped", "bogus"},
       "unknown fabric topology argument \"bogus\" (full, grouped, dot or slurm)\n"},
      {{"fabric", "topology", "grouped", "full", "g"}, "fabric topology \"g\" given twice\n"},
      {{"fabric", "show", "from", "/nonexistent/f"},
       "cannot read \"/nonexistent/f\": No such file or directory\n"},
  };
  for (const Case& k : cases) {
    Result r = run(k.args);
    EXPECT_EQ(r.status, 1) << k.args[1];
    EXPECT_EQ(r.err, k.err);
    // A usage error prints nothing on stdout, not even -j's "[]"; a file
    // that cannot be read is no usage error: -j keeps its one document.
    EXPECT_EQ(r.out, "") << k.args[1];
  }
  Result missing = run({"-j", "fabric", "show", "from", "/nonexistent/f"});
  EXPECT_EQ(missing.out, "[]\n");
  EXPECT_EQ(fabric_.stats().received[0x81], 0u);  // no MAD for a bad line
}

TEST_F(FabricCmd, ADamagedCacheFileIsOneLine) {
  std::string file = tmp("bad");
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  int lines = 0;
  for (std::FILE* f = std::fopen(file.c_str(), "r"); f;) {
    int ch = std::fgetc(f);
    if (ch == EOF) {
      std::fclose(f);
      break;
    }
    lines += ch == '\n';
  }
  EXPECT_EQ(lines, 1 + 6 + 6);  // header, nodes, links
  std::FILE* f = std::fopen(file.c_str(), "a");
  std::fputs("{\"link\":[0,1,99,1]}\n", f);
  std::fclose(f);
  Result r = run({"fabric", "show", "from", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, file + ":14: a link to a node or port the file does not have\n");
  // Another version's columns are refused, not misread.
  f = std::fopen(file.c_str(), "w");
  std::fputs("{\"format\":\"rdma-fabric\",\"version\":1,\"port_info\":[\"lid\"]}\n", f);
  std::fclose(f);
  r = run({"fabric", "show", "from", file});
  EXPECT_EQ(r.err, file + ":1: its columns are not this rdma's (written by another version?)\n");
  f = std::fopen(file.c_str(), "w");
  std::fputs("vendid=0x0\n", f);
  std::fclose(f);
  r = run({"fabric", "show", "from", file});
  EXPECT_EQ(r.err, file + ":1: not a line of an rdma fabric file (not JSON)\n");
}

}  // namespace
}  // namespace rdma

namespace rdma {
namespace {

TEST_F(FabricCmd, ErrorsListsThePortsOverThresholdWithTheirCounters) {
  // Nothing over: the summary alone, as ibqueryerrors'.
  EXPECT_EQ(run({"fabric", "errors"}).out,
            "summary: 6 nodes checked, 20 ports checked, 0 ports over threshold on 0 nodes\n");
  EXPECT_EQ(run({"fabric", "errors"}).status, 0);
  EXPECT_EQ(
      run({"-j", "fabric", "errors"}).out,
      R"([{"ports":[],"summary":{"nodes_checked":6,"ports_checked":20,"ports_over_threshold":0,)"
      R"("nodes_over_threshold":0,"pma_failures":0}}])"
      "\n");
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(fabric_.node("hca2"), 1, "PortRcvErrors", 4);
  Result r = run({"-j", "fabric", "errors"});
  EXPECT_EQ(r.status, 1) << r.err;  // ports over threshold, as ibqueryerrors
  // One object: the port records in "ports", the counts in "summary".
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.size(), 1u);
  ASSERT_EQ(doc[0].size(), 2u);
  EXPECT_EQ(doc[0]["summary"],
            nlohmann::json::parse(R"({"nodes_checked":6,"ports_checked":20,)"
                                  R"("ports_over_threshold":2,"nodes_over_threshold":2,)"
                                  R"("pma_failures":0})"));
  nlohmann::json j = doc[0]["ports"];
  ASSERT_EQ(j.size(), 2u);
  std::map<std::string, nlohmann::json> by;
  for (const auto& p : j) by[p["description"]] = p;
  EXPECT_EQ(by["sw2"]["port"], 3);
  EXPECT_EQ(by["sw2"]["symbol_errors"], 17);
  EXPECT_EQ(by["sw2"]["lid"], fabric_.lid(fabric_.node("sw2")));
  EXPECT_EQ(by["hca2"]["rcv_errors"], 4);
  // Only the counters over their thresholds; every one with -d. Where: node_guid,
  // description, port, lid (and a CA port's port_guid), then symbol_errors.
  EXPECT_EQ(by["sw2"].size(), 5u) << by["sw2"];
  EXPECT_EQ(by["hca2"].size(), 6u) << by["hca2"];
  EXPECT_FALSE(by["hca2"].contains("xmit_wait"));
  EXPECT_FALSE(by["hca2"].contains("xmit_bytes"));
  nlohmann::json d = nlohmann::json::parse(run({"-d", "-j", "fabric", "errors"}).out)[0]["ports"];
  ASSERT_EQ(d.size(), 2u);
  for (const auto& p : d) {
    EXPECT_EQ(p.size(), 4u + (p.contains("port_guid") ? 1 : 0) + 14u) << p;  // QP1Dropped last
    EXPECT_EQ(p["qp1_dropped"], 0);
    EXPECT_EQ(p["xmit_wait"], 0);
    EXPECT_FALSE(p.contains("xmit_bytes"));
  }
  EXPECT_EQ(by["hca2"]["node_guid"], guid(fabric_.nodes()[fabric_.node("hca2")].node_guid));
  // A CA's port carries its own GUID, a switch's port none (as ibqueryerrors).
  EXPECT_EQ(by["hca2"]["port_guid"], guid(fabric_.nodes()[fabric_.node("hca2")].ports[1].guid));
  EXPECT_FALSE(by["sw2"].contains("port_guid"));
  // Text: the same keys and values.
  Result t = run({"fabric", "errors", "counters", "symbol_errors"});
  EXPECT_NE(t.out.find("port 3 lid " + std::to_string(fabric_.lid(fabric_.node("sw2"))) +
                       " symbol_errors 17"),
            std::string::npos)
      << t.out;
  EXPECT_EQ(t.out.find("rcv_errors"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(" symbol_errors 17\nsummary: 6 nodes checked, 20 ports checked, 1 port "
                       "over threshold on 1 node\n"),
            std::string::npos)
      << t.out;
}

// ibqueryerrors -D PATH (dr PATH: the node discovery reached by it) and
// -r (peer: the far end of each port listed).
TEST_F(FabricCmd, ErrorsByDirectedRouteAndWithThePeer) {
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(fabric_.node("hca2"), 1, "PortRcvErrors", 4);
  Result r = run({"-j", "fabric", "errors", "dr", "0,1,3", "peer"});
  EXPECT_EQ(r.status, 1) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out)[0];
  ASSERT_EQ(doc["ports"].size(), 1u) << doc;
  const nlohmann::json& p = doc["ports"][0];
  EXPECT_EQ(p["description"], "sw2");
  EXPECT_EQ(p["port"], 3);
  EXPECT_EQ(doc["summary"]["nodes_checked"], 1);
  const ibtest::FabricNode& sw2 = fabric_.nodes()[fabric_.node("sw2")];
  const ibtest::FabricNode& peer = fabric_.nodes()[sw2.ports[3].peer_node];
  EXPECT_EQ(p["peer_node_guid"], guid(peer.node_guid));
  EXPECT_EQ(p["peer_description"], peer.description);
  EXPECT_EQ(p["peer_port"], sw2.ports[3].peer_port);
  EXPECT_EQ(p["peer_lid"], fabric_.lid(sw2.ports[3].peer_node));
  EXPECT_FALSE(p.contains("peer_port_guid"));  // a switch's port
  // A CA's peer is a switch; a switch's peer a CA: its port GUID.
  nlohmann::json all = nlohmann::json::parse(run({"-j", "fabric", "errors", "peer"}).out)[0];
  ASSERT_EQ(all["ports"].size(), 2u);
  for (const auto& q : all["ports"])
    if (q["description"] == "hca2") {
      EXPECT_EQ(q["peer_description"], "sw1");
    }
  // Without peer, none of it.
  EXPECT_FALSE(nlohmann::json::parse(run({"-j", "fabric", "errors"}).out)[0]["ports"][0].contains(
      "peer_port"));
  // The same node by its LID; a route that reaches no node; two nodes.
  EXPECT_EQ(run({"-j", "fabric", "errors", "lid", std::to_string(fabric_.lid(fabric_.node("sw2"))),
                 "peer"})
                .out,
            r.out);
  // Another route to a node than discovery's: followed (to sw1 and back).
  Result back = run({"-j", "fabric", "errors", "dr", "0,1,3,3", "peer"});
  EXPECT_EQ(back.err, "");
  EXPECT_EQ(back.out, run({"-j", "fabric", "errors", "dr", "0,1", "peer"}).out);
  EXPECT_NE(back.out, r.out);
  r = run({"fabric", "errors", "dr", "0,1,7"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "no node with directed route 0,1,7 in the fabric\n");
  r = run({"fabric", "errors", "dr", "0,1", "lid", "2"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "fabric errors takes one of lid LID, guid GUID or dr PATH\n");
  r = run({"fabric", "errors", "dr", "0,x"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("0,x"), std::string::npos) << r.err;
}

TEST_F(FabricCmd, ErrorsThresholdsDataAndBadWords) {
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(fabric_.node("sw2"), 3, "PortXmitData", 1ull << 33);
  EXPECT_EQ(run({"fabric", "errors", "threshold", "SymbolErrorCounter=17"}).out,
            "summary: 6 nodes checked, 20 ports checked, 0 ports over threshold on 0 nodes\n");
  nlohmann::json j = nlohmann::json::parse(
      run({"-j", "fabric", "errors", "threshold", "symbol_errors=16", "data"}).out)[0]["ports"];
  ASSERT_EQ(j.size(), 1u);
  // PortCountersExtended: 64 bits, 4-byte words shown in bytes.
  EXPECT_EQ(j[0]["xmit_bytes"], 4ull << 33);
  EXPECT_EQ(j[0]["rcv_bytes"], 0);
  EXPECT_FALSE(j[0].contains("xmit_data"));
  // A threshold file's unknown name is a warning naming the file and line;
  // the rest of the file counts. QP1Dropped is known (ibqueryerrors ignores it).
  std::string file = tmp("thresholds");
  std::FILE* f = std::fopen(file.c_str(), "w");
  std::fputs("QP1Dropped=1\nQP1Dropt=1\nSymbolErrorCounter=17\n", f);
  std::fclose(f);
  Result warned = run({"fabric", "errors", "thresholds", file});
  EXPECT_EQ(warned.status, 0);
  EXPECT_EQ(warned.err, "warning: " + file + ":2: unknown error counter \"QP1Dropt\", ignored\n");
  EXPECT_EQ(warned.out,
            "summary: 6 nodes checked, 20 ports checked, 0 ports over threshold on 0 nodes\n");
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"fabric", "errors", "threshold", "Bogus=1"},
           {"fabric", "errors", "threshold", "SymbolErrorCounter=x"},
           {"fabric", "errors", "threshold"},
           {"fabric", "errors", "counters", "symbol_errors,nope"},
           {"fabric", "errors", "thresholds", "/nonexistent"},
           {"fabric", "errors", "frobnicate"},
           {"fabric", "errors", "reset", "some"},
       }) {
    Result r = run(bad);
    // errors exits as diff(1), 2 for bad input; errors reset as iproute2.
    EXPECT_EQ(r.status, bad[2] == "reset" ? 1 : 2) << bad.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST_F(FabricCmd, ErrorsFromASavedFabricAndASilentPma) {
  std::string file = tmp("errors.json");
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  fabric_.set_counter(fabric_.node("hca3"), 1, "LinkDownedCounter", 1);
  uint64_t smps = fabric_.stats().received[mad::kClassSmiDr];
  fabric_.drop({{fabric_.node("hca4"), mad::kClassPerf, -1}, 1.0});
  Result r = run({"-j", "fabric", "errors", "from", file});
  EXPECT_EQ(fabric_.stats().received[mad::kClassSmiDr], smps);  // no discovery
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // A CA's PMA is asked for PortCounters first (no ClassPortInfo without data).
  EXPECT_NE(r.err.find("warning: no reply to PortCounters port 1 from lid"), std::string::npos)
      << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out)[0];
  ASSERT_EQ(j["ports"].size(), 1u);
  EXPECT_EQ(j["ports"][0]["description"], "hca3");
  EXPECT_EQ(j["ports"][0]["link_downed"], 1);
  // The silent PMA: one failure; its node is not checked, its ports are.
  EXPECT_EQ(j["summary"]["pma_failures"], 1);
  EXPECT_EQ(j["summary"]["nodes_checked"], 5);
  EXPECT_EQ(j["summary"]["ports_checked"], 20);
  r = run({"fabric", "errors", "from", file});
  EXPECT_NE(r.out.find("summary: 5 nodes checked, 20 ports checked, 1 port over threshold on 1 "
                       "node, 1 PMA query failed\n"),
            std::string::npos)
      << r.out;
}

TEST_F(FabricCmd, ErrorsResetClearsErrorsOrEverything) {
  int sw2 = fabric_.node("sw2");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(sw2, 3, "PortXmitData", 100);
  fabric_.set_counter(fabric_.node("hca3"), 1, "PortRcvErrors", 2);
  Result r = run({"fabric", "errors", "reset"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(fabric_.counter(sw2, 3, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(fabric_.node("hca3"), 1, "PortRcvErrors"), 0u);
  EXPECT_EQ(fabric_.counter(sw2, 3, "PortXmitData"), 100u);
  EXPECT_EQ(run({"fabric", "errors", "reset", "all"}).status, 0);
  EXPECT_EQ(fabric_.counter(sw2, 3, "PortXmitData"), 0u);
}

}  // namespace
}  // namespace rdma

namespace rdma {
namespace {

TEST_F(FabricCmd, LinksDegradedAndDown) {
  // Every port supports 4X QDR here; the double trains links at 4X QDR.
  for (auto& n : fabric_.nodes())
    for (auto& p : n.ports) {
      p.width_supported = ibtest::kWidth4x | ibtest::kWidth1x;
      p.speed_supported = 7;
      if (p.peer_node >= 0) p.speed_active = 4;
    }
  EXPECT_EQ(run({"fabric", "links", "degraded"}).out, "");
  fabric_.set_link_active(fabric_.node("sw2"), 1, ibtest::kWidth1x, 4);  // to hca3
  fabric_.set_link_active(fabric_.node("sw1"), 2, ibtest::kWidth4x, 1);  // to hca2, SDR
  nlohmann::json j = json({"fabric", "links", "degraded"}, 1);
  ASSERT_EQ(j.size(), 2u) << j.dump();
  std::map<std::string, nlohmann::json> by;
  for (const auto& l : j)
    by[l["description"].get<std::string>() + "/" + l["peer_description"].get<std::string>()] = l;
  ASSERT_TRUE(by.count("hca2/sw1")) << j.dump();
  ASSERT_TRUE(by.count("hca3/sw2")) << j.dump();
  EXPECT_EQ(by["hca3/sw2"]["could_be_width"], "4X");
  EXPECT_EQ(by["hca3/sw2"]["width"], "1X");
  EXPECT_EQ(by["hca2/sw1"]["could_be_speed"], 10.0);
  // down: the switches' unconnected ports 5-8 (discovery reads a CA's
  // arrival port only), then sw2 port 2 unlinked (hca4 is then not reached).
  size_t down = json({"fabric", "links", "down"}, 1).size();
  EXPECT_EQ(down, 8u);
  std::string saved = ::testing::TempDir() + "rdma-fabric-links-down-since";
  ASSERT_EQ(run({"fabric", "save", saved}).status, 0);
  EXPECT_EQ(run({"fabric", "links", "down", "since", saved}).status, 0);  // none new
  fabric_.unlink(fabric_.node("sw2"), 2);
  nlohmann::json d = json({"fabric", "links", "down"}, 1);
  ASSERT_EQ(d.size(), down + 1);
  size_t sw2_port2 = 0;
  for (const auto& p : d) sw2_port2 += p["description"] == "sw2" && p["port"] == 2;
  EXPECT_EQ(sw2_port2, 1u);
  // since FILE (iblinkinfo --filterdownports): only the port gone down.
  nlohmann::json since = json({"fabric", "links", "down", "since", saved}, 1);
  ASSERT_EQ(since.size(), 1u) << since.dump();
  EXPECT_EQ(since[0]["description"], "sw2");
  EXPECT_EQ(since[0]["port"], 2);
  EXPECT_EQ(run({"fabric", "links", "all", "since", saved}).status, 1);
  std::remove(saved.c_str());
  Result r = run({"fabric", "links", "sideways"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("all, degraded or down"), std::string::npos);
}

}  // namespace
}  // namespace rdma

namespace rdma {
namespace {

// The sample of family name whose labels contain labels, or "" when none.
std::string fabric_metrics_sample(const std::string& doc, const std::string& name,
                                  const std::string& labels) {
  size_t at = 0;
  while ((at = doc.find("\n" + name + "{", at)) != std::string::npos) {
    size_t end = doc.find('\n', at + 1);
    std::string line = doc.substr(at + 1, end - at - 1);
    at = end;
    if (line.find(labels) != std::string::npos) return line;
  }
  return "";
}

TEST_F(FabricCmd, ErrorsOpenMetricsSaysWhatJsonSays) {
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(fabric_.node("hca2"), 1, "PortRcvErrors", 4);
  fabric_.nodes()[fabric_.node("hca2")].description = "hca \"2\"\\x";
  // Every counter of every port (the ports -d lists, and the others with
  // zeros); no summary.
  nlohmann::json doc = nlohmann::json::parse(run({"-d", "-j", "fabric", "errors"}).out)[0];
  ASSERT_TRUE(doc.contains("summary"));
  size_t ports_checked = doc["summary"]["ports_checked"];
  nlohmann::json j = doc["ports"];
  Result r = run({"--openmetrics", "fabric", "errors"});
  EXPECT_EQ(r.status, 1) << r.err;  // ports over threshold, as without the option
  EXPECT_EQ(r.out.find("summary"), std::string::npos);
  EXPECT_EQ(r.out.find("checked"), std::string::npos);
  for (const auto& p : j) {
    std::string desc = p["description"];
    std::string esc;
    for (char ch : desc)
      esc += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
    std::string labels = "local_guid=\"" + p["node_guid"].get<std::string>() + "\",local_name=\"" +
                         esc + "\",local_port=\"" + p["port"].dump() + "\"";
    for (const char* k : {"symbol_errors", "rcv_errors", "xmit_wait"}) {
      std::string line =
          fabric_metrics_sample(r.out, "rdma_ib_port_" + std::string(k) + "_total", labels);
      EXPECT_TRUE(line.ends_with("} " + p[k].dump())) << k << " " << labels << "\n" << r.out;
    }
  }
  EXPECT_EQ(r.out.find("lid"), std::string::npos);
  // 14 counter families (QP1Dropped the 14th) of every port checked, then _up and
  // _duration_seconds (2 lines each) and # EOF.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 14 * (2 + ports_checked) + 2 * 3 + 1);
  EXPECT_NE(r.out.find("# TYPE rdma_ib_fabric_errors_up gauge\nrdma_ib_fabric_errors_up 1\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nrdma_ib_fabric_errors_duration_seconds "), std::string::npos);
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"--openmetrics", "fabric", "show"},
           {"--openmetrics", "-w", "1", "fabric", "errors"},
           {"--openmetrics", "fabric", "errors", "reset"},
           {"-c", "2", "fabric", "errors"},
           {"-w", "1", "fabric", "links"},
       }) {
    Result b = run(bad);
    // fabric errors exits as diff(1): 2 for bad input; the others 1.
    EXPECT_EQ(b.status, bad.back() == "errors" ? 2 : 1) << bad[1];
    EXPECT_EQ(b.out, "");
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

// --node-name-map: the file's names where the descriptions were, in text
// (quoted, escaped), JSON, the metrics' labels and the other fabric views;
// a saved fabric keeps the NodeDescriptions; a bad line is one error line.
TEST_F(FabricCmd, NodeNameMapNamesTheNodesEverywhere) {
  std::string map = tmp("names.map");
  std::ofstream(map) << "# site names\n"
                     << guid(fabric_.nodes()[fabric_.node("sw1")].node_guid)
                     << " \"leaf één \\ 1\"\n"  // a backslash: escaped in text
                     << guid(fabric_.nodes()[fabric_.node("hca2")].node_guid)
                     << "  höst 2 \t# bare\n";
  fabric_.set_counter(fabric_.node("hca2"), 1, "PortRcvErrors", 4);
  nlohmann::json j = json({"--node-name-map", map, "fabric", "show"});
  std::set<std::string> names;
  for (const auto& n : j) names.insert(n["description"]);
  EXPECT_EQ(names,
            (std::set<std::string>{"hca1", "höst 2", "hca3", "hca4", "leaf één \\ 1", "sw2"}));
  Result t = run({"--node-name-map", map, "fabric", "show", "switches"});
  EXPECT_NE(t.out.find(" ports 8 description \"leaf één \\\\ 1\"\n"), std::string::npos) << t.out;
  Result l = run({"--node-name-map", map, "fabric", "links"});
  EXPECT_NE(l.out.find(" description \"höst 2\" peer_type switch "), std::string::npos) << l.out;
  Result e = run({"--node-name-map", map, "--openmetrics", "fabric", "errors"});
  EXPECT_NE(e.out.find("local_name=\"höst 2\",local_port=\"1\","), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("remote_name=\"leaf één \\\\ 1\",remote_port=\"2\"} 4\n"), std::string::npos)
      << e.out;
  Result tp = run({"--node-name-map", map, "fabric", "topology"});
  EXPECT_NE(tp.out.find("höst 2"), std::string::npos) << tp.out;
  // save keeps what the nodes say; reading it back names them again.
  std::string saved = tmp("named");
  ASSERT_EQ(run({"--node-name-map", map, "fabric", "save", saved}).status, 0);
  EXPECT_NE(run({"fabric", "show", "from", saved}).out.find("description \"hca2\""),
            std::string::npos);
  EXPECT_NE(run({"--node-name-map", map, "fabric", "show", "from", saved})
                .out.find("description \"höst 2\""),
            std::string::npos);
  EXPECT_EQ(run({"--node-name-map", map, "fabric", "diff", saved}).status, 0);
  std::string bad = tmp("bad.map");
  std::ofstream(bad) << "0x1 one\nnot-a-guid two\n";
  Result b = run({"--node-name-map", bad, "fabric", "show"});
  EXPECT_EQ(b.status, 1);
  EXPECT_EQ(b.err, bad +
                       ":2: invalid GUID \"not-a-guid\" (expected GUID \"NAME\", e.g. "
                       "0x0002c90300a1b2c3 \"leaf 1\")\n");
  EXPECT_EQ(b.out, "");
}

TEST_F(FabricCmd, ErrorsWatchGivesRatesPerIntervalAndListsPortsThatMove) {
  fabric_.set_counter(fabric_.node("sw2"), 3, "SymbolErrorCounter", 17);
  // Nothing moved: each interval its time and no port; the port over its
  // threshold still makes the exit status 1.
  Result r = run({"-j", "-w", "1", "-c", "2", "fabric", "errors"});
  EXPECT_EQ(r.status, 1) << r.err;
  size_t nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos) << r.out;
  for (const std::string& doc : {r.out.substr(0, nl), r.out.substr(nl + 1)}) {
    nlohmann::json j = nlohmann::json::parse(doc);
    ASSERT_EQ(j.size(), 1u) << doc;
    EXPECT_TRUE(j[0]["time"].is_number()) << doc;
    EXPECT_EQ(j[0]["ports"], nlohmann::json::array()) << doc;
  }
  // -d: every port, every counter, with its rate from the second interval.
  Result d = run({"-d", "-j", "-w", "1", "-c", "2", "fabric", "errors"});
  nl = d.out.find('\n');
  ASSERT_NE(nl, std::string::npos) << d.out;
  nlohmann::json first = nlohmann::json::parse(d.out.substr(0, nl))[0]["ports"];
  nlohmann::json second = nlohmann::json::parse(d.out.substr(nl + 1))[0]["ports"];
  ASSERT_EQ(first.size(), 20u);
  size_t sw2_3 = 0;
  for (const auto& p : first)
    if (p["description"] == "sw2" && p["port"] == 3) {
      ++sw2_3;
      EXPECT_EQ(p["symbol_errors"], 17);
      EXPECT_FALSE(p.contains("rate"));
    }
  EXPECT_EQ(sw2_3, 1u);
  ASSERT_EQ(second.size(), 20u);
  EXPECT_EQ(second[0]["rate"]["symbol_errors"], 0);
  // Text: a time line a sweep, the intervals apart by an empty line.
  Result t = run({"-d", "-w", "1", "-c", "2", "fabric", "errors", "counters", "symbol_errors"});
  EXPECT_EQ(t.out.rfind("time 20", 0), 0u) << t.out;
  EXPECT_NE(t.out.find("symbol_errors 17\n"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("\n\ntime 20"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("symbol_errors 17 (0/s)\n"), std::string::npos) << t.out;
  Result quiet = run({"-w", "1", "-c", "2", "fabric", "errors"});
  EXPECT_EQ(std::count(quiet.out.begin(), quiet.out.end(), '\n'), 3) << quiet.out;
}

TEST_F(FabricCmd, ErrorsOfOnePortOfANode) {
  int sw2 = fabric_.node("sw2");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(sw2, 4, "SymbolErrorCounter", 5);
  std::string lid = std::to_string(fabric_.lid(sw2));
  nlohmann::json j =
      nlohmann::json::parse(run({"-j", "fabric", "errors", "lid", lid, "port", "4"}).out)[0];
  ASSERT_EQ(j["ports"].size(), 1u) << j;
  EXPECT_EQ(j["ports"][0]["port"], 4);
  EXPECT_EQ(j["ports"][0]["symbol_errors"], 5);
  EXPECT_EQ(j["summary"]["ports_checked"], 1);
  // A port with nothing over: only the summary.
  Result clean = run({"fabric", "errors", "lid", lid, "port", "1"});
  EXPECT_EQ(clean.status, 0) << clean.err;
  EXPECT_EQ(clean.out,
            "summary: 1 node checked, 1 port checked, 0 ports over threshold on 0 nodes\n");
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"fabric", "errors", "port", "1"},
           {"fabric", "errors", "lid", lid, "port", "77"},
           {"fabric", "errors", "lid", lid, "port"},
       }) {
    Result b = run(bad);
    EXPECT_EQ(b.status, 2) << bad.back();  // bad input to a findings command
    EXPECT_EQ(b.out, "");
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
}

TEST_F(FabricCmd, ErrorsResetOfOneNodeOrOnePort) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(sw2, 4, "SymbolErrorCounter", 5);
  fabric_.set_counter(hca3, 1, "PortRcvErrors", 2);
  std::string lid = std::to_string(fabric_.lid(sw2));
  Result r = run({"fabric", "errors", "reset", "lid", lid, "port", "3"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fabric_.counter(sw2, 3, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(sw2, 4, "SymbolErrorCounter"), 5u);
  EXPECT_EQ(fabric_.counter(hca3, 1, "PortRcvErrors"), 2u);
  EXPECT_EQ(run({"fabric", "errors", "reset", "guid", guid(fabric_.nodes()[sw2].node_guid)}).status,
            0);
  EXPECT_EQ(fabric_.counter(sw2, 4, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(hca3, 1, "PortRcvErrors"), 2u);
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"fabric", "errors", "reset", "port", "1"},
           {"fabric", "errors", "reset", "lid", "999"},
           {"fabric", "errors", "reset", "lid", lid, "port", "77"},
           {"fabric", "errors", "reset", "lid", lid, "guid", "0x1"},
           {"fabric", "errors", "reset", "lid"},
       }) {
    Result b = run(bad);
    EXPECT_EQ(b.status, 1) << bad.back();  // reset reports no findings: iproute2's statuses
    EXPECT_EQ(b.out, "");
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  }
  EXPECT_EQ(fabric_.counter(hca3, 1, "PortRcvErrors"), 2u);
}

}  // namespace
}  // namespace rdma
