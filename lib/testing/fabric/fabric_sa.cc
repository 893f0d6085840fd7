// The subnet administrator at the SM's LID (IBA 15): the records a fabric
// tool reads, filtered by ComponentMask, Get answering one record and
// GetTable any number, in RMPP DATA segments (13.6) when they do not fit
// one MAD.
#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_sa.h"
#include "lib/mad/sa.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;
namespace hdr = mad::hdr;

void put_port_info(std::span<uint8_t> d, const FabricNode& n, int p, int local_port);
void put_switch_info(std::span<uint8_t> d, const FabricNode& n);
void put_sm_info(std::span<uint8_t> d, uint64_t guid, uint32_t activity, uint8_t priority,
                 uint8_t state);

namespace {

constexpr size_t kSaData = mad::kMadBytes - 56;  // record bytes per MAD
constexpr size_t kSaHeader = 20;                 // SM_Key .. ComponentMask
// The SA's ClassPortInfo capabilities, as opensm 3.3 under ibsim gives them.
constexpr uint16_t kSaCapabilities = 0x2602;
constexpr uint32_t kSaCapabilities2 = 0xb5e8;
// opensm's default SM_Key: P_KeyTableRecords go to requesters with it only.
constexpr uint64_t kSmKey = 1;

using Record = std::vector<uint8_t>;

void put16(Record& r, size_t byte, uint16_t v) {
  r[byte] = static_cast<uint8_t>(v >> 8);
  r[byte + 1] = static_cast<uint8_t>(v);
}

// A component the ComponentMask bit selects: its place in the record.
struct Component {
  int bit;
  uint16_t offset, width;  // in bits
};

// The components the double filters on, per record (others are ignored,
// as an SA may ignore components it does not index).
const std::vector<Component>& components(uint16_t attr) {
  static const std::vector<Component> kNode = {
      {0, 0, 16}, {4, 32 + 16, 8}, {7, 32 + 96, 64}, {8, 32 + 160, 64}};
  // CapabilityMask (bit 7): equal, or bit by bit when asked (answer_sa).
  static const std::vector<Component> kPortInfo = {{0, 0, 16}, {1, 16, 8}, {7, 32 + 160, 32}};
  static const std::vector<Component> kMft = {{0, 0, 16}, {2, 16, 4}, {4, 23, 9}};
  static const std::vector<Component> kLid = {{0, 0, 16}};
  static const std::vector<Component> kLft = {{0, 0, 16}, {1, 16, 16}};
  static const std::vector<Component> kLink = {{0, 0, 16}, {1, 16, 8}, {2, 24, 8}, {3, 32, 16}};
  static const std::vector<Component> kGuid = {{0, 0, 16}, {1, 16, 8}};
  static const std::vector<Component> kPKey = {{0, 0, 16}, {1, 16, 16}, {2, 32, 8}};
  static const std::vector<Component> kPorts = {{0, 0, 16}, {1, 16, 8}, {2, 24, 8}};
  static const std::vector<Component> kService = {{0, 0, 64}, {1, 64, 128}, {6, 384, 512}};
  static const std::vector<Component> kMcast = {{0, 0, 128}, {1, 128, 128}, {3, 288, 16}};
  static const std::vector<Component> kNone;
  switch (attr) {
    case 0x11:
      return kNode;
    case 0x12:
      return kPortInfo;
    case 0x14:
    case 0x18:
      return kLid;
    case 0x15:
      return kLft;
    case 0x20:
      return kLink;
    case 0x30:
      return kGuid;
    case 0x33:
      return kPKey;
    case 0x13:
    case 0x36:
      return kPorts;
    case 0x31:
      return kService;
    case 0x38:
      return kMcast;
    case 0x17:
      return kMft;
    default:
      return kNone;
  }
}

const mad::AttrDef* record_def(uint16_t attr) {
  for (const mad::AttrDef* a :
       {&mad::kNodeRecord, &mad::kPortInfoRecord, &mad::kSwitchInfoRecord, &mad::kLftRecord,
        &mad::kSmInfoRecord, &mad::kLinkRecord, &mad::kPathRecord, &mad::kServiceRecord,
        &mad::kMcMemberRecord, &mad::kGuidInfoRecord, &mad::kPKeyTableRecord, &mad::kSl2VlRecord,
        &mad::kVlArbRecord, &mad::kMftRecord, &mad::kInformInfoRecord})
    if (a->id == attr) return a;
  return nullptr;
}

// A component of a record equals the request's (GIDs and names: bytes).
bool same(std::span<const uint8_t> x, std::span<const uint8_t> req, const Component& c) {
  if (c.width <= 64)
    return mad::get_bits(x, c.offset, c.width) == mad::get_bits(req, c.offset, c.width);
  return std::equal(x.begin() + c.offset / 8, x.begin() + (c.offset + c.width) / 8,
                    req.begin() + c.offset / 8);
}

Mad sa_response(const Mad& m) {
  Mad r = m;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod,
        m.get(hdr::kMethod) == mad::kGet ? uint8_t{mad::kGet} : uint8_t{mad::kSaGetTable});
  r.set(hdr::kStatus, 0);
  auto d = r.data();
  std::fill(d.begin(), d.end(), 0);
  return r;
}

}  // namespace

std::vector<Mad> FakeFabric::answer_sa(const Mad& m) {
  if (m.get(hdr::kResponse)) return rmpp_ack(m);
  Mad r = sa_response(m);
  auto fail = [&](uint16_t s) {
    r.set(hdr::kStatus, s);
    return std::vector<Mad>{r};
  };
  if (m.get(hdr::kBaseVersion) != 1 || m.get(hdr::kClassVersion) != 2)
    return fail(mad::kStatusBadVersion);
  uint8_t method = static_cast<uint8_t>(m.get(hdr::kMethod));
  uint16_t attr = static_cast<uint16_t>(m.get(hdr::kAttrId));
  if ((method == mad::kSet || method == mad::kSaDelete) && attr == mad::kGuidInfoRecord.id)
    return answer_sa_guid(m);
  if (method != mad::kGet && method != mad::kSaGetTable) return fail(mad::kStatusBadMethod);
  if (attr == mad::kClassPortInfo.id && method == mad::kGet) {
    // opensm's: IsAllMulticastSupported and the optional records, its
    // RespTimeValue (2^16 x 4.096 us).
    r.set_attr(mad::kClassPortInfo, "BaseVersion", 1);
    r.set_attr(mad::kClassPortInfo, "ClassVersion", 2);
    r.set_attr(mad::kClassPortInfo, "CapabilityMask", kSaCapabilities);
    r.set_attr(mad::kClassPortInfo, "CapabilityMask2", kSaCapabilities2);
    r.set_attr(mad::kClassPortInfo, "RespTimeValue", 16);
    return {r};
  }
  const mad::AttrDef* def = record_def(attr);
  if (!def) return fail(mad::kStatusBadMethodAttr);
  if (attr == 0x33 && m.get(hdr::kSmKey) != kSmKey) return fail(mad::kSaStatusReqInvalid);

  // Every record of the kind, then the filter.
  std::vector<Record> all;
  auto rec = [&]() -> Record& { return all.emplace_back(def->bytes); };
  auto lid_of = [&](int n, int p) { return lid(n, p); };
  const uint16_t top = static_cast<uint16_t>(lids_.size());
  switch (attr) {
    case 0x11:  // NodeRecord: one per LID (a CA's ports each)
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0) continue;
        Record& x = rec();
        put16(x, 0, l);
        Mad tmp;  // NodeInfo as the SMA gives it, through that port
        tmp.bytes[1] = mad::kClassSmiLid;
        Mad q;
        q.set(hdr::kBaseVersion, 1);
        q.set(hdr::kClassVersion, 1);
        q.set(hdr::kMgmtClass, mad::kClassSmiLid);
        q.set(hdr::kMethod, mad::kGet);
        q.set(hdr::kAttrId, mad::kNodeInfo.id);
        // The SM knows every port's M_Key: a protected port answers it.
        const FabricNode& owner = nodes_[h.node];
        q.set(hdr::kMKey, owner.ports[owner.is_switch() ? 0 : h.port].mkey);
        std::vector<Mad> ni = answer_smp(q, h, false);
        std::copy_n(ni[0].data().begin(), mad::kNodeInfo.bytes,
                    x.begin() + mad::kNodeRecordNodeInfo);
        const std::string& desc = nodes_[h.node].description;
        std::memcpy(x.data() + mad::kNodeRecordNodeDesc, desc.data(),
                    std::min<size_t>(desc.size(), 64));
      }
      break;
    case 0x12:  // PortInfoRecord: a CA port by its LID, every port of a switch
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0) continue;
        const FabricNode& n = nodes_[h.node];
        int first = n.is_switch() ? 0 : h.port, last = n.is_switch() ? n.num_ports() : h.port;
        for (int p = first; p <= last; ++p) {
          Record& x = rec();
          put16(x, 0, l);
          x[2] = static_cast<uint8_t>(p);
          put_port_info(std::span(x).subspan(mad::kPortInfoRecordPortInfo), n, p, p);
        }
      }
      break;
    case 0x14:  // SwitchInfoRecord
    case 0x15:  // LinearForwardingTableRecord
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0 || !nodes_[h.node].is_switch()) continue;
        const FabricNode& n = nodes_[h.node];
        if (attr == 0x14) {
          Record& x = rec();
          put16(x, 0, l);
          put_switch_info(std::span(x).subspan(mad::kSwitchInfoRecordSwitchInfo), n);
          continue;
        }
        for (size_t b = 0; b * 64 < n.lft.size(); ++b) {
          Record& x = rec();
          put16(x, 0, l);
          put16(x, 2, static_cast<uint16_t>(b));
          for (size_t i = 0; i < 64; ++i)
            x[mad::kLftRecordBlock + i] = b * 64 + i < n.lft.size() ? n.lft[b * 64 + i] : 0xff;
        }
      }
      break;
    case 0x18: {  // SMInfoRecord: the one SM
      Record& x = rec();
      put16(x, 0, sm_lid_);
      Hop h = lids_[sm_lid_];
      put_sm_info(std::span(x).subspan(mad::kSmInfoRecordSmInfo), nodes_[h.node].ports[h.port].guid,
                  sm_activity_, sm_.priority, sm_.state);
      break;
    }
    case 0x20:  // LinkRecord: every link, from each end
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0) continue;
        const FabricNode& n = nodes_[h.node];
        int first = n.is_switch() ? 1 : h.port, last = n.is_switch() ? n.num_ports() : h.port;
        for (int p = first; p <= last; ++p) {
          const FabricPort& fp = n.ports[p];
          if (fp.peer_node < 0) continue;
          uint16_t to = lid_of(fp.peer_node, fp.peer_port);
          if (!to) continue;
          Record& x = rec();
          put16(x, 0, l);
          x[2] = static_cast<uint8_t>(p);
          x[3] = fp.peer_port;
          put16(x, 4, to);
        }
      }
      break;
    case 0x30:  // GuidInfoRecord: GUIDInfo blocks of every LID's port
    case 0x33:  // P_KeyTableRecord: every port's blocks (a switch's every port)
    case 0x36:  // VLArbitrationTableRecord: blocks 1-4 of every port
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0) continue;
        const FabricNode& n = nodes_[h.node];
        int first = n.is_switch() ? (attr == 0x36 ? 1 : 0) : h.port;
        int last = n.is_switch() && attr != 0x30 ? n.num_ports() : first;
        if (n.is_switch() && attr == 0x36 && n.enhanced_port0) first = 0;
        for (int p = first; p <= last; ++p) {
          for (uint32_t b = attr == 0x36 ? 1 : 0;; ++b) {
            uint32_t mod = attr == 0x30   ? b
                           : attr == 0x33 ? (n.is_switch() ? uint32_t(p) << 16 : 0) | b
                                          : b << 16 | (n.is_switch() ? p : 0);
            std::array<uint8_t, 64> block;
            uint16_t smp_attr = attr == 0x30   ? mad::kGuidInfo.id
                                : attr == 0x33 ? mad::kPKeyTable.id
                                               : mad::kVlArbTable.id;
            if (attr == 0x36 && b > 4) break;
            if (!sma_get(h.node, n.is_switch() ? 0 : p, smp_attr, mod, block)) {
              if (attr == 0x36) continue;  // no high table past VLArbitrationHighCap
              break;
            }
            Record& x = rec();
            put16(x, 0, l);
            if (attr == 0x30) {
              x[2] = static_cast<uint8_t>(b);
            } else if (attr == 0x33) {
              put16(x, 2, static_cast<uint16_t>(b));
              x[4] = static_cast<uint8_t>(p);
            } else {
              x[2] = static_cast<uint8_t>(p);
              x[3] = static_cast<uint8_t>(b);
            }
            std::copy(block.begin(), block.end(), x.begin() + mad::kTableRecordBlock);
          }
        }
      }
      break;
    case 0x13:  // SLtoVLMappingTableRecord: a CA's one table (ports 0, 0), a switch's
                // every output port's by input port, as opensm lists them
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0) continue;
        const FabricNode& n = nodes_[h.node];
        int ports = n.is_switch() ? n.num_ports() : 0;
        for (int out = 0; out <= ports; ++out)
          for (int in = 0; in <= ports; ++in) {
            std::array<uint8_t, 64> t;
            uint32_t mod = uint32_t(in) << 8 | uint32_t(out);
            if (!sma_get(h.node, n.is_switch() ? 0 : h.port, mad::kSl2VlTable.id, mod, t)) continue;
            Record& x = rec();
            put16(x, 0, l);
            x[2] = static_cast<uint8_t>(in);
            x[3] = static_cast<uint8_t>(out);
            std::copy_n(t.begin(), mad::kSl2VlTable.bytes, x.begin() + mad::kTableRecordBlock);
          }
      }
      break;
    case 0x31:  // ServiceRecord
      for (const FabricService& sv : services_) {
        Record& x = rec();
        mad::set_bits(x, 0, 64, sv.id);
        mad::set_bits(x, 64, 64, 0xfe80000000000000ull);
        mad::set_bits(x, 128, 64, nodes_[sv.node].ports[sv.port].guid);
        put16(x, 24, sv.pkey);
        mad::set_bits(x, 224, 32, sv.lease);
        std::memcpy(x.data() + 48, sv.name.data(), std::min<size_t>(sv.name.size(), 64));
      }
      break;
    case 0x38: {  // MCMemberRecord
      // As opensm answers (tests/ibsim/route.sh shows it beside saquery): a
      // requester with the SM_Key gets one record per member of every
      // group; any other one per group, members or not, its PortGID,
      // JoinState and ProxyJoin 0.
      const bool trusted = m.get(hdr::kSmKey) == kSmKey;
      auto group_record = [&](const McGroup& g, const std::pair<int, int>* member) {
        Record& x = rec();
        Mad t;
        t.bytes[1] = mad::kClassSa;
        auto set = [&](const char* f, uint64_t v) { t.set_attr(mad::kMcMemberRecord, f, v); };
        auto td = t.data();
        std::copy(g.mgid.begin(), g.mgid.end(), td.begin());
        if (member) {
          mad::set_bits(td, 128, 64, 0xfe80000000000000ull);
          mad::set_bits(td, 192, 64, nodes_[member->first].ports[member->second].guid);
          set("JoinState", 1);  // full member
        }
        set("Q_Key", g.qkey);
        set("MLID", g.mlid);
        set("MTUSelector", 2);
        set("MTU", g.mtu);
        set("P_Key", g.pkey);
        set("RateSelector", 2);
        set("Rate", g.rate);
        set("PacketLifeTimeSelector", 2);
        set("PacketLifeTime", 0);
        set("SL", g.sl);
        set("Scope", g.scope);
        std::copy_n(td.begin(), mad::kMcMemberRecord.bytes, x.begin());
      };
      for (const McGroup& g : groups_) {
        if (!trusted) {
          group_record(g, nullptr);
          continue;
        }
        for (const std::pair<int, int>& member : g.members) group_record(g, &member);
      }
      break;
    }
    case 0x17:  // MulticastForwardingTableRecord: the blocks with a port in
                // them, of every switch, 16 ports a position
      for (uint16_t l = 1; l < top; ++l) {
        Hop h = lids_[l];
        if (h.node < 0 || !nodes_[h.node].is_switch()) continue;
        const FabricNode& n = nodes_[h.node];
        std::map<std::pair<unsigned, unsigned>, Record> blocks;  // (position, block)
        for (auto [mlid, mask] : n.mft)
          for (unsigned pos = 0; pos < 4; ++pos) {
            uint16_t ports = static_cast<uint16_t>(mask >> (16 * pos));
            if (!ports) continue;
            unsigned b = (mlid - 0xc000u) / 32, i = (mlid - 0xc000u) % 32;
            Record& x = blocks[{pos, b}];
            if (x.empty()) {
              x.resize(def->bytes);
              put16(x, 0, l);
              put16(x, 2, static_cast<uint16_t>(pos << 12 | b));
            }
            put16(x, mad::kTableRecordBlock + 2 * i, ports);
          }
        for (auto& [key, x] : blocks) all.push_back(std::move(x));
      }
      break;
    case 0xf3:  // InformInfoRecord: the double keeps no subscriptions
      break;
    case 0x35:
      return answer_path(m, r);
  }
  auto req = m.data();
  uint64_t mask = m.get(hdr::kCompMask);
  // AttributeModifier bit 31: the enhanced compare, CapabilityMask's bits
  // each (IBA 1.2.1 errata, as opensm).
  const bool bitwise = m.get(hdr::kAttrMod) >> 31;
  std::vector<Record> found;
  for (Record& x : all) {
    bool ok = true;
    for (const Component& c : components(attr)) {
      if (!(mask >> c.bit & 1)) continue;
      if (bitwise && attr == 0x12 && c.bit == 7) {
        uint64_t want = mad::get_bits(req, c.offset, c.width);
        ok = ok && (mad::get_bits(x, c.offset, c.width) & want) == want;
      } else if (!same(x, req, c)) {
        ok = false;
      }
    }
    if (ok) found.push_back(std::move(x));
  }
  return sa_reply(m, r, *def, found);
}

bool FakeFabric::sma_get(int n, int p, uint16_t attr, uint32_t mod, std::span<uint8_t> out) {
  Mad q;
  q.set(hdr::kBaseVersion, 1);
  q.set(hdr::kClassVersion, 1);
  q.set(hdr::kMgmtClass, mad::kClassSmiLid);
  q.set(hdr::kMethod, mad::kGet);
  q.set(hdr::kAttrId, attr);
  q.set(hdr::kAttrMod, mod);
  // The SM's own query, with the port's M_Key (it set it).
  q.set(hdr::kMKey, nodes_[n].ports[nodes_[n].is_switch() ? 0 : p].mkey);
  std::vector<Mad> a = answer_smp(q, Hop{n, p}, false);
  if (a.empty() || a[0].get(hdr::kStatus)) return false;
  std::copy_n(a[0].data().begin(), std::min(out.size(), a[0].data().size()), out.begin());
  return true;
}

// PathRecord: from SGID/SLID (default: the requester) to DGID/DLID, along
// the forwarding tables; the rate is the slowest link's.
std::vector<Mad> FakeFabric::answer_path(const Mad& m, Mad& r) {
  using mad::kPathRecord;
  uint64_t mask = m.get(hdr::kCompMask);
  auto req = m.data();
  auto gid_guid = [&](const char* f) {
    return mad::get_bits(req, mad::find_field(kPathRecord, f)->bit + 64, 64);
  };
  auto by_guid = [&](uint64_t guid) -> uint16_t {
    for (uint16_t l = 1; l < lids_.size(); ++l) {
      Hop h = lids_[l];
      if (h.node >= 0 && nodes_[h.node].ports[h.port].guid == guid) return l;
    }
    return 0;
  };
  uint16_t slid = nodes_[attach_node_].ports[attach_port_].lid, dlid = 0;
  if (mask & (1 << 3)) slid = by_guid(gid_guid("SGID"));
  if (mask & (1 << 5)) slid = static_cast<uint16_t>(m.get_attr(kPathRecord, "SLID"));
  if (mask & (1 << 2)) dlid = by_guid(gid_guid("DGID"));
  if (mask & (1 << 4)) dlid = static_cast<uint16_t>(m.get_attr(kPathRecord, "DLID"));
  std::vector<Record> found;
  auto s = owner_of(slid), d = owner_of(dlid);
  if (s && d) {
    // Walk the tables, noting the slowest link.
    int n = s->node, out = s->port, hops = 0;
    uint32_t rate = ~0u;
    bool ok = true;
    auto gbps = [](const FabricPort& p) {  // lane count x Gb/s per lane x 4
      uint32_t lanes = p.width_active == kWidth12x  ? 12
                       : p.width_active == kWidth8x ? 8
                       : p.width_active == kWidth4x ? 4
                       : p.width_active == kWidth2x ? 2
                                                    : 1;
      uint32_t q = p.speed_active == kSpeedQdr ? 40 : p.speed_active == kSpeedDdr ? 20 : 10;
      return lanes * q;
    };
    while (!(n == d->node && (nodes_[n].is_switch() || out == d->port))) {
      const FabricNode& nd = nodes_[n];
      if (nd.is_switch() && (out == 0 || hops > 0))
        out = dlid < nd.lft.size() ? nd.lft[dlid] : 0xff;
      if (out == 0 || out > nd.num_ports() || nd.ports[out].peer_node < 0 || ++hops > 64) {
        ok = false;
        break;
      }
      rate = std::min(rate, gbps(nd.ports[out]));
      int next = nd.ports[out].peer_node;
      out = nd.ports[out].peer_port;
      n = next;
      if (!nodes_[n].is_switch() && n != d->node) {
        ok = false;
        break;
      }
    }
    if (ok) {
      if (rate == ~0u) rate = 40;
      // IBA 15.2.5.16 Rate codes by Gb/s x 4.
      static const std::pair<uint32_t, uint8_t> kRates[] = {
          {10, 2}, {40, 3}, {120, 4}, {20, 5}, {80, 6}, {160, 7}, {240, 8}, {320, 9}, {480, 10}};
      uint8_t code = 3;
      for (auto [g, c] : kRates)
        if (g == rate) code = c;
      Mad t;
      t.bytes[1] = mad::kClassSa;
      auto set = [&](const char* f, uint64_t v) { t.set_attr(kPathRecord, f, v); };
      auto td = t.data();
      mad::set_bits(td, 64, 64, 0xfe80000000000000ull);
      mad::set_bits(td, 128, 64, nodes_[d->node].ports[d->port].guid);
      mad::set_bits(td, 192, 64, 0xfe80000000000000ull);
      mad::set_bits(td, 256, 64, nodes_[s->node].ports[s->port].guid);
      set("DLID", dlid);
      set("SLID", slid);
      set("Reversible", 1);
      set("P_Key", 0xffff);
      set("MTUSelector", 2);
      set("MTU", 4);
      set("RateSelector", 2);
      set("Rate", code);
      set("PacketLifeTimeSelector", 2);
      // opensm's: its default subnet timeout (0x12: 4.096 us x 2^18),
      // whatever the hops; 0 for a path from a port to itself (IBA
      // Table 205). saquery -p on ibsim: pkt_life 0x92, 0x80 to itself.
      set("PacketLifeTime", s->node == d->node && s->port == d->port ? 0 : 0x12);
      found.emplace_back(td.begin(), td.begin() + kPathRecord.bytes);
    }
  }
  return sa_reply(m, r, kPathRecord, found);
}

// Alias GUIDs as opensm sets and deletes them (osm_sa_guidinfo_record.c):
// LID and BlockNum required, entry 0 (the port GUID) read-only, the GUIDs
// the mask selects stored in the port's table (which its SMA's GUIDInfo
// then reports, as after the SM pushed them); the answer is the block.
std::vector<Mad> FakeFabric::answer_sa_guid(const Mad& m) {
  Mad r = m;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod, m.get(hdr::kMethod) == mad::kSet ? uint8_t{mad::kGet} : mad::kSaDelete);
  r.set(hdr::kStatus, 0);
  auto fail = [&](uint16_t s) {
    r.set(hdr::kStatus, s);
    return std::vector<Mad>{r};
  };
  const mad::AttrDef& def = mad::kGuidInfoRecord;
  uint64_t mask = m.get(hdr::kCompMask);
  if ((mask & 3) != 3) return fail(mad::kSaStatusInsufficientComponents);
  auto d = m.data();
  uint16_t l = static_cast<uint16_t>(mad::get_field(def, d, "LID"));
  unsigned block = static_cast<unsigned>(mad::get_field(def, d, "BlockNum"));
  if (l == 0 || l >= lids_.size() || lids_[l].node < 0) return fail(mad::kSaStatusNoRecords);
  FabricNode& n = nodes_[lids_[l].node];
  FabricPort& fp = n.ports[n.is_switch() ? 0 : lids_[l].port];
  if (block * 8 >= fp.guid_cap) return fail(mad::kSaStatusNoRecords);
  if (block == 0 && (mask & (1u << 4))) return fail(mad::kSaStatusReqInvalid);
  for (unsigned i = 0; i < 8; ++i) {
    unsigned e = block * 8 + i;
    if (!(mask & (1u << (4 + i))) || e >= fp.guid_cap) continue;
    if (fp.alias_guids.size() < e) fp.alias_guids.resize(e);
    uint64_t g = mad::get_bits(d, mad::kTableRecordBlock * 8 + i * 64, 64);
    if (m.get(hdr::kMethod) == mad::kSaDelete)
      fp.alias_guids[e - 1] = 0;
    else if (g)
      fp.alias_guids[e - 1] = g;
  }
  auto out = r.data();
  std::fill(out.begin(), out.end(), 0);
  std::copy_n(d.begin(), mad::kTableRecordBlock, out.begin());
  std::array<uint8_t, 64> guids{};
  sma_get(lids_[l].node, n.is_switch() ? 0 : lids_[l].port, mad::kGuidInfo.id, block, guids);
  std::copy(guids.begin(), guids.end(), out.begin() + mad::kTableRecordBlock);
  return {r};
}

std::vector<Mad> FakeFabric::sa_reply(const Mad& m, Mad& r, const mad::AttrDef& def,
                                      std::vector<std::vector<uint8_t>>& found) {
  // AttributeOffset counts 8-byte words: a record is padded to them
  // (MCMemberRecord's 52 bytes take 56).
  size_t stride = (def.bytes + 7u) / 8 * 8;
  for (Record& x : found) x.resize(stride);
  r.set(hdr::kAttrOffset, stride / 8);
  r.set(hdr::kCompMask, m.get(hdr::kCompMask));
  if (m.get(hdr::kMethod) == mad::kGet) {
    if (found.empty())
      r.set(hdr::kStatus, mad::kSaStatusNoRecords);
    else if (found.size() > 1)
      r.set(hdr::kStatus, mad::kSaStatusTooManyRecords);
    else
      std::copy(found[0].begin(), found[0].end(), r.data().begin());
    return {r};
  }
  std::vector<uint8_t> payload;
  payload.reserve(found.size() * stride);
  for (const Record& x : found) payload.insert(payload.end(), x.begin(), x.end());
  size_t segments = std::max<size_t>(1, (payload.size() + kSaData - 1) / kSaData);
  if (opt_.rmpp == RmppMode::FirstOnly || opt_.rmpp == RmppMode::Reassembled ||
      opt_.rmpp == RmppMode::Umad2sim)
    segments = 1;
  std::vector<Mad> out;
  for (size_t i = 0; i < segments; ++i) {
    Mad s = r;
    bool first = i == 0,
         last = i + 1 == (payload.size() + kSaData - 1) / kSaData || payload.empty();
    s.set(hdr::kRmppVersion, 1);
    s.set(hdr::kRmppType, mad::kRmppData);
    s.set(hdr::kRmppFlags,
          mad::kRmppActive | (first ? mad::kRmppFirst : 0) | (last ? mad::kRmppLast : 0));
    s.set(mad::hdr::kRmppSegment, i + 1);
    size_t from = i * kSaData,
           len = std::min(kSaData, payload.size() - std::min(from, payload.size()));
    // PayloadLength: the whole transfer in the first segment, what the last
    // holds in the last (SA header counted once), 0 between (13.6.2.3).
    s.set(mad::hdr::kRmppPayload, first ? kSaHeader + payload.size() : last ? kSaHeader + len : 0);
    std::copy_n(payload.begin() + from, len, s.data().begin());
    out.push_back(s);
  }
  if (opt_.rmpp == RmppMode::Acked && out.size() > 1) {
    transfers_[m.get(hdr::kTid)] = out;
    out.resize(1);  // the initial window is one segment
  }
  if (opt_.rmpp == RmppMode::Reassembled) {
    out[0].set(hdr::kRmppFlags, mad::kRmppActive | mad::kRmppFirst | mad::kRmppLast);
    reassembled_.assign(out[0].bytes.begin(), out[0].bytes.begin() + 56);
    reassembled_.insert(reassembled_.end(), payload.begin(), payload.end());
  }
  if (opt_.rmpp == RmppMode::Umad2sim) {
    mad::Mad& s = out[0];
    s.set(hdr::kRmppVersion, 0);
    s.set(hdr::kRmppType, 0);
    s.set(hdr::kRmppFlags, mad::kRmppActive);
    s.set(mad::hdr::kRmppSegment, 0);
    s.set(mad::hdr::kRmppPayload, 0);
    reassembled_.assign(s.bytes.begin(),
                        s.bytes.begin() + std::min(s.bytes.size(), 56 + payload.size()));
  }
  return out;
}

// An RMPP ACK from the receiver: the segments after SegmentNumber up to
// NewWindowLast; the ACK of the last one ends the transfer, as STOP and
// ABORT do. Anything else that is a response is not the SA's to answer.
std::vector<Mad> FakeFabric::rmpp_ack(const Mad& m) {
  auto t = transfers_.find(m.get(hdr::kTid));
  if (t == transfers_.end() || m.get(hdr::kRmppVersion) != 1) return {};
  uint64_t type = m.get(hdr::kRmppType);
  std::vector<Mad>& segs = t->second;
  if (type != mad::kRmppAck) {
    transfers_.erase(t);
    return {};
  }
  uint64_t acked = m.get(mad::hdr::kRmppSegment),
           last = std::min<uint64_t>(m.get(mad::hdr::kRmppPayload), segs.size());
  std::vector<Mad> out;
  for (uint64_t i = acked; i < last; ++i) out.push_back(segs[i]);
  if (acked >= segs.size()) transfers_.erase(t);
  return out;
}

}  // namespace rdma::ibtest
