#include "lib/res/entry.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>

#include "lib/error.h"
#include "lib/nl/attr_policy.h"
#include "lib/nl/nldev.h"
#include "lib/res/addr.h"
#include "lib/res/driver.h"
#include "lib/res/qplist.h"
#include "lib/res/raw.h"
#include "lib/view/json_writer.h"

namespace rdma::res {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%" PRIx64, v);
  return buf;
}

}  // namespace

uint64_t number(const nl::Attrs& a, int attr) {
  switch (nl::attr_type(attr)) {
    case nl::AttrType::U8:
      return a.u8(attr);
    case nl::AttrType::U64:
      return a.u64(attr);
    default:
      return a.u32(attr);
  }
}

void EntryView::put_num(view::Record& r, const char* key, uint64_t v) const {
  view::Field& f = r.next();
  f.key = key;
  char num[24];
  std::string_view digits(num, std::to_chars(num, num + sizeof num, v).ptr - num);
  if (opts_.json)
    f.json = digits;
  else
    f.text.append(key).append(1, ' ').append(digits).append(1, ' ');
}

void EntryView::put_str(view::Record& r, const char* key, std::string_view text) const {
  view::Field& f = r.next();
  f.key = key;
  if (opts_.json)
    view::JsonWriter::quote(text, f.json);
  else
    f.text.append(key).append(1, ' ').append(text).append(1, ' ');
}

void EntryView::put(view::Record& r, const char* key, std::string_view text,
                    view::Json json) const {
  view::Field& f = r.next();
  f.key = key;
  if (opts_.json)
    f.value = std::move(json);
  else
    f.text.append(key).append(1, ' ').append(text).append(1, ' ');
}

bool EntryView::passes(const nl::Attrs& e, const DevRef& d) const {
  if (opts_.portless_only && e.has(RDMA_NLDEV_ATTR_PORT_INDEX)) return false;
  for (const Filter& f : filters_.all()) {
    const FilterKey& k = *f.key;
    // Raw entries carry the driver's blob, not the attributes filters read.
    if (opts_.raw && k.attr && !e.has(k.attr)) continue;
    // A key given for a value the entry lacks hides the entry, as in
    // iproute2 (e.g. "pid" hides kernel objects).
    switch (k.src) {
      case Src::kScope:
      case Src::kQpList:  // applied while rendering the list
        break;
      case Src::kNum:
        if (!e.has(k.attr) || !f.match(number(e, k.attr))) return false;
        break;
      case Src::kName:
        if (!e.has(k.attr) || !f.match(k.names->name(number(e, k.attr)))) return false;
        break;
      case Src::kPortSpace:
        if (!e.has(k.attr) || !f.match(port_space_name(e.u32(k.attr)))) return false;
        break;
      case Src::kAddr:
      case Src::kAddrPort: {
        if (!e.has(k.attr)) return false;
        std::optional<SockAddr> a = decode_sockaddr(e.bin(k.attr));
        if (!a) return false;
        if (k.src == Src::kAddr ? !f.match(a->addr) : !f.match(a->port)) return false;
        break;
      }
      case Src::kDevType:
        if (!f.match(d.dev_type)) return false;
        break;
      case Src::kTransportType:
        if (!f.match(d.transport)) return false;
        break;
    }
  }
  return true;
}

void EntryView::column(const Column& c, const nl::Attrs& e, const DevRef& d, view::Record& r) {
  switch (c.col) {
    case Col::kLink:
    case Col::kDev: {
      bool port = c.col == Col::kLink && e.has(RDMA_NLDEV_ATTR_PORT_INDEX);
      if (opts_.json) {
        put_num(r, "ifindex", d.index);
        put_str(r, "ifname", d.name);
        if (port) put_num(r, "port", e.u32(RDMA_NLDEV_ATTR_PORT_INDEX));
        return;
      }
      std::string& t = r.next().text;
      t.append(c.col == Col::kLink ? "link " : "dev ").append(d.name);
      if (c.col == Col::kDev) {
        t += ' ';
      } else if (port) {
        char num[12];
        uint32_t p = e.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
        t.append(1, '/').append(num, std::to_chars(num, num + sizeof num, p).ptr).append(1, ' ');
      } else {
        t += "/- ";
      }
      return;
    }
    case Col::kComm:
      if (e.has(RDMA_NLDEV_ATTR_RES_PID)) {
        const std::optional<std::string>& comm = comm_.get(e.u32(RDMA_NLDEV_ATTR_RES_PID));
        if (comm) put_str(r, c.key, *comm);
      } else if (e.has(RDMA_NLDEV_ATTR_RES_KERN_NAME)) {
        std::string_view kern = e.str(RDMA_NLDEV_ATTR_RES_KERN_NAME);
        if (opts_.json)
          put_str(r, c.key, kern);
        else
          put_str(r, c.key, "[" + std::string(kern) + "]");
      }
      return;
    case Col::kDriver:
      if (opts_.details >= 2 && e.has(c.attr)) append_driver(e.get(c.attr), opts_.pretty_text, r);
      return;
    case Col::kQpList: {
      if (!e.has(c.attr)) return;
      QpList l = srq_qps(e.get(c.attr), filters_.get("lqpn"));
      if (!l.text.empty()) put(r, c.key, l.text, std::move(l.json));
      return;
    }
    default:
      break;
  }
  if (!e.has(c.attr)) return;
  switch (c.col) {
    case Col::kNum:
      put_num(r, c.key, number(e, c.attr));
      return;
    case Col::kKey: {
      // iproute2 prints keys through an unsigned int, so a 64-bit iova lost
      // its high half; all 64 bits here.
      std::string h = hex(number(e, c.attr));
      put(r, c.key, "0x" + h, h);
      return;
    }
    case Col::kName:
      put_str(r, c.key, c.names->name(number(e, c.attr)));
      return;
    case Col::kPortSpace:
      put_str(r, c.key, port_space_name(e.u32(c.attr)));
      return;
    case Col::kOnOff: {
      uint8_t v = e.u8(c.attr);
      if (v > 1) return;  // the kernel's "not supported"
      put(r, c.key, v ? "on" : "off", bool(v));
      return;
    }
    case Col::kAddr: {
      std::optional<SockAddr> a = decode_sockaddr(e.bin(c.attr));
      if (a) put_str(r, c.key, a->text());
      return;
    }
    default:
      return;
  }
}

bool EntryView::render(const nl::Attrs& e, const DevRef& d, view::Record& r) {
  if (!passes(e, d)) return false;
  r.clear();
  if (opts_.raw) {
    // A raw entry is the driver's blob (plus whatever ids the kernel adds).
    if (!e.has(RDMA_NLDEV_ATTR_RES_RAW))
      throw Error(std::string("malformed kernel reply: raw ") + type_.name + " entry without data");
    column({"dev", Col::kDev}, e, d, r);
    for (const Column& c : type_.columns)
      if (c.attr == type_.id_attr) column(c, e, d, r);
    append_raw(e.bin(RDMA_NLDEV_ATTR_RES_RAW), r);
    return true;
  }
  for (const Column& c : type_.columns) column(c, e, d, r);
  // An SRQ whose QPs the lqpn filter removed all of does not show.
  if (type_.id_attr == RDMA_NLDEV_ATTR_RES_SRQN && filters_.get("lqpn")) {
    for (const view::Field& f : r)
      if (f.key == "lqpn") return true;
    r.clear();
    return false;
  }
  return true;
}

void for_each_entry(const TypeSpec& type, const nlmsghdr* nlh, bool doit, const EntryFn& fn) {
  nl::Attrs a = nl::Attrs::of_message(nlh);
  if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME))
    throw Error(std::string("malformed kernel reply: ") + type.name +
                " reply without device index or name");
  uint32_t index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
  std::string_view name = a.str(RDMA_NLDEV_ATTR_DEV_NAME);
  if (doit) return fn(a, index, name);
  if (!a.has(type.table))
    throw Error(std::string("malformed kernel reply: ") + type.name + " dump without " +
                nl::attr_name(type.table));
  nl::for_each_nested(a.get(type.table), [&](const nlattr* entry) {
    if (mnl_attr_get_type(entry) != type.entry)
      throw Error(std::string("malformed kernel reply: ") +
                  nl::attr_name(mnl_attr_get_type(entry)) + " inside " + nl::attr_name(type.table));
    fn(nl::Attrs::of_nest(entry), index, name);
  });
}

}  // namespace rdma::res
