// The parser follows ibsim's (sim_net.c) line by line in what it accepts,
// but refuses what ibsim would silently misread (unknown port options, a
// port declared twice, a link one side does not name) with the line.
#include "lib/testing/fabric/topology.h"

#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>
#include <unordered_map>

#include "lib/error.h"
#include "lib/view/read_text.h"

namespace rdma::ibtest {

namespace {

// ibsim 0.12 takes s=0 as QDR.
uint8_t speed_or_qdr(uint8_t s) {
  return s ? s : kSpeedQdr;
}

bool starts(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

// The state ibsim keeps between records: GUID counters and the defaults
// that width=, speed=, vendid= ... set for the nodes that follow.
struct Defaults {
  // ibsim's starting GUIDs per node type (its absguids[]). Routers start at
  // 0: ibsim's table has no entry for them.
  uint64_t base[4] = {0, 0x100000, 0x200000, 0};
  uint64_t next[4] = {0, 0x100000, 0x200000, 0};
  uint8_t width = kWidth4x;
  uint8_t speed = kSpeedSdr;
  uint8_t speed_ext = 0;
  uint32_t vendor = 0;
  uint16_t device = 0;
  uint64_t sys_guid = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : source_(source) {
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string_view::npos) nl = text.size();
      std::string_view l = text.substr(pos, nl - pos);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines_.push_back(l);
      pos = nl + 1;
    }
  }

  Topology run() {
    while (i_ < lines_.size()) {
      std::string_view l = lines_[i_];
      size_t at = i_++;
      if (starts(l, "Switch"))
        node(NodeType::Switch, l, l.substr(6), at);
      else if (starts(l, "Hca"))
        node(NodeType::Ca, l, l.substr(3), at);
      else if (starts(l, "Ca"))
        node(NodeType::Ca, l, l.substr(2), at);
      else if (starts(l, "Rt"))
        node(NodeType::Router, l, l.substr(2), at);
      else if (starts(l, "switchguid"))
        guid_base(NodeType::Switch, l, at);
      else if (starts(l, "hcaguids") || starts(l, "caguid"))
        guid_base(NodeType::Ca, l, at);
      else if (starts(l, "rtguid"))
        guid_base(NodeType::Router, l, at);
      else if (starts(l, "vendid"))
        d_.vendor = number(value(l, at), at, "vendid");
      else if (starts(l, "devid"))
        d_.device = number(value(l, at), at, "devid");
      else if (starts(l, "sysimgguid"))
        d_.sys_guid = number(value(l, at), at, "sysimgguid");
      else if (starts(l, "width"))
        d_.width = ranged(value(l, at), at, "width", 1, 31);
      else if (starts(l, "speed"))
        d_.speed = ranged(value(l, at), at, "speed", 1, 7);
      else if (starts(l, "extspeed"))
        d_.speed_ext = ranged(value(l, at), at, "extspeed", 0, 15);
      else if (starts(l, "module") || starts(l, "include") || starts(l, "do"))
        fail(at, "\"" + std::string(l.substr(0, l.find_first_of(" \t="))) +
                     "\" lines are not supported");
      // Anything else (comments, blank lines, pdebug) is ignored, as ibsim does.
    }
    connect();
    return std::move(t_);
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string& msg) const {
    throw Error(source_ + ":" + std::to_string(at + 1) + ": " + msg);
  }

  std::string_view value(std::string_view l, size_t at) const {
    size_t eq = l.find_first_of("=+");
    if (eq == std::string_view::npos) fail(at, "missing '=' in \"" + std::string(l) + "\"");
    return l.substr(eq + 1);
  }

  uint64_t number(std::string_view v, size_t at, const char* what) const {
    std::string s(v);
    size_t start = s.find_first_not_of(" \t");
    if (start == std::string::npos) fail(at, std::string("missing value for ") + what);
    char* end = nullptr;
    errno = 0;
    unsigned long long n = std::strtoull(s.c_str() + start, &end, 0);
    if (end == s.c_str() + start || errno)
      fail(at, std::string("invalid ") + what + " \"" + s.substr(start) + "\"");
    return n;
  }

  uint8_t ranged(std::string_view v, size_t at, const char* what, int lo, int hi) const {
    uint64_t n = number(v, at, what);
    if (n < uint64_t(lo) || n > uint64_t(hi))
      fail(at, std::string(what) + " " + std::to_string(n) + " is not in " + std::to_string(lo) +
                   ".." + std::to_string(hi));
    return static_cast<uint8_t>(n);
  }

  void guid_base(NodeType t, std::string_view l, size_t at) {
    size_t eq = l.find_first_of("=+");
    if (eq == std::string_view::npos) fail(at, "missing '=' or '+' in \"" + std::string(l) + "\"");
    uint64_t v = number(l.substr(eq + 1), at, "GUID");
    int i = static_cast<int>(t);
    if (l[eq] == '=') {
      d_.base[i] = v;
      d_.next[i] = v;
    } else {
      d_.next[i] = d_.base[i] + v;
    }
  }

  // The first quoted string at or after pos; pos is left after it.
  std::string quoted(std::string_view l, size_t& pos, size_t at, const char* what) const {
    size_t s = l.find('"', pos);
    size_t e = s == std::string_view::npos ? s : l.find('"', s + 1);
    if (e == std::string_view::npos) fail(at, std::string("missing quoted ") + what);
    pos = e + 1;
    return std::string(l.substr(s + 1, e - s - 1));
  }

  void node(NodeType type, std::string_view l, std::string_view after_kw, size_t at) {
    TopoNode n;
    n.type = type;
    n.line = static_cast<int>(at + 1);
    size_t d = after_kw.find_first_of("0123456789");
    size_t q = after_kw.find('"');
    if (d == std::string_view::npos || (q != std::string_view::npos && d > q))
      fail(at, "missing port count");
    n.num_ports = static_cast<int>(number(after_kw.substr(d), at, "port count"));
    if (n.num_ports < 1 || n.num_ports > 254)
      fail(at, "port count " + std::to_string(n.num_ports) + " is not in 1..254");
    size_t pos = 0;
    n.id = quoted(l, pos, at, "node name");
    if (n.id.empty()) fail(at, "empty node name");
    if (names_.count(n.id)) fail(at, "node \"" + n.id + "\" is declared twice");
    // `# "desc"` or `# desc lid 4` (ibnetdiscover); what follows the
    // description holds a switch's port 0 LID and enhanced/base port 0.
    std::string_view rest = l.substr(pos);
    size_t hash = rest.find('#');
    if (hash != std::string_view::npos) {
      std::string_view c = rest.substr(hash + 1);
      size_t s = c.find_first_not_of(" \t");
      c = s == std::string_view::npos ? std::string_view() : c.substr(s);
      if (!c.empty() && c[0] == '"') {
        size_t e = c.find('"', 1);
        if (e == std::string_view::npos) fail(at, "unterminated node description");
        n.description = std::string(c.substr(1, e - 1));
        rest = c.substr(e + 1);
      } else {
        size_t e = std::string_view::npos;
        for (const char* k : {" enhanced port ", " base port ", " lid ", " lmc "})
          if ((e = c.find(k)) != std::string_view::npos) break;
        n.description = std::string(c.substr(0, e));
        rest = e == std::string_view::npos ? std::string_view() : c.substr(e);
      }
    }
    if (n.description.empty()) n.description = n.id;
    int ti = static_cast<int>(type);
    n.node_guid = d_.next[ti];
    n.sys_guid = d_.sys_guid ? d_.sys_guid : n.node_guid;
    n.vendor_id = d_.vendor;
    n.device_id = d_.device;
    d_.next[ti] += type == NodeType::Switch ? 1 : n.num_ports + 1;
    d_.vendor = 0;  // vendid= and sysimgguid= hold for one node; devid= stays
    d_.sys_guid = 0;
    auto [g, fresh] = guids_.emplace(n.node_guid, n.id);
    if (!fresh) fail(at, "node \"" + n.id + "\" has the GUID of \"" + g->second + "\"");
    if (type == NodeType::Switch) {
      if (rest.find("enhanced port 0") != std::string_view::npos) n.enhanced_port0 = 1;
      if (rest.find("base port 0") != std::string_view::npos) n.enhanced_port0 = -1;
      lid_lmc(rest, at, n.lid, nullptr);
    }
    n.ports.resize(n.num_ports + 1);
    for (TopoPort& p : n.ports) {
      p.width_enabled = d_.width;
      p.speed_enabled = d_.speed;
      p.speed_ext_enabled = d_.speed_ext;
    }
    ports(n);
    names_[n.id] = static_cast<int>(t_.nodes.size());
    t_.nodes.push_back(std::move(n));
  }

  void lid_lmc(std::string_view s, size_t at, uint16_t& lid, uint8_t* lmc) const {
    size_t k = s.find("lid ");
    if (k != std::string_view::npos)
      lid = static_cast<uint16_t>(number(s.substr(k + 4), at, "lid"));
    k = s.find("lmc ");
    if (lmc && k != std::string_view::npos)
      *lmc = static_cast<uint8_t>(number(s.substr(k + 4), at, "lmc"));
  }

  // "lid 1 4xQDR" at the end of an ibnetdiscover port line: the enabled
  // width and speeds, as ibsim reads them.
  void connection(TopoPort& p, std::string_view rest, size_t at) const {
    size_t k = rest.rfind("lid ");
    if (k == std::string_view::npos || rest.find('"', k) != std::string_view::npos) return;
    std::istringstream in{std::string(rest.substr(k + 4))};
    int lid = 0, width = 0;
    char x = 0;
    std::string speed;
    if (!(in >> lid >> width >> x >> speed) || (x != 'x' && x != 'X')) return;
    switch (width) {
      case 1:
        p.width_enabled = kWidth1x;
        break;
      case 2:
        p.width_enabled = kWidth2x;
        break;
      case 4:
        p.width_enabled = kWidth1x | kWidth4x;
        break;
      case 8:
        p.width_enabled = kWidth8x;
        break;
      case 12:
        p.width_enabled = kWidth1x | kWidth4x | kWidth12x;
        break;
      default:
        fail(at, "invalid link width " + std::to_string(width) + "x");
    }
    constexpr uint8_t kUpToQdr = kSpeedSdr | kSpeedDdr | kSpeedQdr;
    static const std::map<std::string, std::pair<uint8_t, uint8_t>> kSpeeds = {
        {"SDR", {kSpeedSdr, 0}},
        {"DDR", {kSpeedSdr | kSpeedDdr, 0}},
        {"QDR", {kUpToQdr, 0}},
        {"FDR10", {kUpToQdr, 0}},
        {"FDR", {kUpToQdr, kSpeedExtFdr}},
        {"EDR", {kUpToQdr, kSpeedExtFdr | kSpeedExtEdr}},
        {"HDR", {kUpToQdr, kSpeedExtFdr | kSpeedExtEdr | kSpeedExtHdr}},
        {"NDR", {kUpToQdr, kSpeedExtFdr | kSpeedExtEdr | kSpeedExtHdr | kSpeedExtNdr}},
    };
    auto it = kSpeeds.find(speed);
    if (it == kSpeeds.end()) fail(at, "invalid link speed \"" + speed + "\"");
    p.speed_enabled = it->second.first;
    p.speed_ext_enabled = it->second.second;
    p.mlnx_speed_enabled = it->second.first == kUpToQdr && speed != "QDR" ? 1 : 0;
  }

  void ports(TopoNode& n) {
    int left = n.num_ports;
    while (left && i_ < lines_.size()) {
      std::string_view l = lines_[i_];
      if (!l.empty() && l[0] == '#') {
        ++i_;
        continue;
      }
      if (l.empty() || (l[0] != '[' && l[0] != '@')) return;
      size_t at = i_++;
      if (l[0] == '@') fail(at, "port aliases (@) are not supported");
      port(n, l, at);
      --left;
    }
  }

  void port(TopoNode& n, std::string_view l, size_t at) {
    size_t close = l.find(']');
    if (close == std::string_view::npos) fail(at, "missing ']' after the port number");
    // Judged as read, before it is an int: "-1" must not wrap to a port.
    uint64_t v = number(l.substr(1, close - 1), at, "port number");
    if (v == 0)
      fail(at, n.type == NodeType::Switch ? "a switch's port 0 has no link"
                                          : "port 0 of a CA or router does not exist");
    if (v > static_cast<uint64_t>(n.num_ports))
      fail(at, "port " + std::to_string(v) + " of \"" + n.id + "\" is beyond its " +
                   std::to_string(n.num_ports) + " ports");
    int num = static_cast<int>(v);
    TopoPort& p = n.ports[num];
    if (p.line) fail(at, "port " + std::to_string(num) + " of \"" + n.id + "\" is declared twice");
    p.line = static_cast<int>(at + 1);
    size_t pos = close + 1;
    std::string peer = quoted(l, pos, at, "peer node name");
    int peer_port = 1;  // ibsim's default when the peer's port is not given
    if (pos < l.size() && l[pos] == '[') {
      size_t e = l.find(']', pos);
      if (e == std::string_view::npos) fail(at, "missing ']' after the peer's port");
      uint64_t v = number(l.substr(pos + 1, e - pos - 1), at, "peer port");
      if (v < 1 || v > 254) fail(at, "invalid peer port " + std::to_string(v));
      peer_port = static_cast<int>(v);
      pos = e + 1;
    }
    peer_names_[{static_cast<int>(t_.nodes.size()), num}] = {peer, peer_port};
    std::string_view rest = l.substr(pos);
    size_t hash = rest.find('#');
    std::string_view opts = rest.substr(0, hash);
    // Options: w=, s=, e= (enabled width, speed, extended speed).
    for (size_t eq = opts.find('='); eq != std::string_view::npos; eq = opts.find('=', eq + 1)) {
      size_t k = eq;
      while (k > 0 && std::isalpha(static_cast<unsigned char>(opts[k - 1]))) --k;
      std::string key(opts.substr(k, eq - k));
      std::string_view v = opts.substr(eq + 1);
      if (key == "w")
        p.width_enabled = ranged(v, at, "width", 1, 31);
      else if (key == "s")
        p.speed_enabled = speed_or_qdr(ranged(v, at, "speed", 0, 7));
      else if (key == "e")
        p.speed_ext_enabled = ranged(v, at, "extspeed", 0, 15);
      else
        fail(at, "unknown port option \"" + key + "=\" (known: w=, s=, e=)");
    }
    if (hash != std::string_view::npos) {
      if (n.type != NodeType::Switch) lid_lmc(rest, at, p.lid, &p.lmc);
      connection(p, rest.substr(hash), at);
    }
  }

  // Both ends must name each other, as ibsim checks.
  void connect() {
    for (auto& [key, peer] : peer_names_) {
      auto [ni, pi] = key;
      TopoNode& n = t_.nodes[ni];
      TopoPort& p = n.ports[pi];
      size_t at = p.line - 1;
      auto found = names_.find(peer.first);
      int r = found == names_.end() ? -1 : found->second;
      if (r < 0)
        fail(at, "\"" + n.id + "\" port " + std::to_string(pi) + " names an unknown node \"" +
                     peer.first + "\"");
      TopoNode& rn = t_.nodes[r];
      if (peer.second > rn.num_ports)
        fail(at, "\"" + n.id + "\" port " + std::to_string(pi) + " names port " +
                     std::to_string(peer.second) + " of \"" + rn.id + "\", which has " +
                     std::to_string(rn.num_ports));
      auto back = peer_names_.find({r, peer.second});
      if (back == peer_names_.end() || back->second.first != n.id || back->second.second != pi)
        fail(at, "\"" + n.id + "\" port " + std::to_string(pi) + " names \"" + rn.id + "\" port " +
                     std::to_string(peer.second) + ", which does not name it back");
      p.peer_node = r;
      p.peer_port = static_cast<uint8_t>(peer.second);
    }
  }

  std::string source_;
  std::vector<std::string_view> lines_;
  size_t i_ = 0;
  Defaults d_;
  Topology t_;
  std::map<std::pair<int, int>, std::pair<std::string, int>> peer_names_;
  std::unordered_map<std::string, int> names_;
  std::unordered_map<uint64_t, std::string> guids_;
};

}  // namespace

int Topology::find(std::string_view id) const {
  // Linear: parsing checks names once per node; callers with many lookups
  // build their own index.
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == id) return static_cast<int>(i);
  return -1;
}

size_t Topology::links() const {
  size_t n = 0;
  for (const TopoNode& node : nodes)
    for (const TopoPort& p : node.ports)
      if (p.peer_node >= 0) ++n;
  return n / 2;
}

Topology parse_topology(std::string_view text, const std::string& source) {
  return Parser(text, source).run();
}

Topology load_topology(const std::string& path) {
  return parse_topology(view::read_text(path, "the topology file"), path);
}

}  // namespace rdma::ibtest
