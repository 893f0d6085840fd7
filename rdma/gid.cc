// rdma gid: the GID tables of RDMA ports through libibverbs
// (ibv_query_gid_table), what show_gids prints: netlink has no GID view.
#include "lib/verbs/gid.h"

#include "lib/error.h"
#include "rdma/objects.h"
#include "rdma/verbs_devices.h"

namespace rdma {

namespace {

void gid_help(Ctx& c) {
  std::fputs(
      "Usage: rdma gid show [ DEV[/PORT] ] [ type GID_TYPE ] [ netdev NAME ]\n"
      "where  GID_TYPE := { ib | roce-v1 | roce-v2 }\n",
      c.help_out);
}

void gid_show(Ctx& c) {
  std::string dev;
  verbs::GidFilter f;
  while (!c.args.empty()) {
    std::string w = c.args.next();
    if (matches(w, "type")) {
      f.type = verbs::parse_gid_type(c.args.need("GID type (ib, roce-v1 or roce-v2)"));
    } else if (matches(w, "netdev")) {
      f.netdev = c.args.need("netdev name");
    } else if (dev.empty()) {
      dev = w;
      f.port = split_port(dev);
    } else {
      throw UsageError(unknown_word("gid show parameter", w, {"type", "netdev"}));
    }
  }
  std::vector<nldev::Device> devs = devices_named(c, dev);
  for (const nldev::Device& d : devs)
    if (f.port > d.ports)
      throw Error("device \"" + d.name + "\" has no port " + std::to_string(f.port) +
                  " (ports: 1-" + std::to_string(d.ports) + ")");
  view::Record r;
  each_verbs_device(c, devs, [&](const nldev::Device& d, verbs::Device& v) {
    for (const verbs::Gid& g : v.gids()) {
      if (!f.matches(g)) continue;
      verbs::gid_record(d.name, g, r);
      c.out.record(r);
    }
  });
}

}  // namespace

void cmd_gid(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, gid_show},
      {"show", gid_show},
      {"list", gid_show},
      {"help", gid_help},
  };
  dispatch(c, kTable, "gid command");
}

}  // namespace rdma
