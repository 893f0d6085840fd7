#include "lib/ib/sm_info.h"

#include "lib/error.h"
#include "lib/ib/sa_records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma::ib {

mad::Mad read_sm_info(MadClient& c, const mad::Route& r) {
  return c.smp(r, mad::kGet, mad::kSmInfo, 0);
}

SaSmInfo read_sm_info_sa(MadClient& c, const mad::Target& t) {
  std::vector<uint8_t> r = c.sa_records(t, mad::kSmInfoRecord).front();
  std::span<const uint8_t> info = sa_carried(mad::kSmInfoRecord, mad::kSmInfo, r);
  return {static_cast<uint16_t>(mad::get_field(mad::kSmInfoRecord, r, "LID")),
          {info.begin(), info.end()}};
}

void add_sm_info(std::span<const uint8_t> sm_info, int detail, bool show_keys, view::Record& out) {
  mad::decode(mad::kSmInfo, sm_info, detail, out, {.show_keys = show_keys});
}

mad::Mad set_sm_info(MadClient& c, const mad::Route& r, const SmInfoChange& change,
                     const std::string& what) {
  mad::Mad info = read_sm_info(c, r);
  if (change.priority) info.set_attr(mad::kSmInfo, "Priority", *change.priority);
  if (change.state) info.set_attr(mad::kSmInfo, "SMState", *change.state);
  if (change.activity) info.set_attr(mad::kSmInfo, "ActCount", *change.activity);
  try {
    return c.smp(r, mad::kSet, mad::kSmInfo, change.control, &info);
  } catch (const mad::MadError& e) {
    std::string head = "cannot set SMInfo of " + what + ": ";
    if (e.failure.kind == mad::Failure::Kind::Status)
      throw Error(head + "refused with status " +
                  mad::status_text(e.failure.status, mad::kClassSmiLid));
    throw Error(head + e.what());
  }
}

}  // namespace rdma::ib
