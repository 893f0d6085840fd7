// rdma system: the RDMA subsystem's settings (netns mode, privileged qkey)
// and whether the kernel supports `rdma monitor`.
#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/fields.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void sys_help(Ctx& c) {
  std::fputs(
      "Usage: rdma system show [ netns | privileged-qkey | monitor ]\n"
      "       rdma system set netns { shared | exclusive }\n"
      "       rdma system set privileged-qkey { on | off }\n",
      c.help_out);
}

// "show netns", "show monitor"...: iproute2 accepts a parameter name and
// prints the whole line all the same.
void sys_show(Ctx& c) {
  if (!c.args.empty()) {
    std::string word = c.args.next();
    if (!matches(word, "netns") && !matches(word, "privileged-qkey") && !matches(word, "monitor"))
      throw UsageError(
          unknown_word("system parameter", word, {"netns", "privileged-qkey", "monitor"}));
  }
  c.args.done();
  nl::Request req(RDMA_NLDEV_CMD_SYS_GET, nl::Request::kDoit);
  c.session().run(req, [&](const nlmsghdr* nlh) {
    view::Record& r = c.out.scratch();
    nldev::decode_attrs(nl::Attrs::of_message(nlh), nldev::kSysFields, c.opt.details, r);
    c.out.record(r);
  });
}

void sys_set(Ctx& c) {
  std::string key = c.args.need("parameter: netns or privileged-qkey");
  nl::Request req(RDMA_NLDEV_CMD_SYS_SET, nl::Request::kDoit);
  if (matches(key, "netns")) {
    std::string mode = c.args.need("netns mode (shared or exclusive)");
    if (matches(mode, "shared"))
      req.u8(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1);
    else if (matches(mode, "exclusive"))
      req.u8(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0);
    else
      throw UsageError("netns takes shared or exclusive, not \"" + mode + "\"");
  } else if (matches(key, "privileged-qkey")) {
    bool on = parse_on_off(c.args.need("on or off"), "privileged-qkey");
    req.u8(nldev::kAttrPrivilegedQkeyMode, on);
  } else {
    throw UsageError(unknown_word("system set parameter", key, {"netns", "privileged-qkey"}));
  }
  c.args.done();
  c.session().run(req, [](const nlmsghdr*) {});
}

}  // namespace

void cmd_system(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, sys_show},
      {"show", sys_show},
      {"set", sys_set},
      {"help", sys_help},
  };
  dispatch(c, kTable, "system command");
}

}  // namespace rdma
