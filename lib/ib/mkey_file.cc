#include "lib/ib/mkey_file.h"

#include <cerrno>
#include <cstring>
#include <sstream>
#include <vector>

#include "lib/error.h"
#include "lib/view/number.h"
#include "lib/view/read_text.h"
#include "lib/view/trim.h"

namespace rdma::ib {

namespace {

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> f;
  std::istringstream in(line);
  for (std::string w; in >> w;) f.push_back(w);
  return f;
}

}  // namespace

MkeysByGuid parse_mkey_file(const std::string& text, const std::string& path) {
  MkeysByGuid keys;
  std::istringstream in(text);
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    std::string t = view::trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(lineno) + ": ";
    std::vector<std::string> f = fields_of(t);
    if (f.size() != 2)
      throw Error(where + "expected \"PORT_GUID M_KEY\", found " + std::to_string(f.size()) +
                  (f.size() == 1 ? " field" : " fields"));
    std::optional<uint64_t> guid = view::parse_number(f[0], {.min = 1, .c_bases = true});
    if (!guid) throw Error(where + "\"" + f[0] + "\" is not a port GUID (a 64-bit number, not 0)");
    // The key itself is not repeated in the message: it is a secret.
    std::optional<uint64_t> key = view::parse_number(f[1], {.c_bases = true});
    if (!key) throw Error(where + "the M_Key of " + f[0] + " is not a 64-bit number");
    if (!keys.emplace(*guid, *key).second)
      throw Error(where + "port GUID " + f[0] + " is given a second time");
  }
  return keys;
}

MkeysByGuid read_mkey_file(const std::string& path) {
  return parse_mkey_file(view::read_text(path, "the M_Key file"), path);
}

}  // namespace rdma::ib
