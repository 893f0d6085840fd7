// The fabric file read back: lines as write_fabric writes them take the
// fast path, any other valid JSON (spaces, key order, escapes) the JSON
// reader, and both give the same fabric.
#include "lib/ib/cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

using testdata::kNet;

std::string text_of(const Fabric& f) {
  char* buf = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buf, &size);
  write_fabric(f, out);
  std::fclose(out);
  std::string s(buf, size);
  std::free(buf);
  return s;
}

class Cache : public ::testing::Test {
 protected:
  Cache() : fake_(ibtest::load_topology(kNet)), e_(fake_, {100, 1, 16}) {
    fake_.assign_lids();
    fabric_ = discover(e_).fabric;
    path_ = ::testing::TempDir() + "rdma-cache-test.json";
  }
  ~Cache() override { std::remove(path_.c_str()); }
  Fabric load(const std::string& text) {
    std::ofstream(path_) << text;
    return load_fabric(path_);
  }
  // text as a file saved when PortInfo had its first `columns` columns (the
  // one after them named next): the header and every port's row cut.
  static std::string cut_port_info(const std::string& text, size_t columns, const char* next) {
    std::istringstream in(text);
    std::string line, old;
    size_t rows = 0;
    while (std::getline(in, line)) {
      nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
      if (j.contains("format")) {
        EXPECT_EQ(j["port_info"][columns], next);
        while (j["port_info"].size() > columns) j["port_info"].erase(columns);
      } else if (j.contains("node")) {
        for (auto& p : j["node"]["ports"])
          if (!p[2].is_null()) {
            while (p[2].size() > columns) p[2].erase(columns);
            ++rows;
          }
      }
      old += j.dump() + "\n";
    }
    EXPECT_GT(rows, 0u);
    return old;
  }
  // Why text does not load with its header's column called name taken out.
  std::string refusal_without(std::string text, const std::string& name) {
    std::string column = ",\"" + name + "\"";
    size_t at = text.find(column);
    if (at == std::string::npos) return "no column " + name;
    text.erase(at, column.size());
    try {
      load(text);
    } catch (const Error& e) {
      return e.what();
    }
    return "loaded";
  }

  ibtest::FakeFabric fake_;
  mad::Engine e_;
  Fabric fabric_;
  std::string path_;
};

TEST_F(Cache, WhatIsSavedLoadsBackTheSame) {
  std::string saved = text_of(fabric_);
  Fabric back = load(saved);
  EXPECT_EQ(text_of(back), saved);
  ASSERT_EQ(back.nodes.size(), fabric_.nodes.size());
  EXPECT_EQ(back.links().size(), fabric_.links().size());
  for (size_t n = 0; n < back.nodes.size(); ++n) {
    EXPECT_EQ(back.nodes[n].description, fabric_.nodes[n].description);
    EXPECT_EQ(back.nodes[n].sw.has_value(), fabric_.nodes[n].sw.has_value());
  }
}

// A description with a byte that is not UTF-8 (a node's 64 bytes are
// anything; the fuzzer found it through a topology file) is saved with
// U+FFFD in its place and loads back.
TEST_F(Cache, ADescriptionThatIsNotUtf8IsSavedReplaced) {
  Fabric f = fabric_;
  f.nodes[0].description = "sw\xd7x";
  Fabric back = load(text_of(f));
  EXPECT_EQ(back.nodes[0].description, "sw\xef\xbf\xbdx");
}

TEST_F(Cache, OtherJsonLayoutsReadTheSame) {
  // Every line re-written by the JSON library with its keys sorted and
  // indented onto one line with spaces: none of it is the fast path's
  // layout, all of it the same fabric.
  std::string saved = text_of(fabric_);
  std::istringstream in(saved);
  std::string line, other;
  while (std::getline(in, line)) {
    std::string pretty = nlohmann::json::parse(line).dump(1);
    for (char& c : pretty)
      if (c == '\n') c = ' ';
    other += pretty + "\n";
  }
  ASSERT_NE(other, saved);
  EXPECT_EQ(text_of(load(other)), saved);
}

// GUIDs are JSON numbers in the file, never text in the form the views
// print (0x0000000000200000 now, 0000:0000:0020:0000 before): a file saved
// before the views changed their form loads as one saved now.
TEST_F(Cache, GuidsAreNumbersInTheFile) {
  std::string saved = text_of(fabric_);
  EXPECT_EQ(saved.find("0x"), std::string::npos) << saved;
  EXPECT_EQ(saved.find(":0000:"), std::string::npos) << saved;
  std::string guid = "," + std::to_string(fabric_.nodes[0].info.node_guid) + ",";
  EXPECT_NE(saved.find(guid), std::string::npos) << guid << " in " << saved;
  EXPECT_EQ(load(saved).nodes[0].info.node_guid, fabric_.nodes[0].info.node_guid);
}

// A file saved before PortInfo's last columns (LinkSpeedExtActive2,
// MlnxExtPortInfo.LinkSpeedActive, CapabilityMask2,
// MlnxExtPortInfo.LinkSpeedSupported): its header names the first 19, its
// rows hold 19 values. It loads, in write_fabric's layout (the fast path)
// and in another (the JSON reader), the missing values 0.
TEST_F(Cache, AFileSavedBeforeTheSpeedColumnsLoads) {
  fabric_.nodes[1].ports[1].info->speed_ext2_active = 1;  // what the old file cannot say
  std::string saved = text_of(fabric_);
  fabric_.nodes[1].ports[1].info->speed_ext2_active = 0;
  for (Node& n : fabric_.nodes)
    for (Port& p : n.ports)
      if (p.info) {
        p.info->caps2 = p.info->vl_cap = p.info->oper_vls = 0;
        p.info->hoq_life.reset();
        p.info->vl_stall_count.reset();
      }
  std::string now = text_of(fabric_);
  std::istringstream in(saved);
  std::string line, old;
  size_t rows = 0;
  while (std::getline(in, line)) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
    if (j.contains("format")) {
      ASSERT_EQ(j["port_info"].size(), 29u);
      ASSERT_EQ(j["port_info"][19], "LinkSpeedExtActive2");
      while (j["port_info"].size() > 19) j["port_info"].erase(19);
    } else if (j.contains("node")) {
      for (auto& p : j["node"]["ports"]) {
        if (p[2].is_null()) continue;
        while (p[2].size() > 19) p[2].erase(19);
        ++rows;
      }
    }
    old += j.dump() + "\n";
  }
  ASSERT_GT(rows, 0u);
  Fabric back = load(old);
  EXPECT_EQ(back.nodes[1].ports[1].info->speed_ext2_active, 0);
  EXPECT_EQ(text_of(back), now);
  // The JSON reader's way: indented onto one line, spaces inside.
  std::string other;
  std::istringstream in3(old);
  while (std::getline(in3, line)) {
    std::string pretty = nlohmann::ordered_json::parse(line).dump(1);
    std::replace(pretty.begin(), pretty.end(), '\n', ' ');
    other += pretty + "\n";
  }
  EXPECT_EQ(text_of(load(other)), now);
  // Fewer columns than the old file's are another tool's, refused.
  std::string why = refusal_without(old, "LinkSpeedExtEnabled");
  EXPECT_NE(why.find("its columns are not this rdma's"), std::string::npos) << why;
}

// A file saved before VLCap and OperationalVLs (the links check's VL
// columns): 23 PortInfo columns; it loads, the VLs 0 (not known).
TEST_F(Cache, AFileSavedBeforeTheVlColumnsLoads) {
  fabric_.nodes[1].ports[1].info->vl_cap = 4;
  fabric_.nodes[1].ports[1].info->oper_vls = 3;
  EXPECT_EQ(load(text_of(fabric_)).nodes[1].ports[1].info->oper_vls, 3);
  Fabric back = load(cut_port_info(text_of(fabric_), 23, "VLCap"));
  EXPECT_EQ(back.nodes[1].ports[1].info->vl_cap, 0);
  EXPECT_EQ(back.nodes[1].ports[1].info->oper_vls, 0);
  EXPECT_EQ(back.nodes.size(), fabric_.nodes.size());
}

// A file saved before HOQLife and VLStallCount (iblinkinfo -p's): 27
// PortInfo columns; it loads with both unknown (0 is a setting), and saved
// again they are null, which loads as unknown. A file with them keeps them.
TEST_F(Cache, AFileSavedBeforeTheHoqColumnsLoadsWithThemUnknown) {
  fabric_.nodes[1].ports[1].info->hoq_life = 18;
  fabric_.nodes[1].ports[1].info->vl_stall_count = 7;
  Fabric now = load(text_of(fabric_));
  EXPECT_EQ(now.nodes[1].ports[1].info->hoq_life, uint8_t{18});
  EXPECT_EQ(now.nodes[1].ports[1].info->vl_stall_count, uint8_t{7});
  Fabric back = load(cut_port_info(text_of(fabric_), 27, "HOQLife"));
  EXPECT_FALSE(back.nodes[1].ports[1].info->hoq_life);
  EXPECT_FALSE(back.nodes[1].ports[1].info->vl_stall_count);
  EXPECT_EQ(back.nodes[1].ports[1].info->oper_vls, fabric_.nodes[1].ports[1].info->oper_vls);
  Fabric again = load(text_of(back));
  EXPECT_FALSE(again.nodes[1].ports[1].info->hoq_life);
  EXPECT_EQ(text_of(again), text_of(back));
}

// A file saved before SwitchInfo's MulticastFDBTop: 5 SwitchInfo columns.
// It loads (the fast path and the JSON reader alike) with the top not
// known - not 0, which says the switch keeps none - and saved again, the
// unknown top is null, which loads as unknown.
TEST_F(Cache, AFileSavedBeforeTheMulticastTopLoadsWithTheTopUnknown) {
  size_t switches = 0;
  for (Node& n : fabric_.nodes)
    if (n.sw) {
      ASSERT_EQ(n.sw->mcast_fdb_top, uint16_t{0});  // discovery read it
      n.sw->mcast_fdb_top = 0xc01f;
      ++switches;
    }
  ASSERT_GT(switches, 0u);
  Fabric now = load(text_of(fabric_));
  for (const Node& n : now.nodes)
    if (n.sw) {
      EXPECT_EQ(n.sw->mcast_fdb_top, uint16_t{0xc01f});
    }
  std::istringstream in(text_of(fabric_));
  std::string line, old, other;
  size_t rows = 0;
  while (std::getline(in, line)) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
    if (j.contains("format")) {
      ASSERT_EQ(j["switch_info"].size(), 6u);
      ASSERT_EQ(j["switch_info"][5], "MulticastFDBTop");
      j["switch_info"].erase(5);
    } else if (j.contains("node") && j["node"].contains("switch_info")) {
      ASSERT_EQ(j["node"]["switch_info"][5], 0xc01f);
      j["node"]["switch_info"].erase(5);
      ++rows;
    }
    old += j.dump() + "\n";
    std::string pretty = j.dump(1);
    std::replace(pretty.begin(), pretty.end(), '\n', ' ');
    other += pretty + "\n";
  }
  ASSERT_EQ(rows, switches);
  for (const std::string& text : {old, other}) {
    Fabric back = load(text);
    ASSERT_EQ(back.nodes.size(), fabric_.nodes.size());
    for (size_t n = 0; n < back.nodes.size(); ++n) {
      ASSERT_EQ(back.nodes[n].sw.has_value(), fabric_.nodes[n].sw.has_value()) << n;
      if (!back.nodes[n].sw) continue;
      EXPECT_FALSE(back.nodes[n].sw->mcast_fdb_top) << n;
      EXPECT_EQ(back.nodes[n].sw->mcast_fdb_cap, fabric_.nodes[n].sw->mcast_fdb_cap) << n;
      EXPECT_EQ(back.nodes[n].sw->linear_fdb_top, fabric_.nodes[n].sw->linear_fdb_top) << n;
    }
    // Saved again: the columns of now, the unknown top null.
    std::string again = text_of(back);
    EXPECT_NE(again.find("\"EnhancedPort0\",\"MulticastFDBTop\"]"), std::string::npos);
    EXPECT_NE(again.find(",null]"), std::string::npos) << again;
    Fabric twice = load(again);
    for (const Node& n : twice.nodes)
      if (n.sw) {
        EXPECT_FALSE(n.sw->mcast_fdb_top);
      }
    EXPECT_EQ(text_of(twice), again);
  }
  // Fewer SwitchInfo columns than the old file's are another tool's.
  std::string why = refusal_without(old, "EnhancedPort0");
  EXPECT_NE(why.find("its columns are not this rdma's"), std::string::npos) << why;
}

TEST_F(Cache, AnEscapedDescriptionIsRead) {
  fabric_.nodes[1].description = "sw \"one\"\\1";
  std::string saved = text_of(fabric_);
  Fabric back = load(saved);
  EXPECT_EQ(back.nodes[1].description, "sw \"one\"\\1");
  EXPECT_EQ(text_of(back), saved);
}

TEST_F(Cache, BadLinesAreStillErrorsWithTheirLine) {
  std::string saved = text_of(fabric_);
  // A node line that repeats the first node: the fast path leaves it to the
  // JSON reader, which names it.
  std::string first_node = saved.substr(saved.find('\n') + 1);
  first_node = first_node.substr(0, first_node.find('\n') + 1);
  try {
    load(saved + first_node);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("node GUID repeated"), std::string::npos) << e.what();
  }
  // A link to a port the node does not have.
  try {
    load(saved + "{\"link\":[0,200,1,1]}\n");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a link to a node or port the file does not have"),
              std::string::npos)
        << e.what();
  }
  // A PortInfo value too large for its field.
  std::string big = saved;
  size_t at = big.find("\"ports\":[[");
  ASSERT_NE(at, std::string::npos);
  size_t row = big.find(",[", at + 10);
  big.replace(row + 2, big.find(',', row + 2) - (row + 2), "99999999999999999999");
  try {
    load(big);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(":2: "), std::string::npos) << e.what();
  }
  // A PortState wider than its 4 bits (the model marks "no PortInfo" with
  // 255, so the file must not give it as a value).
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(saved.substr(0, saved.find('\n')));
  size_t state = 0;
  while (j["port_info"][state] != "PortState") ++state;
  std::istringstream in(saved);
  std::string line, bad;
  while (std::getline(in, line)) {
    nlohmann::ordered_json l = nlohmann::ordered_json::parse(line);
    if (l.contains("node"))
      for (auto& p : l["node"]["ports"])
        if (!p[2].is_null()) p[2][state] = 255;
    bad += l.dump() + "\n";
  }
  try {
    load(bad);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"PortState\" is out of range"), std::string::npos)
        << e.what();
  }
}

// A number the JSON reader holds as a float or a negative number where the
// model wants a whole one: an error naming the line and the value, not a
// conversion (a port GUID of 1.1e76 was undefined behaviour; the fuzzer's
// find) nor a wrapped value.
TEST_F(Cache, NumbersOutsideTheirTypeAreErrorsNotConversions) {
  std::string saved = text_of(fabric_);
  size_t node_line = saved.find("{\"node\"");
  ASSERT_NE(node_line, std::string::npos);
  std::string head = saved.substr(0, node_line);
  std::string first = saved.substr(node_line, saved.find('\n', node_line) + 1 - node_line);
  auto error_of = [&](const std::string& text) -> std::string {
    try {
      load(text);
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  };
  struct Case {
    const char* from;
    const char* to;
    const char* said;
  };
  nlohmann::ordered_json node = nlohmann::ordered_json::parse(first);
  const nlohmann::ordered_json& port = node["node"]["ports"][0];
  std::string ports = "\"ports\":[[" + port[0].dump() + ",";
  std::string guid = ports + port[1].dump();
  for (const Case& c : {Case{guid.c_str(), "\"ports\":[[1,1.11111e+76", "a port's GUID"},
                        Case{ports.c_str(), "\"ports\":[[-1,", "a port's number"},
                        Case{"\"path\":[]", "\"path\":[2.5]", "a path's port"}}) {
    std::string line = first;
    size_t at = line.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from << " in " << line;
    line.replace(at, std::string(c.from).size(), c.to);
    std::string said = error_of(head + line);
    EXPECT_NE(said.find(":2: " + std::string(c.said) + " is not a whole number"), std::string::npos)
        << said;
  }
  EXPECT_NE(error_of(saved + "{\"link\":[0,1,-5,1]}\n")
                .find("a link's node is not a whole number from 0 to 4294967295"),
            std::string::npos);
  EXPECT_NE(error_of(saved + "{\"link\":[0,257,1,1]}\n")
                .find("a link's port is not a whole number from 0 to 255"),
            std::string::npos);
}

}  // namespace
}  // namespace rdma::ib

namespace rdma::ib {
namespace {

// NUL bytes where a line starts (the fuzzer's find): fgets gives an empty
// string; the file is still not a fabric file, said as for any other.
TEST_F(Cache, NulBytesAreNotAFabricFile) {
  std::string text(
      "\0\0\0\0\0\x01\"r\x12\x97"
      "c\"",
      12);
  try {
    load(text);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path_), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rdma::ib
