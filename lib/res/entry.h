// One resource entry: the filters decide whether it shows, the type's
// columns turn it into a Record (text and JSON) for the printers.
#pragma once

#include <libmnl/libmnl.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/nl/attrs.h"
#include "lib/res/comm.h"
#include "lib/res/filter.h"
#include "lib/res/types.h"
#include "lib/view/record.h"

namespace rdma::res {

// The device an entry belongs to.
struct DevRef {
  uint32_t index = 0;
  std::string_view name;
  std::string_view dev_type;   // dev-type filter: infiniband or ether
  std::string_view transport;  // transport-type filter: ib, iwarp, ...
};

struct EntryOpts {
  int details = 0;             // -d count; 2 shows drv_* attributes
  bool pretty = false;         // -p
  bool raw = false;            // the reply of a *_GET_RAW command
  bool portless_only = false;  // link DEV/-: only entries bound to no port
  bool json = false;           // build JSON values only (else text only)
};

class EntryView {
 public:
  EntryView(const TypeSpec& type, const Filters& filters, EntryOpts opts);
  // Its labels point into its own label_text_.
  EntryView(const EntryView&) = delete;
  EntryView& operator=(const EntryView&) = delete;

  // Fills r (cleared first) and returns true when the entry passes the
  // filters; r is untouched otherwise. Throws Error for malformed entries.
  bool render(const nl::Attrs& e, const DevRef& d, view::Record& r);

 private:
  bool passes(const nl::Attrs& e, const DevRef& d) const;
  void column(const Column& c, const nl::Attrs& e, const DevRef& d, view::Record& r);
  // A "key value" field; only the form the printer uses is built (JSON values
  // and temporaries cost allocations, and listings are long). label is the
  // key as written before each value (labels_). start() appends it where the
  // field goes, the open run or a new Field (entry.cc), and returns that.
  std::string& start(view::Record& r, std::string_view label);
  void put_num(view::Record& r, std::string_view label, uint64_t v);
  void put_str(view::Record& r, std::string_view label, std::string_view text);
  // JSON already written out (a number, true, false).
  void put_literal(view::Record& r, std::string_view label, std::string_view text,
                   std::string_view json);
  void put(view::Record& r, const Column& c, std::string_view text, view::Json json);
  void put_device(bool link, const nl::Attrs& e, const DevRef& d, view::Record& r);
  // c is one of type_.columns.
  std::string_view label(const Column& c) const { return labels_[&c - type_.columns.data()]; }

  const TypeSpec& type_;
  const Filters& filters_;
  EntryOpts opts_;
  CommReader comm_;
  // Per column of type_, and for the device's JSON keys: `key ` in text,
  // `"key":` in JSON; views into label_text_, which holds them all.
  std::string label_text_;
  std::vector<std::string_view> labels_;
  struct {
    std::string_view ifindex, ifname, port;
  } dev_labels_;
  size_t run_end_ = 0;       // r.size() when the last run ended (start())
  bool listed_qps_ = false;  // the SRQ being rendered listed QPs
};

using EntryFn =
    std::function<void(const nl::Attrs& entry, uint32_t dev_index, std::string_view dev_name)>;

// Calls fn for every entry of one reply message: each nest of a dump's table,
// or the message itself for a doit (whose attributes are the entry's). Throws
// Error when the message lacks its device or table.
void for_each_entry(const TypeSpec& type, const nlmsghdr* nlh, bool doit, const EntryFn& fn);

// An attribute as a number, whatever its width (u8, u32, u64).
uint64_t number(const nl::Attrs& a, int attr);

}  // namespace rdma::res
