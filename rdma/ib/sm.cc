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
      "Usage: rdma sm show [TARGET] [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH }\n",
      c.help_out);
}

void sm_show(Ctx& c) {
  MadWords w(c);
  w.done();
  MadSession s(c, w.via);
  mad::Route r = s.route(w.target);
  mad::Mad info = s.smp(r, mad::kGet, mad::kSmInfo, 0);
  view::Record rec;
  add_target(rec, r);
  mad::decode(mad::kSmInfo, info.data(), c.opt.details, rec);
  c.out.record(rec);
}

}  // namespace

void cmd_sm(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, sm_show}, {"show", sm_show}, {"list", sm_show}, {"help", sm_help}};
  dispatch(c, kTable, "sm command");
}

}  // namespace rdma
