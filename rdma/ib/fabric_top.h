// rdma fabric top: the busiest and sickest ports of the whole fabric, live
// (lib/ib/top.h reads them). On a terminal a full screen that a key sorts
// and `/` filters; otherwise, or with -j, one snapshot an interval.
#pragma once

#include <string>
#include <vector>

#include "lib/ib/top.h"
#include "rdma/command.h"

namespace rdma {

// What the screen shows: the sort, the filter, and the filter being typed.
struct TopView {
  ib::TopSort sort = ib::TopSort::Util;
  std::string filter;
  bool typing = false;  // after '/', until Enter (keep) or Esc (drop)
};

// Applies a key to the view: u x r w e d sort by utilisation, sent,
// received, waits, errors, times down; / types a filter (Backspace, Enter,
// Esc); q or Ctrl-C quits (false).
bool top_key(TopView& v, int key);

// A frame of rows x cols: the title (ports, interval, sort, keys, the
// time), the column heads, the rows the view shows (sorted and filtered)
// as many as fit, and the filter line while typing. No line is longer than
// cols and none ends in a blank.
std::string top_frame(std::vector<ib::TopRow> rows, const TopView& v, int height, int width,
                      const std::string& title);

// `fabric top [ from FILE ] [via DEV/PORT]`, every -w SECONDS (2 without),
// -c COUNT intervals.
void fabric_top(Ctx& c);

}  // namespace rdma
