// fabric top's screen: keys change the sort and the filter, and a frame
// fits the terminal (no line wider, no more lines, no trailing blank).
#include "rdma/ib/fabric_top.h"

#include <gtest/gtest.h>

#include <sstream>

namespace rdma {
namespace {

std::vector<ib::TopRow> top_rows() {
  std::vector<ib::TopRow> rows(30);
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].name = "leaf-" + std::to_string(i) + "/1";
    rows[i].peer = "a-rather-long-host-name-" + std::to_string(i) + "/1";
    rows[i].xmit_bps = 1000.0 * static_cast<double>(i);
    rows[i].errors = 30 - i;
  }
  rows[3].unknown = true;
  return rows;
}

std::vector<std::string> frame_lines(const std::string& f) {
  std::vector<std::string> out;
  std::istringstream in(f);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(FabricTop, KeysSortFilterAndQuit) {
  TopView v;
  EXPECT_TRUE(top_key(v, 'x'));
  EXPECT_EQ(v.sort, ib::TopSort::Xmit);
  EXPECT_TRUE(top_key(v, 'e'));
  EXPECT_EQ(v.sort, ib::TopSort::Errors);
  // While typing a filter, letters are the filter's, not sorts or quit.
  for (int k : std::initializer_list<int>{'/', 'l', 'e', 'q', 'x', 127, '1', '\r'})
    EXPECT_TRUE(top_key(v, k));
  EXPECT_EQ(v.filter, "leq1");
  EXPECT_FALSE(v.typing);
  EXPECT_EQ(v.sort, ib::TopSort::Errors);
  for (int k : std::initializer_list<int>{'/', 'z', 27})
    EXPECT_TRUE(top_key(v, k));  // Esc drops it
  EXPECT_EQ(v.filter, "");
  EXPECT_FALSE(top_key(v, 'q'));
  EXPECT_FALSE(top_key(v, 3));  // Ctrl-C is a key in raw mode
}

TEST(FabricTop, AFrameFitsTheTerminal) {
  TopView v;
  v.sort = ib::TopSort::Xmit;
  std::string f = top_frame(top_rows(), v, 10, 70, "rdma fabric top: 30 ports");
  std::vector<std::string> l = frame_lines(f);
  ASSERT_EQ(l.size(), 10u);
  for (const std::string& line : l) {
    EXPECT_LE(line.size(), 70u) << line;
    EXPECT_TRUE(line.empty() || line.back() != ' ') << "[" << line << "]";
  }
  EXPECT_NE(l[1].find("*XMIT/s"), std::string::npos) << l[1];
  EXPECT_EQ(l[2].rfind("leaf-29/1", 0), 0u) << l[2];  // the busiest first
  EXPECT_NE(l[2].find("29K"), std::string::npos) << l[2];
  // Filtered: the filter's line at the bottom, only rows that match.
  v.filter = "host-name-3/";
  l = frame_lines(top_frame(top_rows(), v, 10, 70, "t"));
  ASSERT_EQ(l.size(), 4u);
  EXPECT_NE(l[2].find("(counters reset or saturated)"), std::string::npos) << l[2];
  EXPECT_EQ(l[3].rfind("filter: host-name-3/", 0), 0u) << l[3];
  // Tiny: still no line wider than the terminal.
  for (const std::string& line : frame_lines(top_frame(top_rows(), v, 3, 12, "title")))
    EXPECT_LE(line.size(), 12u) << line;
}

}  // namespace
}  // namespace rdma
