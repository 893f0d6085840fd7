#include "lib/ib/node_name_map.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "lib/error.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "lib/view/number.h"
#include "lib/view/read_text.h"

namespace rdma::ib {

namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// 0x hex and xxxx:xxxx:xxxx:xxxx as every GUID this tool reads, and the
// plain decimal number infiniband-diags' strtoull also takes.
std::optional<uint64_t> guid_of(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos)
    return view::parse_number(s, {});
  try {
    return mad::parse_guid(s);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

const std::string& NodeNameMap::name(uint64_t guid, const std::string& desc) const {
  auto it = names.find(guid);
  return it == names.end() ? desc : it->second;
}

NodeNameMap parse_node_name_map(std::string_view text, const std::string& file) {
  NodeNameMap m;
  size_t start = 0;
  for (int n = 1; start < text.size(); ++n) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? nl : nl - start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string where = file + ":" + std::to_string(n) + ": ";
    size_t i = 0;
    while (i < line.size() && blank(line[i])) ++i;
    if (i == line.size() || line[i] == '#') continue;
    size_t g = i;
    while (i < line.size() && !blank(line[i]) && line[i] != '#') ++i;
    std::string word(line.substr(g, i - g));
    std::optional<uint64_t> guid = guid_of(word);
    if (!guid)
      throw Error(where + "invalid GUID \"" + word +
                  "\" (expected GUID \"NAME\", e.g. 0x0002c90300a1b2c3 \"leaf 1\")");
    while (i < line.size() && blank(line[i])) ++i;
    std::string name;
    if (i < line.size() && line[i] == '"') {
      size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos)
        throw Error(where + "the name's closing '\"' is missing");
      name = line.substr(i + 1, close - i - 1);
      size_t k = close + 1;
      while (k < line.size() && blank(line[k])) ++k;
      if (k < line.size() && line[k] != '#')
        throw Error(where + "unexpected \"" + std::string(line.substr(k)) + "\" after the name");
    } else {
      size_t hash = line.find('#', i);
      name = line.substr(i, hash == std::string_view::npos ? hash : hash - i);
      while (!name.empty() && blank(name.back())) name.pop_back();
    }
    if (!name.empty()) m.names.emplace(*guid, std::move(name));
  }
  return m;
}

NodeNameMap load_node_name_map(const std::optional<std::string>& file, const char* default_file) {
  std::string path = file ? *file : default_file;
  struct stat st;
  if (!file && stat(path.c_str(), &st) != 0) return {};
  return parse_node_name_map(view::read_text(path, "the node name map"), path);
}

void rename_nodes(const NodeNameMap& m, Fabric& f) {
  if (m.names.empty()) return;
  for (Node& n : f.nodes) n.description = m.name(n.info.node_guid, n.description);
}

void rename_description(const NodeNameMap& m, uint64_t guid, view::Record& rec) {
  auto it = m.names.find(guid);
  if (it == m.names.end()) return;
  view::Record was = rec;
  rec.clear();
  for (const view::Field& f : was) {
    view::Field& g = rec.next();
    g = f;
    if (f.key != "description") continue;
    g.text = "description " + mad::desc_text(it->second) + " ";
    g.value = it->second;
    g.json.clear();
  }
}

}  // namespace rdma::ib
