#include "lib/ib/thresholds.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>

#include "lib/error.h"
#include "lib/ib/errors.h"
#include "lib/view/number.h"

namespace rdma::ib {

std::optional<std::string> thresholds_file(const std::optional<std::string>& named,
                                           const std::string& site) {
  if (named) return named;
  // As ibqueryerrors: a missing site file is no error, the defaults hold.
  struct stat st {};
  if (::stat(site.c_str(), &st) == 0) return site;
  return std::nullopt;
}

void Thresholds::set(std::string_view name, uint64_t v, Kind kind) {
  const mad::FieldDef* f = error_counter(name);
  if (!f) throw Error("unknown error counter \"" + std::string(name) + "\"");
  (kind == Kind::Value ? by_name_ : increase_)[f->name] = v;
}

uint64_t Thresholds::of(const mad::FieldDef& f, Kind kind) const {
  const auto& m = kind == Kind::Value ? by_name_ : increase_;
  auto it = m.find(f.name);
  return it == m.end() ? 0 : it->second;
}

std::vector<std::string> Thresholds::load(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw Error("cannot read thresholds from \"" + file + "\"");
  std::vector<std::string> warnings;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    size_t eq = line.find('=');
    std::string where = file + ":" + std::to_string(n);
    if (eq == std::string::npos) throw Error(where + ": expected NAME=VALUE");
    std::string name = line.substr(b, eq - b);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    std::string val = line.substr(eq + 1);
    // Blanks and a '+' before the number and blanks after it, as strtoull
    // and a check of what it left took them; no '-' anywhere.
    std::string_view number = val;
    while (!number.empty() &&
           (number.back() == ' ' || number.back() == '\t' || number.back() == '\r'))
      number.remove_suffix(1);
    std::optional<uint64_t> value;
    if (val.find('-') == std::string::npos)
      value = view::parse_number(number, {.c_bases = true, .blanks_and_sign = true});
    if (!value) throw Error(where + ": invalid value \"" + val + "\"");
    uint64_t v = *value;
    // A name ibqueryerrors does not check is no reason to refuse a file
    // shared with it.
    Kind kind = Kind::Value;
    constexpr std::string_view kIncrease = ".increase";
    if (name.size() > kIncrease.size() && name.ends_with(kIncrease)) {
      name.resize(name.size() - kIncrease.size());
      kind = Kind::Increase;
    }
    if (!error_counter(name)) {
      warnings.push_back(where + ": unknown error counter \"" + name + "\", ignored");
      continue;
    }
    set(name, v, kind);
  }
  return warnings;
}

}  // namespace rdma::ib
