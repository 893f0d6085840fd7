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
#include "lib/view/number.h"

namespace rdma::res {

// Parsing checked each attribute's size against its policy type, so the size
// says the width without looking the type up again.
uint64_t number(const nl::Attrs& a, int attr) {
  const nlattr* n = a.get(attr);
  if (!n) return 0;
  switch (nl::Attrs::payload_len(n)) {
    case 1:
      return *nl::Attrs::payload(n);
    case 8:
      return nl::Attrs::load<uint64_t>(n);
    default:
      return nl::Attrs::load<uint32_t>(n);
  }
}

EntryView::EntryView(const TypeSpec& type, const Filters& filters, EntryOpts opts)
    : type_(type), filters_(filters), opts_(opts) {
  // Every object repeats the same labels: write them out once, all in one
  // string (a string a label was 5% of a batch line).
  const size_t extra = !opts_.json ? 1 : opts_.pretty ? 4 : 3;
  auto add = [&](std::string_view key) {
    if (!opts_.json)
      label_text_.append(key) += ' ';
    else
      label_text_.append(1, '"').append(key).append(opts_.pretty ? "\": " : "\":");
  };
  size_t size = 0;
  for (const Column& c : type_.columns) size += c.key.size() + extra;
  label_text_.reserve(size + sizeof "ifindexifnameport" - 1 + 3 * extra);
  for (const Column& c : type_.columns) add(c.key);
  for (std::string_view key : {"ifindex", "ifname", "port"}) add(key);
  // The views once the string is whole.
  std::string_view all = label_text_;
  size_t at = 0;
  auto next = [&](std::string_view key) {
    std::string_view v = all.substr(at, key.size() + extra);
    at += v.size();
    return v;
  };
  labels_.reserve(type_.columns.size());
  for (const Column& c : type_.columns) labels_.push_back(next(c.key));
  dev_labels_.ifindex = next("ifindex");
  dev_labels_.ifname = next("ifname");
  dev_labels_.port = next("port");
}

std::string& EntryView::start(view::Record& r, std::string_view label) {
  std::string* s;
  if (run_end_ != 0 && r.size() == run_end_ && !(opts_.json && opts_.pretty)) {
    s = opts_.json ? &r.back().json : &r.back().text;
    if (opts_.json) *s += ',';
  } else {
    view::Field& f = r.next();
    f.member = opts_.json;
    s = opts_.json ? &f.json : &f.text;
  }
  run_end_ = r.size();
  return s->append(label);
}

// label is `key ` in text and `"key":` in JSON (labels_).
void EntryView::put_literal(view::Record& r, std::string_view label, std::string_view text,
                            std::string_view json) {
  if (opts_.json)
    start(r, label).append(json);
  else
    start(r, label).append(text) += ' ';
}

void EntryView::put_num(view::Record& r, std::string_view label, uint64_t v) {
  char num[24];
  std::string_view digits(num, std::to_chars(num, num + sizeof num, v).ptr - num);
  put_literal(r, label, digits, digits);
}

void EntryView::put_str(view::Record& r, std::string_view label, std::string_view text) {
  if (opts_.json)
    view::JsonWriter::quote(text, start(r, label));
  else
    put_literal(r, label, text, {});
}

void EntryView::put(view::Record& r, const Column& c, std::string_view text, view::Json json) {
  if (opts_.json) {
    view::Field& f = r.next();
    f.key = c.key;
    f.value = std::move(json);
  } else {
    put_literal(r, label(c), text, {});
  }
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

void EntryView::put_device(bool link, const nl::Attrs& e, const DevRef& d, view::Record& r) {
  bool port = link && e.has(RDMA_NLDEV_ATTR_PORT_INDEX);
  if (opts_.json) {
    put_num(r, dev_labels_.ifindex, d.index);
    put_str(r, dev_labels_.ifname, d.name);
    if (port) put_num(r, dev_labels_.port, e.u32(RDMA_NLDEV_ATTR_PORT_INDEX));
    return;
  }
  std::string& t = start(r, link ? "link " : "dev ").append(d.name);
  if (!link) {
    t += ' ';
  } else if (port) {
    char num[12];
    uint32_t p = e.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
    t.append(1, '/').append(num, std::to_chars(num, num + sizeof num, p).ptr).append(1, ' ');
  } else {
    t += "/- ";
  }
}

void EntryView::column(const Column& c, const nl::Attrs& e, const DevRef& d, view::Record& r) {
  switch (c.col) {
    case Col::kLink:
    case Col::kDev:
      put_device(c.col == Col::kLink, e, d, r);
      return;
    case Col::kComm:
      if (e.has(RDMA_NLDEV_ATTR_RES_PID)) {
        const std::optional<std::string>& comm = comm_.get(e.u32(RDMA_NLDEV_ATTR_RES_PID));
        if (comm) put_str(r, label(c), *comm);
      } else if (e.has(RDMA_NLDEV_ATTR_RES_KERN_NAME)) {
        std::string_view kern = e.str(RDMA_NLDEV_ATTR_RES_KERN_NAME);
        if (opts_.json)
          put_str(r, label(c), kern);
        else
          put_str(r, label(c), "[" + std::string(kern) + "]");
      }
      return;
    case Col::kDriver:
      if (opts_.details >= 2 && e.has(c.attr))
        append_driver(e.get(c.attr), opts_.pretty && !opts_.json, r);
      return;
    case Col::kQpList: {
      if (!e.has(c.attr)) return;
      QpList l = srq_qps(e.get(c.attr), filters_.get("lqpn"));
      if (!l.text.empty()) {
        put(r, c, l.text, std::move(l.json));
        listed_qps_ = true;
      }
      return;
    }
    default:
      break;
  }
  if (!e.has(c.attr)) return;
  switch (c.col) {
    case Col::kNum:
      put_num(r, label(c), number(e, c.attr));
      return;
    case Col::kKey: {
      // iproute2 prints keys through an unsigned int, so a 64-bit iova lost
      // its high half; all 64 bits here.
      std::string h = view::hex_text(number(e, c.attr));
      if (opts_.json)
        put_str(r, label(c), h.substr(2));  // iproute2's JSON: the digits alone
      else
        put_literal(r, label(c), h, {});
      return;
    }
    case Col::kName:
      put_str(r, label(c), c.names->name(number(e, c.attr)));
      return;
    case Col::kPortSpace:
      put_str(r, label(c), port_space_name(e.u32(c.attr)));
      return;
    case Col::kOnOff: {
      uint8_t v = e.u8(c.attr);
      if (v > 1) return;  // the kernel's "not supported"
      put_literal(r, label(c), v ? "on" : "off", v ? "true" : "false");
      return;
    }
    case Col::kAddr: {
      std::optional<SockAddr> a = decode_sockaddr(e.bin(c.attr));
      if (a) put_str(r, label(c), a->text());
      return;
    }
    default:
      return;
  }
}

bool EntryView::render(const nl::Attrs& e, const DevRef& d, view::Record& r) {
  if (!passes(e, d)) return false;
  r.clear();
  run_end_ = 0;
  listed_qps_ = false;
  if (opts_.raw) {
    // A raw entry is the driver's blob (plus whatever ids the kernel adds).
    e.need({RDMA_NLDEV_ATTR_RES_RAW},
           [&] { return std::string("raw ") + type_.name + " entry without data"; });
    put_device(false, e, d, r);
    for (const Column& c : type_.columns)
      if (c.attr == type_.id_attr) column(c, e, d, r);
    append_raw(e.bin(RDMA_NLDEV_ATTR_RES_RAW), r);
    return true;
  }
  for (const Column& c : type_.columns) column(c, e, d, r);
  // An SRQ whose QPs the lqpn filter removed all of does not show.
  if (type_.id_attr == RDMA_NLDEV_ATTR_RES_SRQN && filters_.get("lqpn")) {
    if (listed_qps_) return true;
    r.clear();
    return false;
  }
  return true;
}

void for_each_entry(const TypeSpec& type, const nlmsghdr* nlh, bool doit, const EntryFn& fn) {
  nl::Attrs a = nl::Attrs::of_message(nlh);
  a.need({RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME},
         [&] { return std::string(type.name) + " reply without device index or name"; });
  uint32_t index = a.u32(RDMA_NLDEV_ATTR_DEV_INDEX);
  std::string_view name = a.str(RDMA_NLDEV_ATTR_DEV_NAME);
  if (doit) return fn(a, index, name);
  a.need({type.table},
         [&] { return std::string(type.name) + " dump without " + nl::attr_name(type.table); });
  nl::for_each_nested(a.get(type.table), [&](const nlattr* entry) {
    if (nl::Attrs::type_of(entry) != type.entry)
      throw Error(std::string("malformed kernel reply: ") +
                  nl::attr_name(nl::Attrs::type_of(entry)) + " inside " +
                  nl::attr_name(type.table));
    fn(nl::Attrs::of_nest(entry), index, name);
  });
}

}  // namespace rdma::res
