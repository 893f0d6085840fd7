// rdma sm show [TARGET]: SMInfo of the subnet manager (the local port's SM
// LID by default) or of any port that runs one; rdma sm set [TARGET]
// priority N | state STATE | activity N [control WORD]: sminfo's set forms.
#include <span>

#include "lib/error.h"
#include "lib/ib/sm_info.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"
#include "rdma/words.h"

namespace rdma {

namespace {

void sm_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [--sa] sm show [TARGET] [via DEV/PORT]\n"
      "       rdma sm set [TARGET] { priority N | state STATE | activity N }... [control CTRL] "
      "[via "
      "DEV/PORT]\n"
      "where  STATE := { notactive | discovering | standby | master | 0-3 }\n"
      "       CTRL := { handover | acknowledge | disable | standby | discover }\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              dr lid LID PATH | name NAME }\n"
      "--sa reads the SA's SMInfoRecord instead of an SMP.\n",
      c.help_out);
}

void sm_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  c.args.done();
  MadSession s(c, via);
  view::Record rec;
  if (c.opt.sa) {
    // --sa: the SMInfoRecord of the SM's LID (or the target's).
    mad::Target at;
    at.lid = s.local().sm_lid;
    s.check_sa(target ? *target : at);
    ib::SaSmInfo r = ib::read_sm_info_sa(s, target ? *target : at);
    add_target(rec, {false, r.lid, {}});
    ib::add_sm_info(r.info, c.opt.details, c.opt.show_keys, rec);
  } else {
    mad::Route r = s.route(target);
    mad::Mad info = ib::read_sm_info(s, r);
    add_target(rec, r);
    ib::add_sm_info(info.data(), c.opt.details, c.opt.show_keys, rec);
  }
  c.out.record(rec);
}

// SMState values (IBA 14.2.5.13) and the Set's AttributeModifier, the
// control packet an SM sends another (14.4.1): index + 1.
constexpr const char* kSmStates[] = {"notactive", "discovering", "standby", "master"};
constexpr const char* kSmControls[] = {"handover", "acknowledge", "disable", "standby", "discover"};

unsigned word_index(const std::string& w, std::span<const char* const> words, const char* name,
                    unsigned base) {
  for (unsigned i = 0; i < words.size(); ++i)
    if (w == words[i]) return i + base;
  throw UsageError(unknown_word(name, w, std::vector<std::string>(words.begin(), words.end())));
}

void sm_set(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  std::optional<uint64_t> priority, state, activity;
  uint32_t control = 0;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (k == "priority") {
      priority = need_number(c.args.need_value(k, "priority"), "priority", {.max = 15});
    } else if (k == "state") {
      std::string v = c.args.need_value(k, "state");
      std::optional<uint64_t> n = view::parse_number(v, {.max = 3});
      state = n ? *n : word_index(v, kSmStates, "state", 0);
    } else if (k == "activity") {
      activity = need_number(c.args.need_value(k, "activity"), "activity",
                             {.max = UINT32_MAX, .c_bases = true});
    } else if (k == "control") {
      control = word_index(c.args.need_value(k, "control"), kSmControls, "control", 1);
    } else {
      throw UsageError(
          unknown_word("sm set argument", k, {"priority", "state", "activity", "control"}));
    }
  }
  if (!priority && !state && !activity && !control)
    throw UsageError("missing what to set: priority N, state STATE, activity N or control CTRL");
  MadSession s(c, via, 1);
  mad::Route r = s.route(target);
  mad::Mad reply = ib::set_sm_info(
      s, r, {.priority = priority, .state = state, .activity = activity, .control = control},
      mad::route_text(r));
  view::Record rec;
  add_target(rec, r);
  ib::add_sm_info(reply.data(), c.opt.details, c.opt.show_keys, rec);
  c.out.record(rec);
}

}  // namespace

void cmd_sm(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, sm_show}, {"show", sm_show}, {"list", sm_show}, {"set", sm_set}, {"help", sm_help}};
  dispatch(c, kTable, "sm command");
}

}  // namespace rdma
