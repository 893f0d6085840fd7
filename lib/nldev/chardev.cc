#include "lib/nldev/chardev.h"

#include <libmnl/libmnl.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nl/request.h"

namespace rdma::nldev {

namespace {

// The reply read in place: uverbs adds UVERBS_DRIVER_ID, a u32 in the
// kernel (nla_put_u32 in ib_uverbs_get_nl_info) that lib/nl's policy table
// has as u64, so nl::Attrs would refuse every uverbs reply. Only the three
// attributes used here are checked; the rest are skipped.
Chardev parse_reply(const nlmsghdr* nlh, const char* type, uint32_t port) {
  const nlattr* tb[RDMA_NLDEV_ATTR_CHARDEV + 1] = {};
  int ret = mnl_attr_parse(
      nlh, 0,
      [](const nlattr* a, void* data) {
        auto** t = static_cast<const nlattr**>(data);
        int id = mnl_attr_get_type(a);
        if (id == RDMA_NLDEV_ATTR_CHARDEV_NAME || id == RDMA_NLDEV_ATTR_CHARDEV_ABI ||
            id == RDMA_NLDEV_ATTR_CHARDEV)
          t[id] = a;
        return MNL_CB_OK;
      },
      tb);
  if (ret < 0) throw Error("malformed kernel reply: a truncated character device attribute");
  const nlattr* num = tb[RDMA_NLDEV_ATTR_CHARDEV];
  const nlattr* abi = tb[RDMA_NLDEV_ATTR_CHARDEV_ABI];
  const nlattr* name = tb[RDMA_NLDEV_ATTR_CHARDEV_NAME];
  nl::need({num, name}, "character device without number or name");
  if (mnl_attr_get_payload_len(num) != 8 || (abi && mnl_attr_get_payload_len(abi) != 8))
    throw Error("malformed kernel reply: character device number or ABI not 8 bytes");
  // huge_encode_dev(): minor's low byte, major, then minor's high bits.
  uint64_t dev = nl::Attrs::load<uint64_t>(num);
  Chardev c;
  c.type = type;
  c.port = port;
  auto* p = static_cast<const char*>(mnl_attr_get_payload(name));
  c.name.assign(p, strnlen(p, mnl_attr_get_payload_len(name)));
  c.major = static_cast<uint32_t>((dev & 0xfff00) >> 8);
  c.minor = static_cast<uint32_t>((dev & 0xff) | ((dev >> 12) & 0xfff00));
  c.abi = abi ? nl::Attrs::load<uint64_t>(abi) : 0;
  return c;
}

}  // namespace

std::optional<Chardev> get_chardev(nl::Session& s, uint32_t index, uint32_t port,
                                   const char* type) {
  nl::Request req(RDMA_NLDEV_CMD_GET_CHARDEV, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, index);
  if (port) req.u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  req.str(RDMA_NLDEV_ATTR_CHARDEV_TYPE, type);
  std::optional<Chardev> out;
  try {
    s.run(req, [&](const nlmsghdr* nlh) { out = parse_reply(nlh, type, port); });
  } catch (const KernelError& e) {
    if (e.code == EOPNOTSUPP || e.code == EINVAL) return std::nullopt;
    throw;
  }
  return out;
}

void chardev_record(const std::string& dev, const Chardev& c, view::Record& r) {
  r.clear();
  if (c.port) {
    r.add("ifname", "link " + dev + "/", dev);
    r.add("port", std::to_string(c.port) + " ", c.port);
  } else {
    r.add("ifname", "dev " + dev + " ", dev);
  }
  r.pair("type", c.type);
  r.pair("name", c.name);
  r.add("chardev", "chardev " + std::to_string(c.major) + ":" + std::to_string(c.minor) + " ",
        std::to_string(c.major) + ":" + std::to_string(c.minor));
  r.pair("abi", c.abi);
}

}  // namespace rdma::nldev
