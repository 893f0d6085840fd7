#include "rdma/ib/plan.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include "lib/error.h"
#include "lib/ib/cable_plan.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/topology.h"
#include "rdma/ib/fabric_source.h"

namespace rdma {

namespace {

void plan_check(Ctx& c) {
  FabricSource src = c.args.take_source();
  std::string file = c.args.need_word("PLAN to check the fabric against");
  c.args.done();
  // The plan first: a plan that cannot be read sends no MAD.
  ib::Plan plan = ib::load_plan(file, ib::load_node_name_map(c.opt.node_name_map));
  ib::Fabric f = fabric_of(c, src, nullptr, fabric_options(c));
  ib::PlanResult r = ib::check_plan(plan, f);
  size_t by[3] = {};
  view::Record rec;
  for (const ib::PlanFinding& x : r.findings) {
    ++by[static_cast<int>(x.severity)];
    rec.clear();
    rec.pair("finding", x.kind);
    rec.pair("severity", ib::severity_name(x.severity));
    rec.pair_quoted("what", x.what);
    view::Json ports = view::Json::array();
    for (const ib::PlanEnd& e : x.ends) {
      view::Json j = {{"node", e.node}};
      if (e.port) j["port"] = e.port;
      ports.push_back(std::move(j));
    }
    rec.add("ports", "", std::move(ports));
    c.out.record(rec);
  }
  auto count = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  rec.clear();
  rec.add("summary",
          "summary: " + count(r.planned, "cable", "cables") + " planned, " +
              std::to_string(r.matched) + " as planned, " + count(by[0], "error", "errors") + ", " +
              count(by[1], "warning", "warnings") + ", " + count(by[2], "note", "notes"),
          view::Json{{"planned", r.planned},
                     {"as_planned", r.matched},
                     {"errors", by[0]},
                     {"warnings", by[1]},
                     {"notes", by[2]}});
  c.out.record(rec);
  if (by[0]) c.status = 1;
}

void plan_write(Ctx& c) {
  FabricSource src = c.args.take_source();
  std::string file = c.args.need_word("FILE to write the plan to");
  bool topology = false;
  if (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "topology"))
      topology = true;
    else if (!matches(k, "csv"))
      throw UsageError(unknown_word("plan format", k, {"csv", "topology"}));
  }
  c.args.done();
  if (c.out.is_json()) throw UsageError("fabric plan write writes a file; no JSON");
  ib::Fabric f = fabric_of(c, src, nullptr, fabric_options(c));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(file.c_str(), "w"), std::fclose);
  if (!out) throw Error("cannot write \"" + file + "\": " + std::strerror(errno));
  if (topology)
    ib::write_topology(f, out.get());
  else
    ib::write_plan_csv(ib::plan_of(f), out.get());
  if (std::fflush(out.get()) != 0 || std::ferror(out.get()))
    throw Error("cannot write \"" + file + "\": " + std::strerror(errno));
}

}  // namespace

std::span<const Cmd> plan_commands() {
  // check reports findings (exits as diff(1)); write only writes a file,
  // so it exits as iproute2 does (1 on an error).
  static constexpr Cmd kTable[] = {
      {"check", plan_check, Takes::Findings},
      {"write", plan_write},
  };
  return kTable;
}

void fabric_plan(Ctx& c) {
  dispatch(c, plan_commands(), "fabric plan command");
}

}  // namespace rdma
