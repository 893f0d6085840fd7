#include "lib/ib/cache.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "lib/error.h"
#include "lib/ib/topology_read.h"
#include "lib/view/json_number.h"

namespace rdma::ib {

namespace {

// Written in order (ordered_json), read with the faster std::map json.
using Json = nlohmann::ordered_json;
using InJson = nlohmann::json;

constexpr const char* kFormat = "rdma-fabric";
constexpr int kVersion = 1;
// The PortInfo columns of files saved before LinkSpeedExtActive2 and
// MlnxExtPortInfo.LinkSpeedActive (and any later column, such as VLCap and
// OperationalVLs): the first ones of ours, the rest read 0.
constexpr size_t kPortInfoColumnsBefore = 19;
// PortState is 4 bits on the wire; a larger value is a damaged file (and
// one the model could not hold: MaybePortInfo marks none with one).
constexpr uint8_t kPortStateMax = 0xf;
// The SwitchInfo columns of files saved before MulticastFDBTop: its value
// is then unknown (nullopt), not 0, which means something.
constexpr size_t kSwitchInfoColumnsBefore = 5;
constexpr size_t kAll = std::numeric_limits<size_t>::max();

// A member of a typed view: a number, or one that may be unknown
// (std::optional), null then in the file.
template <typename T>
struct Cell {
  using Value = T;
  static constexpr bool kMaybe = false;
};
template <typename T>
struct Cell<std::optional<T>> {
  using Value = T;
  static constexpr bool kMaybe = true;
};

template <typename T>
Json cell(const T& v) {
  return uint64_t{v};
}
template <typename T>
Json cell(const std::optional<T>& v) {
  return v ? Json(uint64_t{*v}) : Json();
}

// A typed view as a row of numbers; the header names the columns once.
template <typename S, typename Fields>
Json row(const S& s, Fields fields) {
  Json j = Json::array();
  fields(s, [&](const char*, const auto& v) { j.push_back(cell(v)); });
  return j;
}

template <typename S, typename Fields>
Json columns(Fields fields) {
  Json j = Json::array();
  S s{};
  fields(s, [&](const char* name, const auto&) { j.push_back(name); });
  return j;
}

// Reads one typed view from its row; every value must be there and fit
// (null for one that may be unknown). columns: how many the file has (its
// first fields; the rest stay 0, or unknown).
template <typename S, typename Fields>
S from_row(const InJson& j, Fields fields, const char* what, size_t columns = kAll) {
  if (!j.is_array()) throw Error(std::string(what) + " is not an array");
  S s;
  size_t i = 0;
  fields(s, [&](const char* name, auto& v) {
    using C = Cell<std::remove_reference_t<decltype(v)>>;
    using T = typename C::Value;
    if (i >= columns) return;
    if constexpr (C::kMaybe) {
      if (i < j.size() && j[i].is_null()) {
        ++i;
        return;
      }
    }
    if (i >= j.size() || !j[i].is_number_unsigned())
      throw Error(std::string(what) + " has no number \"" + name + "\"");
    v = view::json_whole<T>(j[i++], std::string(what) + " \"" + name + "\"");
  });
  if (i != j.size())
    throw Error(std::string(what) + " has " + std::to_string(j.size()) + " values, expected " +
                std::to_string(i));
  return s;
}

// A file's columns are ours as saved by an earlier version: at least the
// first `before` of ours, fewer than all.
bool older_columns(const InJson& theirs, const InJson& ours, size_t before) {
  return theirs.is_array() && theirs.size() >= before && theirs.size() < ours.size() &&
         std::equal(theirs.begin(), theirs.end(), ours.begin());
}

constexpr auto kNodeInfo = [](auto& s, auto&& g) { node_info_fields(s, g); };
constexpr auto kPortInfo = [](auto& s, auto&& g) { port_info_fields(s, g); };
constexpr auto kSwitchInfo = [](auto& s, auto&& g) { switch_info_fields(s, g); };

// The fast path of load_fabric: a node or link line exactly as
// write_fabric writes it (key order, no spaces, plain ASCII strings),
// read without building a JSON document, which is most of what loading a
// large fabric costs. Anything else - another layout, an escape, a value
// out of range, a line that is not ours - is left to the JSON reader, so
// what a file means and every error message stay as they were.
class FastLine {
 public:
  FastLine(const std::string& text, size_t port_info_columns, size_t switch_info_columns)
      : p_(text.data()),
        end_(text.data() + text.size()),
        port_info_columns_(port_info_columns),
        switch_info_columns_(switch_info_columns) {
    if (end_ > p_ && end_[-1] == '\n') --end_;
  }

  // Adds the node or link to f and returns true, or returns false having
  // changed nothing.
  bool read(Fabric& f) {
    if (lit("{\"node\":")) return node(f);
    if (lit("{\"link\":")) return link(f);
    return false;
  }

 private:
  bool node(Fabric& f) {
    std::vector<uint64_t> ni, path, si, pi;
    std::string description;
    NodeInfo info;
    if (!lit("{\"node_info\":") || !nums(ni) || !row(ni, kNodeInfo, info)) return false;
    if (f.find(info.node_guid)) return false;
    if (!lit(",\"description\":") || !str(description)) return false;
    if (!lit(",\"path\":") || !nums(path)) return false;
    std::optional<SwitchInfo> sw;
    if (lit(",\"switch_info\":")) {
      if (!nums(si) || !row(si, kSwitchInfo, sw.emplace(), switch_info_columns_)) return false;
    }
    struct PortLine {
      uint8_t num;
      uint64_t guid;
      std::optional<PortInfo> info;
    };
    std::vector<PortLine> ports;
    if (!lit(",\"ports\":[")) return false;
    while (!lit("]")) {
      if (!ports.empty() && !lit(",")) return false;
      uint64_t num = 0, guid = 0;
      if (!lit("[") || !number(num) || num > info.num_ports || !lit(",") || !number(guid) ||
          !lit(","))
        return false;
      PortLine& pl = ports.emplace_back(PortLine{static_cast<uint8_t>(num), guid, {}});
      if (!lit("null") &&
          (!nums(pi) || !row(pi, kPortInfo, pl.info.emplace(), port_info_columns_) ||
           pl.info->state > kPortStateMax))
        return false;
      if (!lit("]")) return false;
    }
    if (!lit("}}") || p_ != end_) return false;
    std::vector<uint8_t> route;
    for (uint64_t h : path) {
      if (h > 0xff) return false;
      route.push_back(static_cast<uint8_t>(h));
    }
    Node& n = f.nodes[f.add(info, std::move(route))];
    n.description = std::move(description);
    n.sw = sw;
    for (PortLine& pl : ports) {
      n.ports[pl.num].guid = pl.guid;
      if (pl.info) n.ports[pl.num].info = pl.info;
    }
    return true;
  }

  bool link(Fabric& f) {
    std::vector<uint64_t> v;
    if (!nums(v) || v.size() != 4 || !lit("}") || p_ != end_) return false;
    for (size_t i = 0; i < 4; i += 2)
      if (v[i] >= f.nodes.size() || v[i + 1] >= f.nodes[v[i]].ports.size()) return false;
    f.connect({static_cast<uint32_t>(v[0]), static_cast<uint8_t>(v[1])},
              {static_cast<uint32_t>(v[2]), static_cast<uint8_t>(v[3])});
    return true;
  }

  template <typename S, typename Fields>
  static bool row(const std::vector<uint64_t>& v, Fields fields, S& s, size_t columns = kAll) {
    size_t i = 0;
    bool ok = true;
    fields(s, [&](const char*, auto& x) {
      using T = typename Cell<std::remove_reference_t<decltype(x)>>::Value;
      if (i >= columns) return;
      if (i >= v.size() || v[i] > std::numeric_limits<T>::max()) {
        ok = false;
      } else {
        x = static_cast<T>(v[i]);
      }
      ++i;
    });
    return ok && i == v.size();
  }

  bool lit(std::string_view s) {
    if (static_cast<size_t>(end_ - p_) < s.size() || std::memcmp(p_, s.data(), s.size()) != 0)
      return false;
    p_ += s.size();
    return true;
  }

  // A JSON unsigned integer that fits 64 bits (no sign, fraction or
  // leading zero).
  bool number(uint64_t& v) {
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0' && p_ + 1 < end_ && p_[1] >= '0' && p_[1] <= '9') return false;
    v = 0;
    for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_) {
      uint64_t d = static_cast<uint64_t>(*p_ - '0');
      if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
      v = v * 10 + d;
    }
    return p_ == end_ || (*p_ != '.' && *p_ != 'e' && *p_ != 'E');
  }

  bool nums(std::vector<uint64_t>& out) {
    out.clear();
    if (!lit("[")) return false;
    if (lit("]")) return true;
    do {
      if (!number(out.emplace_back())) return false;
    } while (lit(","));
    return lit("]");
  }

  // A string of printable ASCII with no escapes.
  bool str(std::string& out) {
    if (!lit("\"")) return false;
    const char* b = p_;
    while (p_ < end_ && *p_ != '"') {
      if (*p_ == '\\' || *p_ < 0x20 || *p_ > 0x7e) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out.assign(b, p_++);
    return true;
  }

  const char* p_;
  const char* end_;
  size_t port_info_columns_;
  size_t switch_info_columns_;
};

}  // namespace

void write_fabric(const Fabric& f, std::FILE* out) {
  // A NodeDescription is 64 bytes of anything: a byte that is not UTF-8
  // is saved as U+FFFD (JSON holds only UTF-8), not a throw out of save.
  auto line = [&](const Json& j) {
    std::string s = j.dump(-1, ' ', false, Json::error_handler_t::replace);
    s += '\n';
    std::fwrite(s.data(), 1, s.size(), out);
  };
  line(Json{{"format", kFormat},
            {"version", kVersion},
            {"nodes", f.nodes.size()},
            {"node_info", columns<NodeInfo>(kNodeInfo)},
            {"switch_info", columns<SwitchInfo>(kSwitchInfo)},
            {"port_info", columns<PortInfo>(kPortInfo)}});
  for (const Node& n : f.nodes) {
    Json j = Json::object();
    j["node_info"] = row(n.info, kNodeInfo);
    j["description"] = n.description;
    j["path"] = n.path;
    if (n.sw) j["switch_info"] = row(*n.sw, kSwitchInfo);
    // [port, guid, PortInfo row or null]
    Json ports = Json::array();
    for (const Port& p : n.ports) {
      if (!p.info && !p.guid) continue;
      ports.push_back(Json::array({p.num, p.guid, p.info ? row(*p.info, kPortInfo) : Json()}));
    }
    j["ports"] = std::move(ports);
    line(Json{{"node", std::move(j)}});
  }
  for (const Link& l : f.links()) line(Json{{"link", {l.a.node, l.a.port, l.b.node, l.b.port}}});
}

void save_fabric(const Fabric& f, const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) throw Error("cannot write \"" + path + "\": " + std::strerror(errno));
  write_fabric(f, out);
  bool failed = std::ferror(out);
  if (std::fclose(out) != 0 || failed)
    throw Error("cannot write \"" + path + "\": " + std::strerror(errno));
}

namespace {

// The saved fabric's JSON Lines from in.
Fabric read_saved(std::FILE* in, const std::string& path) {
  Fabric f;
  std::string text;
  int lineno = 0;
  bool header = false;
  size_t port_info_columns = kAll, switch_info_columns = kAll;
  char buf[8192];
  auto fail = [&](const std::string& why) {
    throw Error(path + ":" + std::to_string(lineno) + ": " + why);
  };
  while (std::fgets(buf, sizeof buf, in)) {
    text += buf;
    // A long line goes on; an empty read (a NUL where a line starts) too.
    if (text.empty() || (text.back() != '\n' && !std::feof(in))) continue;
    ++lineno;
    if (header && FastLine(text, port_info_columns, switch_info_columns).read(f)) {
      text.clear();
      continue;
    }
    InJson j;
    try {
      j = InJson::parse(text);
    } catch (const nlohmann::json::exception&) {
      fail("not a line of an rdma fabric file (not JSON)");
    }
    text.clear();
    try {
      if (!header) {
        if (!j.is_object() || j.value("format", "") != kFormat)
          fail("not an rdma fabric file (save one with \"rdma fabric save FILE\")");
        if (j.value("version", InJson(0)) != kVersion)
          fail("version " + j.value("version", Json(0)).dump() +
               " is not supported (this rdma reads " + std::to_string(kVersion) + ")");
        // The columns must be ours: a file from another version of the
        // tool with other fields is refused, not misread.
        // PortInfo's and SwitchInfo's may be those of a file saved before
        // the last ones.
        InJson ours = columns<PortInfo>(kPortInfo), theirs = j.value("port_info", InJson());
        bool older = older_columns(theirs, ours, kPortInfoColumnsBefore);
        InJson ours_sw = columns<SwitchInfo>(kSwitchInfo),
               theirs_sw = j.value("switch_info", InJson());
        bool older_sw = older_columns(theirs_sw, ours_sw, kSwitchInfoColumnsBefore);
        if (j.value("node_info", InJson()) != InJson(columns<NodeInfo>(kNodeInfo)) ||
            (theirs_sw != ours_sw && !older_sw) || (theirs != ours && !older))
          fail("its columns are not this rdma's (written by another version?)");
        if (older) port_info_columns = theirs.size();
        if (older_sw) switch_info_columns = theirs_sw.size();
        header = true;
        continue;
      }
      if (j.contains("node")) {
        const InJson& nj = j["node"];
        NodeInfo info = from_row<NodeInfo>(nj.at("node_info"), kNodeInfo, "node_info");
        if (f.find(info.node_guid)) fail("node GUID repeated");
        const InJson& hops = nj.at("path");
        if (!hops.is_array()) fail("a path is a list of port numbers");
        std::vector<uint8_t> path;
        for (const InJson& hop : hops)
          path.push_back(view::json_whole<uint8_t>(hop, "a path's port"));
        uint32_t n = f.add(info, std::move(path));
        Node& node = f.nodes[n];
        node.description = nj.at("description").get<std::string>();
        if (nj.contains("switch_info"))
          node.sw = from_row<SwitchInfo>(nj["switch_info"], kSwitchInfo, "switch_info",
                                         switch_info_columns);
        for (const InJson& pj : nj.at("ports")) {
          if (!pj.is_array() || pj.size() != 3) fail("a port is [port, guid, port_info]");
          unsigned p = view::json_whole<uint8_t>(pj[0], "a port's number");
          if (p >= node.ports.size()) fail("port " + std::to_string(p) + " out of range");
          node.ports[p].guid = view::json_whole<uint64_t>(pj[1], "a port's GUID");
          if (!pj[2].is_null()) {
            PortInfo pi = from_row<PortInfo>(pj[2], kPortInfo, "port_info", port_info_columns);
            if (pi.state > kPortStateMax) fail("port_info \"PortState\" is out of range");
            node.ports[p].info = pi;
          }
        }
      } else if (j.contains("link")) {
        const InJson& l = j["link"];
        if (!l.is_array() || l.size() != 4) fail("a link is [node, port, node, port]");
        PortRef a{view::json_whole<uint32_t>(l[0], "a link's node"),
                  view::json_whole<uint8_t>(l[1], "a link's port")};
        PortRef b{view::json_whole<uint32_t>(l[2], "a link's node"),
                  view::json_whole<uint8_t>(l[3], "a link's port")};
        for (PortRef r : {a, b})
          if (r.node >= f.nodes.size() || r.port >= f.nodes[r.node].ports.size())
            fail("a link to a node or port the file does not have");
        f.connect(a, b);
      } else {
        fail("neither a node nor a link");
      }
    } catch (const nlohmann::json::exception& e) {
      fail(std::string("malformed: ") + e.what());
    } catch (const Error& e) {
      if (std::string(e.what()).starts_with(path + ":")) throw;
      fail(e.what());
    }
  }
  if (!header) throw Error(path + ": empty, not an rdma fabric file");
  return f;
}

}  // namespace

Fabric load_fabric(const std::string& path, FabricFile* kind) {
  if (kind) *kind = FabricFile::Saved;
  using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
  File in(std::fopen(path.c_str(), "r"), std::fclose);
  if (!in) throw Error("cannot read \"" + path + "\": " + std::strerror(errno));
  // The format by content: a saved fabric starts with its JSON header;
  // anything else is read whole (a pipe cannot be read twice) and, unless
  // it is a topology file, given to the JSON reader to say what is wrong.
  int c = std::fgetc(in.get());
  if (c == EOF || c == '{') {
    std::ungetc(c, in.get());
    return read_saved(in.get(), path);
  }
  std::string text(1, static_cast<char>(c));
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, in.get())) > 0;) text.append(buf, n);
  if (std::ferror(in.get())) throw Error("cannot read \"" + path + "\": " + std::strerror(errno));
  if (is_topology_text(text)) {
    if (kind) *kind = FabricFile::Topology;
    return parse_topology_fabric(text, path);
  }
  File mem(fmemopen(text.data(), text.size(), "r"), std::fclose);
  if (!mem) throw Error("cannot read \"" + path + "\": " + std::strerror(errno));
  return read_saved(mem.get(), path);
}

}  // namespace rdma::ib
