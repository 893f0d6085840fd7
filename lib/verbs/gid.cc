#include "lib/verbs/gid.h"

#include <arpa/inet.h>

#include <cstdio>

#include "lib/error.h"

namespace rdma::verbs {

bool GidFilter::matches(const Gid& g) const {
  return (!port || g.port == port) && (!type || g.type == *type) &&
         (netdev.empty() || g.netdev == netdev);
}

const char* gid_type_name(uint32_t t) {
  switch (t) {
    case IBV_GID_TYPE_IB:
      return "ib";
    case IBV_GID_TYPE_ROCE_V1:
      return "roce-v1";
    case IBV_GID_TYPE_ROCE_V2:
      return "roce-v2";
    default:
      return "unknown";
  }
}

uint32_t parse_gid_type(const std::string& word) {
  for (uint32_t t : {IBV_GID_TYPE_IB, IBV_GID_TYPE_ROCE_V1, IBV_GID_TYPE_ROCE_V2})
    if (word == gid_type_name(t)) return t;
  throw UsageError("unknown GID type \"" + word + "\" (ib, roce-v1 or roce-v2)");
}

std::string gid_text(const uint8_t (&raw)[16]) {
  char buf[40];
  char* p = buf;
  for (int i = 0; i < 16; i += 2)
    p += std::snprintf(p, buf + sizeof buf - p, "%s%02x%02x", i ? ":" : "", raw[i], raw[i + 1]);
  return buf;
}

std::string gid_ipv4(const uint8_t (&raw)[16]) {
  for (int i = 0; i < 10; ++i)
    if (raw[i]) return "";
  if (raw[10] != 0xff || raw[11] != 0xff) return "";
  char buf[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, raw + 12, buf, sizeof buf);
  return buf;
}

void gid_record(const std::string& dev, const Gid& g, view::Record& r) {
  r.clear();
  r.add("dev", "dev " + dev, dev);
  r.add("port", " port " + std::to_string(g.port), g.port);
  r.add("index", " index " + std::to_string(g.index), g.index);
  std::string gid = gid_text(g.raw);
  r.add("gid", " gid " + gid, gid);
  if (std::string v4 = gid_ipv4(g.raw); !v4.empty()) r.add("ipv4", " ipv4 " + v4, v4);
  r.add("type", std::string(" type ") + gid_type_name(g.type), gid_type_name(g.type));
  if (!g.netdev.empty()) r.add("netdev", " netdev " + g.netdev, g.netdev);
}

}  // namespace rdma::verbs
