// The error counters' thresholds of `fabric errors`: ibqueryerrors' file
// format, and where the site keeps its file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/mad/field.h"

namespace rdma::ib {

// Where infiniband-diags keep the site's thresholds (ibqueryerrors'
// DEF_THRES_FILE: IBDIAG_CONFIG_PATH "/error_thresholds"). ibdiag.conf,
// beside it, holds no thresholds (CA, Port, timeout, keys only).
inline constexpr const char* kSiteThresholds = "/etc/infiniband-diags/error_thresholds";

// The file a sweep's thresholds come from, as ibqueryerrors picks it: the
// one named (its --threshold-file replaces the default); else the site's
// file where it exists; nullopt: none (every threshold 0).
std::optional<std::string> thresholds_file(const std::optional<std::string>& named,
                                           const std::string& site = kSiteThresholds);

// Thresholds by IBA name; a counter is over when its value is greater.
// Unset ones are ibqueryerrors' default, 0 (QP1Dropped's too: ibqueryerrors
// has none for it, and 0 is what its zeroed threshold table would give).
// Two kinds: of the value (ibqueryerrors'), and of the increase over a
// window (`fabric errors window`, `since`), written NAME.increase=N in a
// file (a name ibqueryerrors does not know, so it skips the line).
class Thresholds {
 public:
  enum class Kind { Value, Increase };
  // Throws Error naming the counter when it is not an error counter.
  void set(std::string_view name, uint64_t v, Kind kind = Kind::Value);
  // ibqueryerrors' threshold file: NAME=VALUE lines, '#' comments. The
  // names are error_counters()' (those ibqueryerrors reads, and QP1Dropped,
  // which it ignores); an unknown name is one warning naming the file, line
  // and name, returned. Throws Error naming the file and
  // line for what it cannot read (a line without '=', a bad value).
  std::vector<std::string> load(const std::string& file);
  uint64_t of(const mad::FieldDef& f, Kind kind = Kind::Value) const;

 private:
  std::map<std::string, uint64_t, std::less<>> by_name_;
  std::map<std::string, uint64_t, std::less<>> increase_;
};

}  // namespace rdma::ib
