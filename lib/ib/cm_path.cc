#include "lib/ib/cm_path.h"

#include <algorithm>

#include "lib/error.h"
#include "lib/ib/lid_route.h"
#include "lib/ib/sa_query.h"
#include "lib/mad/attrs.h"
#include "lib/mad/field.h"
#include "lib/mad/sa.h"

namespace rdma::ib {

namespace {

std::array<uint8_t, 16> gid_field(std::span<const uint8_t> rec, const char* name) {
  const mad::FieldDef* d = mad::find_field(mad::kPathRecord, name);
  std::array<uint8_t, 16> gid{};
  std::span<const uint8_t> b = rec.subspan(d->bit / 8, d->width / 8);
  std::copy(b.begin(), b.end(), gid.begin());
  return gid;
}

}  // namespace

CmPath cm_path_of(std::span<const uint8_t> record) {
  const mad::AttrDef& pr = mad::kPathRecord;
  if (record.size() < pr.bytes)
    throw Error("a PathRecord of " + std::to_string(record.size()) + " bytes (expected " +
                std::to_string(pr.bytes) + ")");
  CmPath p;
  p.record.assign(record.begin(), record.begin() + pr.bytes);
  p.sgid = gid_field(record, "SGID");
  p.dgid = gid_field(record, "DGID");
  p.slid = static_cast<uint16_t>(mad::get_field(pr, record, "SLID"));
  p.dlid = static_cast<uint16_t>(mad::get_field(pr, record, "DLID"));
  p.pkey = static_cast<uint16_t>(mad::get_field(pr, record, "P_Key"));
  return p;
}

CmPath cm_path(MadClient& c, const mad::Target& t) {
  auto paths = [&](const mad::Target& end) {
    std::vector<uint8_t> example;
    uint64_t mask = 0;
    path_example(c.local(), std::span<const mad::Target>(&end, 1), {}, example, mask);
    return mad::get_table(c.engine(), c.sm_lid(), mad::kPathRecord, mask, example).records;
  };
  mad::Target end;
  end.kind = mad::Target::Kind::Lid;
  end.text = t.text;
  switch (t.kind) {
    case mad::Target::Kind::Lid:
      end.lid = t.lid;
      break;
    case mad::Target::Kind::Dr:
      // The port it ends at, by its LID (ibtool's resolution, as perf's).
      end.lid = lid_route(c, c.route(t), "the SA's paths run between LIDs").lid;
      break;
    case mad::Target::Kind::Name: {
      mad::Route r = c.name_route(t);
      if (!r.lid) throw Error(t.text + " has no LID: the SA knows no path to it");
      end.lid = r.lid;
      break;
    }
    case mad::Target::Kind::Guid:
    case mad::Target::Kind::Gid:
      // The SA's Get of the path to the GID (no NodeRecord table, which an
      // SA without RMPP cuts short), a node GUID's first port's LID.
      end.lid = c.route(t).lid;
      break;
  }
  std::vector<std::vector<uint8_t>> r = paths(end);
  if (r.empty())
    throw Error("the SA has no path from this port to " + t.text + " (lid " +
                std::to_string(end.lid) + ")");
  return cm_path_of(r.front());
}

}  // namespace rdma::ib
