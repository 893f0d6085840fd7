// The links check: links that are up but not Active, degraded links, and
// links whose ends disagree on the MTU or the operational VLs.
#include <algorithm>

#include "lib/ib/check.h"
#include "lib/ib/degraded.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// MTU codes (IBA 14.2.5.6: 1 256 ... 5 4096) as bytes.
std::string mtu_text(uint8_t code) {
  return code >= 1 && code <= 5 ? std::to_string(128 << code) : "code " + std::to_string(code);
}

// VLCap and OperationalVLs codes (IBA 14.2.5.6: 1 VL0, 2 VL0-1, 3 VL0-3,
// 4 VL0-7, 5 VL0-14) as a count of data VLs.
std::string vls_text(uint8_t code) {
  static const char* const kVls[] = {"", "1", "2", "4", "8", "15"};
  return code >= 1 && code <= 5 ? kVls[code] : "code " + std::to_string(code);
}

}  // namespace

std::vector<Finding> check_links(const Fabric& f) {
  std::vector<Finding> out;
  for (const Link& l : f.links()) {
    const Port& a = f.at(l.a);
    const Port& b = f.at(l.b);
    std::vector<FindingPlace> where{place(f, l.a.node, l.a.port), place(f, l.b.node, l.b.port)};
    auto add = [&](Severity s, std::string what) {
      out.push_back({"links", s, std::move(what), where});
    };
    if (!a.info || !b.info) {
      add(Severity::Warning, "link without PortInfo at one end");
      continue;
    }
    for (const PortInfo* pi : {&*a.info, &*b.info})
      if (pi->state != kPortActive) {
        const char* s = mad::port_state_name(pi->state);
        add(pi->state == kPortDown ? Severity::Error : Severity::Warning,
            std::string("port of a link is ") + (s ? s : "in an unknown state") + ", not Active");
        break;
      }
    if (std::optional<LinkBest> low = degraded(*a.info, *b.info))
      add(Severity::Warning, std::string("degraded link: ") + (low->width_low ? "width" : "") +
                                 (low->width_low && low->speed_low ? " and " : "") +
                                 (low->speed_low ? "speed" : "") + " below what both ends support");
    if (a.info->mtu != b.info->mtu)
      add(Severity::Warning,
          "ends disagree on the MTU: " + mtu_text(a.info->mtu) + " and " + mtu_text(b.info->mtu));
    else if (uint8_t cap = std::min(a.info->mtu_cap, b.info->mtu_cap); a.info->mtu < cap)
      add(Severity::Info,
          "MTU " + mtu_text(a.info->mtu) + " below the " + mtu_text(cap) + " both ends support");
    // 0: not set by an SM, or a file saved before the column; packets on
    // a VL the receiver does not run are dropped.
    if (a.info->oper_vls && b.info->oper_vls && a.info->oper_vls != b.info->oper_vls)
      add(Severity::Warning, "ends disagree on the operational VLs: " + vls_text(a.info->oper_vls) +
                                 " and " + vls_text(b.info->oper_vls));
    for (const PortInfo* pi : {&*a.info, &*b.info})
      if (pi->oper_vls && pi->vl_cap && pi->oper_vls > pi->vl_cap) {
        add(Severity::Error, "operational VLs " + vls_text(pi->oper_vls) + " above the port's " +
                                 vls_text(pi->vl_cap) + " (VLCap)");
        break;
      }
  }
  return out;
}

}  // namespace rdma::ib
