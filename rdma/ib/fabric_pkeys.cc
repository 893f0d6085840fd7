#include "rdma/ib/fabric_pkeys.h"

#include "lib/ib/check.h"
#include "lib/ib/finding_places.h"
#include "lib/ib/pkeys.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"

namespace rdma {

void fabric_show_pkeys(Ctx& c, const FabricSource& src) {
  c.args.done();
  // The tables are read live, also for a saved fabric's nodes (by their
  // saved routes), as fabric check reads its tables.
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, fabric_options(c));
  std::vector<std::string> warnings;
  ib::PKeyTables tables = ib::read_pkey_tables(s.engine(), f, false, warnings);
  s.end_progress();
  c.warn(warnings);
  view::Record rec;
  for (const ib::Partition& p : ib::partitions(f, tables)) {
    size_t full = 0;
    std::string text;
    view::Json members = view::Json::array();
    for (const ib::Partition::Member& m : p.members) {
      full += m.full;
      std::vector<ib::FindingPlace> at = {ib::place(f, m.port.node, m.port.port)};
      const char* membership = m.full ? "full" : "limited";
      text += "\n\t" + ib::where_text(f, at) + " " + membership;
      view::Json j = ib::where_json(f, at)[0];
      j["membership"] = membership;
      members.push_back(std::move(j));
    }
    rec.clear();
    rec.pair("pkey", ib::pkey_text(p.base));
    rec.pair("full", full);
    rec.pair("limited", p.members.size() - full);
    rec.add("members", text, std::move(members));
    c.out.record(rec);
  }
}

}  // namespace rdma
