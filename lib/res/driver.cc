#include "lib/res/driver.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"

namespace rdma::res {

namespace {

constexpr size_t kWrapAfter = 80;  // iproute2's MAX_LINE_LENGTH
constexpr const char* kIndent = "\n    ";

[[noreturn]] void bad(const nlattr* a) {
  throw Error(std::string("malformed kernel reply: driver attribute ") +
              nl::attr_name(mnl_attr_get_type(a)) + " has " +
              std::to_string(mnl_attr_get_payload_len(a)) + " bytes");
}

uint32_t get32(const nlattr* a) {
  if (mnl_attr_get_payload_len(a) != 4) bad(a);
  return mnl_attr_get_u32(a);
}

uint64_t get64(const nlattr* a) {
  if (mnl_attr_get_payload_len(a) != 8) bad(a);
  uint64_t v;
  std::memcpy(&v, mnl_attr_get_payload(a), 8);
  return v;
}

std::string str(const nlattr* a) {
  auto* p = static_cast<const char*>(mnl_attr_get_payload(a));
  return std::string(p, strnlen(p, mnl_attr_get_payload_len(a)));
}

std::string fmt(const char* f, auto v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

void append_driver(const nlattr* table, bool pretty_text, view::Record& r) {
  std::string name;  // key of the tuple being read; empty: expecting one
  bool hex = false;
  size_t line = 0;  // characters since the last indent (pretty text)
  bool first = true;
  nl::for_each_nested(table, [&](const nlattr* a) {
    int type = mnl_attr_get_type(a);
    if (name.empty()) {
      if (type != RDMA_NLDEV_ATTR_DRIVER_STRING) return;  // not a key: skip
      name = "drv_" + str(a);
      return;
    }
    if (type == RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE) {
      if (mnl_attr_get_payload_len(a) != 1) bad(a);
      hex = mnl_attr_get_u8(a) == RDMA_NLDEV_PRINT_TYPE_HEX;
      return;
    }
    std::string text;
    view::Json json;
    switch (type) {
      case RDMA_NLDEV_ATTR_DRIVER_STRING:
        text = str(a);
        json = text;
        break;
      case RDMA_NLDEV_ATTR_DRIVER_S32: {
        auto v = static_cast<int32_t>(get32(a));
        text = hex ? fmt("0x%x", static_cast<uint32_t>(v)) : std::to_string(v);
        json = v;
        break;
      }
      case RDMA_NLDEV_ATTR_DRIVER_U32: {
        uint32_t v = get32(a);
        text = hex ? fmt("0x%x", v) : std::to_string(v);
        json = v;
        break;
      }
      case RDMA_NLDEV_ATTR_DRIVER_S64: {
        auto v = static_cast<int64_t>(get64(a));
        text = hex ? fmt("0x%" PRIx64, static_cast<uint64_t>(v)) : std::to_string(v);
        json = v;
        break;
      }
      case RDMA_NLDEV_ATTR_DRIVER_U64: {
        uint64_t v = get64(a);
        text = hex ? fmt("0x%" PRIx64, v) : std::to_string(v);
        json = v;
        break;
      }
      default:  // a value type newer than the tool: drop the tuple
        name.clear();
        hex = false;
        return;
    }
    text = name + " " + text + " ";
    if (pretty_text && (first || line > kWrapAfter)) {
      text = kIndent + text;
      line = 0;
    }
    line += text.size();
    first = false;
    r.add(name, std::move(text), std::move(json));
    name.clear();
    hex = false;
  });
  // iproute2 indents for the table even when it is empty.
  if (pretty_text && first) r.add("", kIndent, nullptr);
}

}  // namespace rdma::res
