#include "lib/ib/sm_info.h"

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma::ib {

mad::Mad set_sm_info(MadClient& c, const mad::Route& r, const SmInfoChange& change,
                     const std::string& what) {
  mad::Mad info = c.smp(r, mad::kGet, mad::kSmInfo, 0);
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
