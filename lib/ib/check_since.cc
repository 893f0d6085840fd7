// The links check against a saved fabric (`fabric check since FILE`): a
// link both of whose ends were Active then and that is not now. A cut
// cable leaves no link to see in the live fabric alone: only the saved
// one knows it was there.
#include "lib/ib/check.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

bool active(const Port& p) {
  return p.info && p.info->state == kPortActive;
}

std::string end_text(const Node& n, uint8_t port) {
  return mad::desc_text(n.description) + " port " + std::to_string(port);
}

}  // namespace

std::vector<Finding> check_since(const Fabric& before, const Fabric& now) {
  std::vector<Finding> out;
  for (const Link& l : before.links()) {
    if (!active(before.at(l.a)) || !active(before.at(l.b))) continue;
    const Node& na = before.nodes[l.a.node];
    const Node& nb = before.nodes[l.b.node];
    // The ends' nodes now (-1: gone).
    auto index = [&](const Node& n) {
      std::optional<uint32_t> i = now.index_of(n.info.node_guid);
      return i ? int64_t{*i} : int64_t{-1};
    };
    const int64_t a = index(na), b = index(nb);
    const Port* pa = a >= 0 ? now.nodes[a].port(l.a.port) : nullptr;
    const Port* pb = b >= 0 ? now.nodes[b].port(l.b.port) : nullptr;
    const bool joined =
        pa && pb && pa->peer && *pa->peer == PortRef{static_cast<uint32_t>(b), l.b.port};
    if (joined && active(*pa) && active(*pb)) continue;
    std::vector<FindingPlace> where;
    if (pa) where.push_back(place(now, static_cast<uint32_t>(a), l.a.port));
    if (pb) where.push_back(place(now, static_cast<uint32_t>(b), l.b.port));
    std::string what = "link up in the saved fabric is ", detail;
    if (joined) {
      const Port& idle = active(*pa) ? *pb : *pa;
      const char* s = idle.info ? mad::port_state_name(idle.info->state) : nullptr;
      what += std::string("not Active (") + (s ? s : "unknown state") + ")";
    } else {
      what += "down";
    }
    // An end whose node is gone has no place now: named in the text.
    if (!pa || !pb)
      detail = end_text(na, l.a.port) + " - " + end_text(nb, l.b.port) +
               (a < 0 || b < 0 ? " (a node is gone)" : "");
    out.push_back({"links", Severity::Error, std::move(what), std::move(where), std::move(detail)});
  }
  return out;
}

}  // namespace rdma::ib
