#include "lib/ib/check_pkeys.h"

#include <string>

namespace rdma::ib {

namespace {

// The key as a table holds it: the base with its membership bit.
std::string key_text(uint16_t base, bool full) {
  return pkey_text(static_cast<uint16_t>(base | (full ? kPKeyFull : 0)));
}

}  // namespace

std::vector<Finding> check_pkeys(const Fabric& f, const PKeyTables& t) {
  std::vector<Finding> out;
  auto add = [&](Severity s, std::string what, std::vector<FindingPlace> where,
                 std::string detail) {
    out.push_back({"pkeys", s, std::move(what), std::move(where), std::move(detail)});
  };
  for (const auto& [at, table] : t.by_port) {
    const auto [n, p] = at;
    const Node& node = f.nodes[n];
    if (node.is_switch()) continue;
    Memberships ca = memberships(table);
    FindingPlace here = place(f, n, p);
    if (!ca.count(kDefaultPKey))
      add(Severity::Error, "CA port without the default P_Key (0x7fff or 0xffff): no way to the SA",
          {here}, "");
    const Port* port = node.port(p);
    if (!port || !port->peer || !enforces_pkeys(f, *port->peer)) continue;
    const std::vector<uint16_t>* sw_table = t.find(*port->peer);
    if (!sw_table) continue;  // not read: a warning says so
    Memberships sw = memberships(*sw_table);
    std::vector<FindingPlace> both = {here, place(f, port->peer->node, port->peer->port)};
    for (const auto& [base, full] : ca) {
      auto it = sw.find(base);
      if (it == sw.end())
        add(Severity::Error,
            "P_Key of the CA port not in its switch port's table (enforcing): its packets dropped",
            both, "pkey " + key_text(base, full));
      else if (full && !it->second)
        add(Severity::Error,
            "CA port a full member, its switch port (enforcing) limited: limited members cannot "
            "reach it",
            both, "pkey " + key_text(base, full) + " switch " + key_text(base, false));
      else if (!full && it->second)
        add(Severity::Warning,
            "CA port a limited member, its switch port (enforcing) full: the switch passes what "
            "the CA drops",
            both, "pkey " + key_text(base, full) + " switch " + key_text(base, true));
    }
    for (const auto& [base, full] : sw)
      if (!ca.count(base))
        add(Severity::Warning, "P_Key of the switch port (enforcing) not in its CA port's table",
            both, "pkey " + key_text(base, full));
  }
  for (const Partition& part : partitions(f, t)) {
    bool any_full = false;
    for (const Partition::Member& m : part.members) any_full |= m.full;
    if (any_full || part.members.size() < 2) continue;
    std::vector<FindingPlace> where;
    for (const Partition::Member& m : part.members)
      where.push_back(place(f, m.port.node, m.port.port));
    add(Severity::Warning, "partition whose member ports are all limited: no two of them can talk",
        std::move(where),
        "pkey " + pkey_text(part.base) + " members " + std::to_string(part.members.size()));
  }
  return out;
}

}  // namespace rdma::ib
