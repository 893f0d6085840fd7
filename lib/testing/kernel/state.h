// The RDMA state a test kernel answers from: plain structs that tests fill
// directly. Field names follow the nldev attributes they become; comments say
// when the kernel leaves an attribute out.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rdma::testkernel {

// Which kernel's nldev.c to emulate (Debian 12: 6.1.192 and 6.12.117; 7.0
// is 6.12 plus what iproute2 7.x reads: STAT_OPCOUNTER_ENABLED in the policy
// and the FRMR pool commands). Later versions have everything earlier ones
// have: compare with >=.
// kNext: 7.0 plus rdma for-next of July 2026 (5911f6d6e7cc), whose
// RES_SUMMARY entries carry RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_MAX; which
// release first carries it was not checked.
enum class KernelVersion { k6_1, k6_12, k7_0, kNext };

// enum ib_port_state / ib_port_phys_state values used by the fixtures.
inline constexpr uint8_t kPortDown = 1;
inline constexpr uint8_t kPortActive = 4;
inline constexpr uint8_t kPhysDisabled = 3;
inline constexpr uint8_t kPhysPolling = 2;
inline constexpr uint8_t kPhysLinkUp = 5;

// enum rdma_node_type
inline constexpr uint8_t kNodeCa = 1;
inline constexpr uint8_t kNodeRnic = 4;

// enum ib_qp_type
inline constexpr uint8_t kQpSmi = 0;
inline constexpr uint8_t kQpGsi = 1;
inline constexpr uint8_t kQpRc = 2;
inline constexpr uint8_t kQpUc = 3;
inline constexpr uint8_t kQpUd = 4;
inline constexpr uint8_t kQpRawPacket = 8;
inline constexpr uint8_t kQpXrcIni = 9;
inline constexpr uint8_t kQpXrcTgt = 10;

// Link layer of a device's first port; decides DEV_PROTOCOL and whether the
// IB-only port attributes (CAP_FLAGS, SUBNET_PREFIX, LID, SM_LID, LMC) appear.
enum class Protocol { kIb, kRoce, kIwarp, kOpa, kUsnic };

struct Netdev {
  uint32_t ifindex = 0;
  std::string name;
  std::array<uint8_t, 6> mac{};  // rxe and siw derive their GUIDs from it
};

// One entry of a driver-specific RDMA_NLDEV_ATTR_DRIVER nest.
struct DriverAttr {
  enum class Kind { kString, kU32, kU64, kS32, kS64 };
  std::string name;
  Kind kind = Kind::kU32;
  bool hex = false;  // RDMA_NLDEV_PRINT_TYPE_HEX
  std::string str;   // kString
  uint64_t u = 0;    // kU32, kU64
  int64_t s = 0;     // kS32, kS64
};
using DriverAttrs = std::optional<std::vector<DriverAttr>>;  // nullopt: no nest

// A hardware counter of a port (struct rdma_stat_desc + its value).
struct HwCounter {
  std::string name;
  uint64_t value = 0;
  bool optional = false;  // IB_STAT_FLAG_OPTIONAL
  bool enabled = true;    // optional counters can be disabled
};

struct Port {
  uint8_t state = kPortActive;
  uint8_t phys_state = kPhysLinkUp;
  std::optional<Netdev> netdev;  // nullopt: no NDEV_* attributes
  // IB link layer only.
  uint32_t port_cap_flags = 0;
  uint32_t port_cap_flags2 = 0;
  uint64_t subnet_prefix = 0;
  uint32_t lid = 0;
  uint32_t sm_lid = 0;
  uint8_t lmc = 0;
  // nullopt: the driver has no port stats (STAT_GET fails with EINVAL).
  std::optional<std::vector<HwCounter>> hw_counters;
  // QP counter mode of this port (RDMA_NLDEV_ATTR_STAT_MODE / AUTO_MODE_MASK).
  uint32_t counter_mode = 0;
  uint32_t counter_mask = 0;
};

// Who owns a resource: a user process (pid, 0 once it is a zombie) or a
// kernel module (kern_name set).
struct Owner {
  uint32_t pid = 0;
  std::string kern_name;
  bool kernel() const { return !kern_name.empty(); }
};

// Fields common to every tracked resource.
struct ResBase {
  uint32_t id = 0;  // restrack id: LQPN for QPs, otherwise the object number
  Owner owner;
  bool driver_detail = false;  // RESTRACK_DD: shown only with DRIVER_DETAILS
  DriverAttrs driver;          // dev->ops.fill_res_*_entry output
  std::vector<uint8_t> raw;    // dev->ops.fill_res_*_entry_raw output
};

// QPs are tracked under their number, except SMI/GSI QPs (QP0/QP1 exist per
// port): their id is qp_num | port << 24, which also sorts them last.
inline uint32_t qp_restrack_id(uint32_t qp_num, uint8_t type, uint32_t port) {
  return type == kQpSmi || type == kQpGsi ? qp_num | port << 24 : qp_num;
}

struct Qp : ResBase {
  uint32_t qp_num = 0;  // LQPN; `id` is qp_restrack_id()
  uint32_t port = 0;    // 0: not yet bound to a port
  uint32_t pdn = 0;
  uint8_t type = kQpRc;
  uint8_t state = 0;  // enum ib_qp_state
  uint32_t rqpn = 0;
  uint32_t rq_psn = 0;
  uint32_t sq_psn = 0;
  uint8_t path_mig_state = 0;
  std::optional<uint32_t> srqn;        // attached SRQ
  std::optional<uint32_t> counter_id;  // bound statistic counter
};

struct CmId : ResBase {
  uint32_t port = 0;
  uint32_t lqpn = 0;  // 0: no QP, no RES_TYPE
  uint8_t qp_type = 0;
  uint32_t ps = 0;  // enum rdma_ucm_port_space
  uint8_t state = 0;
  std::vector<uint8_t> src_addr;  // sockaddr_storage (128 bytes) or empty
  std::vector<uint8_t> dst_addr;
};

struct Cq : ResBase {
  uint32_t cqe = 0;
  uint64_t usecnt = 0;
  uint8_t poll_ctx = 0;  // kernel CQs only
  bool dim = false;
  uint32_t ctxn = 0;  // user CQs only
};

struct Mr : ResBase {
  uint32_t rkey = 0;
  uint32_t lkey = 0;
  uint64_t length = 0;
  uint32_t pdn = 0;  // user MRs only
  // dev->ops.fill_stat_mr_entry output: mlx5 sends its ODP counters
  // (page_faults, ...) as a STAT_HWCOUNTERS nest, for ODP MRs only.
  std::vector<HwCounter> stat_counters;
};

struct Pd : ResBase {
  uint32_t local_dma_lkey = 0;
  std::optional<uint32_t> unsafe_global_rkey;
  uint64_t usecnt = 0;
  uint32_t ctxn = 0;  // user PDs only
};

struct Ctx : ResBase {};

struct Srq : ResBase {
  uint8_t type = 0;  // enum ib_srq_type: 0 basic, 1 XRC, 2 TM
  uint32_t pdn = 0;
  uint32_t cqn = 0;  // XRC and TM only
};

// A QP statistic counter (struct rdma_counter).
struct StatCounter : ResBase {
  uint32_t port = 1;
  uint32_t mode = 0;  // RDMA_COUNTER_MODE_AUTO or _MANUAL
  uint32_t mask = 0;  // auto mode criteria
  uint8_t qp_type = 0;
  std::vector<HwCounter> counters;
};

// A table of tracked resources in id order. `items` are stored explicitly;
// `generate` adds `generated` more, with ids after the stored ones, built on
// demand so that a test can have a million QPs without a million structs.
template <typename T>
struct ResTable {
  std::vector<T> items;
  uint32_t generated = 0;
  std::function<T(uint32_t pos)> generate;  // pos counts from 0

  size_t size() const { return items.size() + generated; }
  T at(size_t pos) const {
    return pos < items.size() ? items[pos] : generate(static_cast<uint32_t>(pos - items.size()));
  }
  std::optional<T> find(uint32_t id) const;
  // Stored items with `id`, or nullptr (generated ones are not writable).
  T* find_stored(uint32_t id);
};

template <typename T>
std::optional<T> ResTable<T>::find(uint32_t id) const {
  for (const T& t : items)
    if (t.id == id) return t;
  if (generated == 0) return std::nullopt;
  // Generated ids ascend with pos: binary search.
  size_t lo = 0, hi = generated;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    T t = generate(static_cast<uint32_t>(mid));
    if (t.id == id) return t;
    if (t.id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return std::nullopt;
}

template <typename T>
T* ResTable<T>::find_stored(uint32_t id) {
  for (T& t : items)
    if (t.id == id) return &t;
  return nullptr;
}

// One FRMR pool (7.0, drivers/infiniband/core/frmr_pools.c): its key and
// usage counters as fill_frmr_pool_entry() sends them.
struct FrmrPool {
  uint8_t ats = 0;
  uint32_t access_flags = 0;
  uint64_t vendor_key = 0;
  uint64_t num_dma_blocks = 0;
  uint64_t kernel_vendor_key = 0;  // sent only when non-zero
  uint32_t queue_handles = 0;      // queue.ci + inactive_queue.ci
  uint64_t max_in_use = 0;
  uint64_t in_use = 0;
  uint32_t pinned_handles = 0;
};

// device->frmr_pools: present for drivers that use FRMR pools.
struct FrmrPools {
  std::vector<FrmrPool> pools;  // in the rb-tree's order
  uint32_t aging_period_sec = 60;
};

struct Device {
  uint32_t index = 0;
  std::string name;
  Protocol protocol = Protocol::kRoce;
  uint8_t node_type = kNodeCa;
  uint64_t cap_flags = 0;  // device_cap_flags
  std::string fw;          // empty: no FW_VERSION attribute
  uint64_t node_guid = 0;  // host order, as nldev puts it
  uint64_t sys_image_guid = 0;
  bool use_cq_dim = false;
  uint8_t dev_type = 0;          // 6.12: RDMA_NLDEV_ATTR_DEV_TYPE when non-zero
  std::string parent;            // 6.12: parent device name of a sub device
  uint8_t name_assign_type = 0;  // 6.12
  std::string driver;            // "rxe", "siw", ... (for NEWLINK's EEXIST check)
  std::vector<Port> ports;       // ports[0] is port 1

  // Driver capabilities (which ops the driver implements).
  bool allow_user_unreg = true;        // IBK_ALLOW_USER_UNREG: DELLINK allowed
  bool disassociate_ucontext = false;  // needed to move to another netns
  bool counter_bind = false;           // counter_alloc_stats/bind_qp ops
  bool modify_hw_stat = false;         // optional counters can be toggled
  bool sub_devices = false;            // add_sub_dev/del_sub_dev ops (6.12)
  bool raw_qp = false, raw_cq = false, raw_mr = false, raw_srq = false;

  ResTable<Pd> pds;
  ResTable<Cq> cqs;
  ResTable<Qp> qps;
  ResTable<CmId> cm_ids;
  ResTable<Mr> mrs;
  ResTable<Ctx> ctxs;
  ResTable<StatCounter> counters;
  ResTable<Srq> srqs;
  uint32_t next_counter_id = 0;
  std::optional<FrmrPools> frmr;  // 7.0: nullopt when the driver has none
  // Character devices of the kernel clients (ib_uverbs, ib_umad) bound to
  // this device, for GET_CHARDEV; none by default (the modules not loaded).
  struct Chardev {
    std::string type;   // "uverbs", "umad", "issm"
    uint32_t port = 0;  // 0: the device's own (uverbs)
    std::string name;   // uverbs0, umad0, issm0
    uint32_t major = 231, minor = 0;
    uint64_t abi = 0;
    uint32_t driver_id = 0;  // uverbs: enum rdma_driver_id, put as a u32
  };
  std::vector<Chardev> chardevs;
  // device->attrs.max_*, sent as RES_SUMMARY_ENTRY_MAX by kNext when
  // non-zero (the kernel omits a zero limit).
  struct Limits {
    uint64_t qp = 0, cq = 0, mr = 0, pd = 0, srq = 0;
  } limits;
};

// Per network namespace settings (RDMA_NLDEV_CMD_SYS_*).
struct System {
  uint8_t netns_shared = 1;  // ib_devices_shared_netns
  uint8_t privileged_qkey = 0;
  // Namespaces other than init_net exist: netns mode cannot change (EBUSY).
  bool other_netns = false;
  // File descriptors that name a network namespace (RDMA_NLDEV_NET_NS_FD).
  std::vector<uint32_t> netns_fds;
};

struct State {
  std::vector<Device> devices;  // in index order, like the devices xarray
  std::vector<Netdev> netdevs;  // network devices NEWLINK can attach to
  System sys;
  uint32_t next_index = 0;  // index of the next registered device
  // Link types NEWLINK knows (rdma_link_ops registered or loadable).
  std::vector<std::string> link_types = {"rxe", "siw"};
};

}  // namespace rdma::testkernel
