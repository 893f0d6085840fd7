// Grouping a check's findings by kind: a fabric with 1,944 degraded links
// has one line saying so with the count, not 1,944 (-d lists them).
#include <unordered_map>

#include "lib/ib/check.h"

namespace rdma::ib {

std::string finding_kind(const Finding& f) {
  return f.check + "/" + severity_name(f.severity) + "/" + f.what;
}

std::vector<std::vector<size_t>> group_findings(const std::vector<Finding>& found) {
  std::vector<std::vector<size_t>> groups;
  std::unordered_map<std::string, size_t> by_kind;
  for (size_t i = 0; i < found.size(); ++i) {
    auto [it, fresh] = by_kind.emplace(finding_kind(found[i]), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  return groups;
}

}  // namespace rdma::ib
