#include "lib/ib/ibdiag_conf.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"
#include "lib/view/number.h"
#include "lib/view/read_text.h"
#include "lib/view/trim.h"

namespace rdma::ib {

using view::trim;

IbdiagConf parse_ibdiag_conf(const std::string& text, const std::string& path) {
  IbdiagConf c;
  int lineno = 0;
  // Lines cut by hand, not with an istringstream: fabric show reads this
  // file, and the first stream a run builds initializes the locale, which
  // faults in six 64 KiB windows of libstdc++'s code (bench/fabric_results.md).
  for (size_t start = 0; start < text.size();) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    start = nl + 1;
    ++lineno;
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    size_t eq = t.find('=');
    if (eq == std::string::npos) continue;  // the diags skip such a line too
    std::string name = trim(t.substr(0, eq));
    std::string value = trim(t.substr(eq + 1));
    std::string where = path + ":" + std::to_string(lineno) + ": ";
    // The diags read numbers as strtoul(s, NULL, 0): 0x hex and 0 octal too.
    auto number = [&](uint64_t max) -> std::optional<uint64_t> {
      std::optional<uint64_t> v = view::parse_number(value, {.max = max, .c_bases = true});
      if (!v)
        c.warnings.push_back(where + name + " \"" + value + "\" is not a number (0 to " +
                             std::to_string(max) + "): not used");
      return v;
    };
    if (name == "CA") {
      if (!value.empty()) c.ca = value;
    } else if (name == "Port") {
      if (auto v = number(254)) c.port = static_cast<uint32_t>(*v);
    } else if (name == "timeout") {
      if (auto v = number(3600000)) {
        if (*v)
          c.timeout_ms = static_cast<uint32_t>(*v);
        else
          c.warnings.push_back(where + "timeout 0 is no timeout: not used");
      }
    } else if (name == "m_key") {
      if (auto v = number(UINT64_MAX)) c.mkey = *v;
    } else if (name == "MLX_EPI" || name == "sa_key" || name == "nd_format") {
      bool seen = false;
      for (const std::string& u : c.unused) seen = seen || u == name;
      if (!seen) c.unused.push_back(name);
    }
    // Any other name: the diags ignore it, and so does rdma.
  }
  return c;
}

IbdiagConf read_ibdiag_conf(const std::string& path, bool must_exist) {
  static constexpr const char* kWhat = "the diagnostics config";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (!must_exist) return {};
    throw Error(view::cannot_read(path, kWhat, errno));
  }
  return parse_ibdiag_conf(view::read_text(path, kWhat), path);
}

}  // namespace rdma::ib
