// rdma sm show [TARGET]: SMInfo of the subnet manager (the local port's SM
// LID by default) or of any port that runs one.
#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void sm_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [--sa] sm show [TARGET] [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH }\n"
      "--sa reads the SA's SMInfoRecord instead of an SMP.\n",
      c.help_out);
}

// --sa: the SMInfoRecord of the SM's LID (or the target's).
void sm_show_sa(Ctx& c, MadSession& s, const std::optional<mad::Target>& t) {
  mad::Target at;
  at.lid = s.local().sm_lid;
  std::vector<uint8_t> r = s.sa_records(t ? *t : at, mad::kSmInfoRecord).front();
  view::Record rec;
  add_target(rec, {false, static_cast<uint16_t>(mad::get_field(mad::kSmInfoRecord, r, "LID")), {}});
  mad::decode(mad::kSmInfo, std::span<const uint8_t>(r).subspan(mad::kSmInfoRecordSmInfo),
              c.opt.details, rec, {.show_keys = c.opt.show_keys});
  c.out.record(rec);
}

void sm_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  c.args.done();
  MadSession s(c, via);
  if (c.opt.sa) return sm_show_sa(c, s, target);
  mad::Route r = s.route(target);
  mad::Mad info = s.smp(r, mad::kGet, mad::kSmInfo, 0);
  view::Record rec;
  add_target(rec, r);
  mad::decode(mad::kSmInfo, info.data(), c.opt.details, rec, {.show_keys = c.opt.show_keys});
  c.out.record(rec);
}

}  // namespace

void cmd_sm(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, sm_show}, {"show", sm_show}, {"list", sm_show}, {"help", sm_help}};
  dispatch(c, kTable, "sm command");
}

}  // namespace rdma
