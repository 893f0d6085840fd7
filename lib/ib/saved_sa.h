// `sa show nodes|ports|links from FILE`: the SA records a fabric read from
// a file (lib/ib/cache.h: a saved fabric or ibnetdiscover's topology) can
// answer, built as an SA sends them, so the live view's filters and
// printer (sa_query.h, sa_records.h) take them: NodeRecords (a switch's
// one, a CA's one a port with a LID), PortInfoRecords (each port the file
// has PortInfo of) and LinkRecords (each link both ways). A field the file
// does not hold is 0 in the bytes and left out of what is printed.
#pragma once

#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/ib/sa_records.h"
#include "lib/view/record.h"

namespace rdma::ib {

struct SavedSa {
  std::vector<std::vector<uint8_t>> records;
  // The labels of the carried attributes' fields the file does not hold
  // (left out), and of those detail would show (said once).
  std::set<std::string_view> lacking;
  std::vector<std::string> missing;
};

// The records of kind k in f; topology: f is a topology file's. Throws
// Error for a kind no file answers.
SavedSa saved_sa_records(const Fabric& f, const SaKind& k, bool topology, int detail);

// sa_record of rec without the fields s lacks (what derives from held ones,
// a port's rate from its width and speed, stays).
void saved_sa_record(const SaKind& k, const SavedSa& s, std::span<const uint8_t> rec, int detail,
                     view::Record& out, bool show_keys);

}  // namespace rdma::ib
