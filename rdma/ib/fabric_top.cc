#include "rdma/ib/fabric_top.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "lib/error.h"
#include "lib/ib/engine_config.h"
#include "lib/ib/errors.h"
#include "lib/ib/pma.h"
#include "lib/view/time_text.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"
#include "rdma/ib/watch_sweep.h"
#include "rdma/stat_watch.h"
#include "rdma/terminal.h"

namespace rdma {

namespace {

constexpr int kCtrlC = 3, kEsc = 27, kBackspace = 127, kCtrlH = 8;

// 1536 -> "1.5K", bytes or ticks per second as top shows them.
std::string human(double v) {
  static const char* const kUnits[] = {"", "K", "M", "G", "T"};
  int u = 0;
  while (v >= 999.5 && u < 4) {
    v /= 1000;
    ++u;
  }
  char buf[16];
  std::snprintf(buf, sizeof buf, u && v < 9.95 ? "%.1f%s" : "%.0f%s", v, kUnits[u]);
  return buf;
}

// 0.125 -> "13%": a share as the columns show it.
std::string percent(double share) {
  return std::to_string(std::lround(share * 100)) + "%";
}

std::string fit(const std::string& s, size_t w) {
  if (s.size() <= w) return s + std::string(w - s.size(), ' ');
  return w ? s.substr(0, w - 1) + "~" : "";
}

std::string right(const std::string& s, size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

std::string trim_line(std::string s, size_t width) {
  if (s.size() > width) s.resize(width);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

bool top_key(TopView& v, int key) {
  if (v.typing) {
    if (key == '\r' || key == '\n')
      v.typing = false;
    else if (key == kEsc) {
      v.typing = false;
      v.filter.clear();
    } else if (key == kBackspace || key == kCtrlH) {
      if (!v.filter.empty()) v.filter.pop_back();
    } else if (key == kCtrlC)
      return false;
    else if (key >= 32 && key < 127)
      v.filter += static_cast<char>(key);
    return true;
  }
  switch (key) {
    case 'q':
    case kCtrlC:
      return false;
    case '/':
      v.typing = true;
      v.filter.clear();
      break;
    case 'u':
      v.sort = ib::TopSort::Util;
      break;
    case 'x':
      v.sort = ib::TopSort::Xmit;
      break;
    case 'r':
      v.sort = ib::TopSort::Rcv;
      break;
    case 'w':
      v.sort = ib::TopSort::Wait;
      break;
    case 'e':
      v.sort = ib::TopSort::Errors;
      break;
    case 'd':
      v.sort = ib::TopSort::Downed;
      break;
    default:
      break;
  }
  return true;
}

std::string top_frame(std::vector<ib::TopRow> rows, const TopView& v, int height, int width,
                      const std::string& title) {
  ib::sort_rows(rows, v.sort);
  std::vector<ib::TopRow> shown = ib::filter_rows(rows, v.filter);
  size_t w = static_cast<size_t>(std::max(width, 1));
  // The numbers take 46 columns; the two names share the rest.
  size_t names = w > 46 + 12 ? (w - 46) / 2 : 6;
  size_t longest = 4;
  for (const ib::TopRow& r : shown) longest = std::max({longest, r.name.size(), r.peer.size()});
  names = std::min(names, longest + 1);
  std::vector<std::string> lines;
  lines.push_back(trim_line(title, w));
  std::string head = fit("PORT", names) + " " + fit("PEER", names);
  struct Column {
    const char* head;
    size_t width;
    ib::TopSort sort;
  };
  static const Column kColumns[] = {
      {"XMIT/s", 8, ib::TopSort::Xmit},   {"RCV/s", 8, ib::TopSort::Rcv},
      {"UTIL", 6, ib::TopSort::Util},     {"WAIT", 8, ib::TopSort::Wait},
      {"ERRORS", 8, ib::TopSort::Errors}, {"DOWN", 6, ib::TopSort::Downed}};
  for (const Column& col : kColumns)
    head += right((v.sort == col.sort ? "*" : "") + std::string(col.head), col.width);
  lines.push_back(trim_line(head, w));
  size_t room = height > 3 ? static_cast<size_t>(height) - 2 - (v.typing || !v.filter.empty()) : 1;
  for (size_t i = 0; i < shown.size() && i < room; ++i) {
    const ib::TopRow& r = shown[i];
    std::string line = fit(r.name, names) + " " + fit(r.peer.empty() ? "-" : r.peer, names);
    if (r.unknown) {
      line += right("(counters reset or saturated)", 44);
    } else {
      line += right(human(r.xmit_bps), 8) + right(human(r.rcv_bps), 8) + right(percent(r.util), 6) +
              right(percent(r.wait_share), 8) + right(std::to_string(r.errors), 8) +
              right(std::to_string(r.downed), 6);
    }
    lines.push_back(trim_line(line, w));
  }
  if (v.typing)
    lines.push_back(trim_line("/" + v.filter + "_", w));
  else if (!v.filter.empty())
    lines.push_back(trim_line("filter: " + v.filter + " (/ to change, / Esc to clear)", w));
  std::string out;
  for (size_t i = 0; i < lines.size() && i < static_cast<size_t>(std::max(height, 1)); ++i)
    out += (i ? "\n" : "") + lines[i];
  return out;
}

namespace {

// One snapshot as records: each port that moved, busiest first.
void top_records(view::Printer& out, std::vector<ib::TopRow> rows) {
  ib::sort_rows(rows, ib::TopSort::Util);
  view::Record rec;
  for (const ib::TopRow& r : rows) {
    if (!r.unknown && !r.xmit_bps && !r.rcv_bps && !r.wait_ps && !r.errors && !r.downed) continue;
    rec.clear();
    rec.pair("port", r.name);
    rec.pair("peer", r.peer.empty() ? "-" : r.peer, r.peer);
    if (r.unknown) {
      rec.add("unknown", "(counters reset or saturated)", true);
    } else {
      rec.pair("xmit_bytes_per_second", human(r.xmit_bps), r.xmit_bps);
      rec.pair("rcv_bytes_per_second", human(r.rcv_bps), r.rcv_bps);
      rec.pair("util_percent", std::to_string(std::lround(r.util * 100)), r.util * 100);
      rec.pair("xmit_wait_per_second", human(r.wait_ps), r.wait_ps);
      rec.pair("xmit_wait_percent", std::to_string(std::lround(r.wait_share * 100)),
               r.wait_share * 100);
      rec.pair("tick_source", r.tick_from_pma ? "pma" : "default");
      rec.pair("errors", r.errors);
      rec.pair("link_downed", r.downed);
    }
    out.record(rec);
  }
}

// The wait of the screen's watch_loop: keys and resizes while it waits.
class KeyWait : public WatchClock {
 public:
  explicit KeyWait(std::function<bool(Clock::time_point)> wait) : wait_(std::move(wait)) {}
  bool wait_until(Clock::time_point until) override { return wait_(until); }

 private:
  std::function<bool(Clock::time_point)> wait_;
};

}  // namespace

void fabric_top(Ctx& c) {
  FabricSource src = c.args.take_source();
  c.args.done();
  const int seconds = c.opt.watch_s ? c.opt.watch_s : 2;
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, fabric_options(c));
  ib::SweepOptions o;
  o.every_port = true;
  o.extended = true;   // the 64-bit data counters: a 32-bit one saturates in seconds
  o.wait_tick = true;  // the first sweep only: a PMA's tick does not change
  // Nor its capabilities: ClassPortInfo once, the counters every sweep.
  std::map<uint32_t, ib::PmaCaps> pmas;
  o.known_pmas = &pmas;
  std::set<uint16_t> silent;  // PMAs silent in the last sweep: asked briefly
  o.silent_pmas = &silent;
  ib::TopModel model;
  using Clock = std::chrono::steady_clock;
  Clock::time_point last = Clock::now();
  auto sweep = [&] {
    Clock::time_point start = Clock::now();
    ib::ErrorSweep sw = watch_sweep(s.engine(), f, o, ib::sweep_budget(c.opt.deadline_s));
    o.wait_tick = false;
    double secs = std::chrono::duration<double>(start - last).count();
    last = start;
    return model.update(f, sw, secs);
  };
  bool screen = !c.out.is_json() && !c.in_batch &&
                (c.is_terminal ? c.is_terminal(stdout) : isatty(STDOUT_FILENO) == 1) &&
                isatty(STDIN_FILENO) == 1;
  if (!screen) {
    // One snapshot an interval; the first reading gives no rates, so it
    // prints nothing and the first snapshot comes an interval later.
    bool first = true;
    watch_intervals(c, "fabric top", seconds, c.opt.count ? c.opt.count + 1 : 0, [&](Interval& iv) {
      std::vector<ib::TopRow> rows = sweep();
      s.end_progress();
      if (first) {
        first = false;
        return iv.skip();
      }
      top_records(iv.out(), std::move(rows));
    });
    return;
  }

  // On the terminal, once the first readings are in (their progress on
  // the shell's screen): rates start with the second.
  std::optional<TtyTerminal> term;
  TopView v;
  std::vector<ib::TopRow> rows;
  std::string stamp;  // the time of the last sweep
  int height = 0, width = 0;
  auto draw = [&] {
    term->size(height, width);
    std::string title = stamp.empty()
                            ? "rdma fabric top: " + std::to_string(f.nodes.size()) +
                                  " nodes, the first reading; the rates come in " +
                                  std::to_string(seconds) + " s"
                            : "rdma fabric top: " + std::to_string(rows.size()) + " ports, every " +
                                  std::to_string(seconds) + " s, by " + ib::top_sort_name(v.sort) +
                                  "  (u x r w e d: sort, /: filter, q: quit)  " + stamp;
    term->draw(top_frame(rows, v, height, width, title));
  };
  // Between sweeps, keys and resizes are looked at four times a second.
  KeyWait keys([&](Clock::time_point until) {
    for (;;) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      int k = term->key(static_cast<int>(std::clamp<long long>(left, 0, 250)));
      int h = height, w = width;
      term->size(h, w);
      if (k >= 0) {
        if (!top_key(v, k)) return false;
        draw();
      } else if (h != height || w != width) {
        draw();
      }
      if (Clock::now() >= until) return true;
    }
  });
  watch_loop(keys, seconds, c.opt.count ? c.opt.count + 1 : 0, [&](int n) {
    rows = sweep();
    if (n == 0) {
      s.end_progress();
      term.emplace();
    } else {
      stamp = view::time_text("%H:%M:%S", false);
    }
    draw();
  });
}

}  // namespace rdma
