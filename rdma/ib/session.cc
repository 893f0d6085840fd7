#include "rdma/ib/session.h"

#include <cstdio>
#include <functional>
#include <span>

#include "lib/error.h"
#include "lib/ib/engine_config.h"
#include "lib/ib/mkey_file.h"
#include "rdma/words.h"

namespace rdma {

namespace {

const mad::Access& access_of(const Ctx& c) {
  if (!c.mad || !c.mad->find_port) throw Error("InfiniBand management is not available here");
  return *c.mad;
}

// The engine as the user asked it (-Y: the P_Key index of every GMP).
mad::EngineConfig engine_config(const Ctx& c) {
  mad::EngineConfig cfg =
      ib::session_engine_config(c.opt.mad_timeout_ms, c.opt.mad_retries,
                                static_cast<size_t>(c.opt.mad_window), c.opt.deadline_s);
  cfg.gmp_pkey_index = c.opt.pkey_index.value_or(0);
  return cfg;
}

// -dd's trace (-d's for the commands that write), and the progress line
// after every MAD.
ib::MadTrace session_trace(Ctx& c, int trace_level, const std::function<void()>& progress) {
  ib::MadTrace print =
      c.opt.details >= trace_level ? ib::print_trace(c.err, c.opt.show_keys) : ib::MadTrace();
  return [print, progress](const char* dir, std::span<const uint8_t> mad) {
    if (print) print(dir, mad);
    progress();
  };
}

}  // namespace

MadSession::MadSession(Ctx& c, const std::string& via, int trace_level)
    : ib::MadClient(access_of(c), via.empty() ? c.opt.default_via : via, engine_config(c),
                    session_trace(c, trace_level,
                                  [this] { progress_.update(engine().stats(), nodes_found); })),
      c_(c),
      progress_(c.err, progress_wanted(c.err, c.opt.quiet || c.opt.details >= trace_level,
                                       c.is_terminal)) {
  if (c.opt.mkey) set_mkey(*c.opt.mkey);
  if (c.opt.mkey_file) set_mkeys(ib::read_mkey_file(*c.opt.mkey_file));
  set_node_name_map(c.opt.node_name_map);
}

MadSession::~MadSession() {
  progress_.clear();
  const mad::EngineStats& st = engine().stats();
  if (st.budget_spent) {
    char allowed[32];
    std::snprintf(allowed, sizeof allowed, "%.1f", st.budget_seconds);
    c_.warn("time budget of " + std::string(allowed) + " s spent (" +
            std::to_string(ib::kBudgetBaseMs / 1000) + " s, and " +
            std::to_string(ib::kBudgetPerAnswerUs) + " us for each of " +
            std::to_string(st.budget_answers) +
            " answers): the fabric is too slow or sick, stopped sending, the result is "
            "partial (--deadline sets another bound)");
    return;
  }
  if (!st.deadline_reached) return;
  c_.warn("deadline of " + c_.opt.deadline_text +
          " s reached: stopped sending, the result is partial");
}

void MadSession::check_sa(const mad::Target& t) const {
  if (!local().sm_lid)
    throw Error("no subnet manager: local port " + local().ca + "/" + std::to_string(local().port) +
                " has no SM LID to ask (--sa)");
  if (t.kind == mad::Target::Kind::Dr)
    throw UsageError("--sa asks the SA, which knows LIDs and GUIDs, not directed routes (" +
                     t.text + ")");
}

view::Record one_field_a_line(const Ctx& c, const view::Record& r) {
  if (!c.opt.details || c.out.is_json()) return r;
  view::Record lines;
  for (size_t i = 0; i < r.size(); ++i) {
    std::string t = r[i].text;
    while (!t.empty() && t.back() == ' ') t.pop_back();
    if (i + 1 < r.size()) t += '\n';
    lines.add("", t, nullptr);  // text only: the printer is a text one
  }
  return lines;
}

void add_target(view::Record& r, const mad::Route& route) {
  std::string t = mad::route_text(route);
  r.add("target", t + ": ", t);
}

uint8_t parse_port(const std::string& s) {
  return static_cast<uint8_t>(need_number(s, "port", {.max = 254}));
}

}  // namespace rdma
