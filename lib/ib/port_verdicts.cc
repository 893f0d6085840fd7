#include "lib/ib/port_verdicts.h"

#include "lib/error.h"
#include "lib/ib/degraded.h"
#include "lib/ib/fdr10.h"
#include "lib/ib/node_view.h"
#include "lib/ib/pma.h"
#include "lib/ib/port_select.h"
#include "lib/ib/port_view.h"
#include "lib/ib/records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"
#include "lib/mad/target.h"

namespace rdma::ib {

namespace {

PortVerdict verdict(uint16_t lid, uint8_t port, const char* check, std::string reason) {
  bool ok = reason.empty();
  return {lid, port, check, ok, std::move(reason)};
}

// As the links check: a port that is not Active carries no traffic; as
// ibcheckportstate, nor does one whose physical link is not LinkUp (a
// port disabled while its PortState stays where it was).
std::string state_reason(const PortInfo& pi) {
  if (pi.state == kPortActive && pi.phys_state == kPhysLinkUp) return "";
  const char* s = mad::port_state_name(pi.state);
  return std::string("state ") + (s ? s : "unknown") + ", physical state " +
         mad::phys_state_name(pi.phys_state) + " (expected " + mad::port_state_name(kPortActive) +
         ", " + mad::phys_state_name(kPhysLinkUp) + ")";
}

// degraded() (the links check's "running below what both ends support")
// with the port's enabled widths for both ends: without the peer, what the
// subnet manager enabled is what the port should run at.
std::string width_reason(const PortInfo& pi) {
  PortInfo enabled = pi;
  enabled.width_supported = pi.width_enabled & pi.width_supported;
  std::optional<LinkBest> low = degraded(enabled, enabled);
  if (!low || !low->width_low) return "";
  PortInfo best = pi;
  best.width_active = low->width;
  return "width " + width_text(pi) + " (enabled " + width_text(best) + ")";
}

// The same for the speed: degraded() with the port's enabled speeds
// (LinkSpeedEnabled, LinkSpeedExtEnabled) in place of the peer's, the
// extended ones as caps vouch for them; an extended speed enabled
// nowhere (0, or the Disable value) leaves the base speeds to judge.
std::string speed_reason(const PortInfo& pi, const PortInfo* caps) {
  PortInfo enabled = pi;
  enabled.speed_supported = pi.speed_enabled & pi.speed_supported;
  uint8_t ext = pi.speed_ext_enabled == mad::kSpeedExtDisable ? 0 : pi.speed_ext_enabled;
  enabled.speed_ext_supported = ext & pi.speed_ext_supported;
  const PortInfo* vouch = caps ? caps : &pi;
  std::optional<LinkBest> low = degraded(enabled, enabled, vouch, vouch);
  if (!low || !low->speed_low) return "";
  return std::string("speed ") + mad::generation_name(link_generation(pi, vouch)) + " (enabled " +
         mad::generation_name(low->generation()) + ")";
}

// The counters of `fabric errors` over their thresholds (counters_over).
std::string errors_reason(const PortCounters& pc, const SweepOptions& o) {
  std::string over;
  for (const mad::FieldDef* f : counters_over(pc, o))
    over += (over.empty() ? "errors: " : ", ") + std::string(f->name) + " " +
            std::to_string(pc.get(*f)) + " over " + std::to_string(o.thresholds.of(*f));
  return over;
}

}  // namespace

std::vector<PortVerdict> judge_port(uint16_t lid, uint8_t port, const PortInfo& pi,
                                    const PortCounters* pc, const SweepOptions& o,
                                    const PortChecks& which, const PortInfo* caps) {
  std::vector<PortVerdict> out;
  if (which.state) out.push_back(verdict(lid, port, "state", state_reason(pi)));
  // A port whose link is not up runs at no width or speed (the state
  // verdict says so).
  if (which.width && pi.link_up()) out.push_back(verdict(lid, port, "width", width_reason(pi)));
  if (which.speed && pi.link_up())
    out.push_back(verdict(lid, port, "speed", speed_reason(pi, caps)));
  if (which.errors && pc) out.push_back(verdict(lid, port, "errors", errors_reason(*pc, o)));
  return out;
}

std::vector<PortVerdict> check_node_ports(MadClient& c, const mad::Route& r,
                                          std::optional<uint8_t> port, bool all,
                                          const SweepOptions& o, const PortChecks& which) {
  // SMPs by the route given (a directed route reaches a port whose links
  // are not Active yet); the PMA, a GMP, by LID, only for errors.
  NodeInfo n = read_node_info(c, r);
  std::vector<uint8_t> ports;
  if (port) {
    check_port(n, *port, mad::route_text(r));
    ports.push_back(*port);
  } else if (all || n.is_switch()) {
    for (uint8_t p = 1; p <= n.num_ports; ++p) ports.push_back(p);
  } else {
    ports.push_back(n.local_port);
  }
  // A switch's ports share port 0's LID, and its capability masks vouch
  // for their extended speeds (lib/mad/speed.h).
  std::optional<PortInfo> port0;
  if (n.is_switch()) port0 = PortInfo::from(read_port_info(c, r, 0).data());
  uint16_t switch_lid = port0 ? port0->lid : 0;
  std::optional<PmaClient> pma;
  if (which.errors) pma.emplace(c, r);
  std::vector<PortVerdict> out;
  for (uint8_t p : ports) {
    PortInfo pi = PortInfo::from(read_port_info(c, r, p).data());
    // A QDR link may run FDR10, which only the vendor's MlnxExtPortInfo
    // tells (asked where iblinkinfo asks it): a port enabled for FDR and
    // running FDR10 reads "speed FDR10", not QDR. No answer: QDR.
    if (which.speed && ask_fdr10(n, pi)) {
      try {
        pi.mlnx_speed_active =
            mlnx_speed_active(c.smp(r, mad::kGet, mad::kMlnxExtPortInfo, p).data());
      } catch (const Error&) {
      }
    }
    // A CA port without a LID (no link) is named by the LID asked.
    uint16_t lid = n.is_switch() ? switch_lid : pi.lid ? pi.lid : r.directed ? 0 : r.lid;
    std::optional<PortCounters> pc;
    // A CA's PMA keeps counters only for its ports with a LID (as the
    // error sweep asks them): the state verdict speaks for the others.
    if (pma && (n.is_switch() || pi.lid)) {
      PortReply reply = pma->read(port_counters(), p, PmaCaps{});
      pc.emplace();
      pc->port = {0, p};
      pc->lid = lid;
      pc->pc = attr_bytes(reply.reply, port_counters());
    }
    std::vector<PortVerdict> v =
        judge_port(lid, p, pi, pc ? &*pc : nullptr, o, which, port0 ? &*port0 : nullptr);
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

}  // namespace rdma::ib
