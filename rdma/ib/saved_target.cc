#include "rdma/ib/saved_target.h"

#include <optional>

#include "lib/error.h"
#include "lib/ib/find.h"

namespace rdma {

SavedTarget load_saved_target(Ctx& c, const mad::Target& t, const std::string& file) {
  if (c.opt.sa) throw UsageError("\"from FILE\" reads a saved fabric: --sa asks the SA");
  SavedTarget s;
  s.names = ib::load_node_name_map(c.opt.node_name_map);
  s.fabric = ib::load_fabric(file, &s.kind);
  ib::rename_nodes(s.names, s.fabric);
  std::optional<ib::PortRef> at = ib::find_target(s.fabric, t);
  if (!at) throw Error(t.text + " is not in " + file);
  s.at = *at;
  const ib::Port* p = s.fabric.nodes[at->node].port(at->port);
  s.label = {t.kind == mad::Target::Kind::Dr, t.lid, t.path};  // t.lid: a combined route's start
  if (!s.label.directed) s.label.lid = p && p->info ? p->info->lid : t.lid;
  return s;
}

void note_not_held(Ctx& c, const std::string& file, const std::vector<std::string>& missing) {
  if (missing.empty()) return;
  std::string list;
  for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
  std::fprintf(c.err, "note: %s does not hold %s\n", file.c_str(), list.c_str());
}

}  // namespace rdma
