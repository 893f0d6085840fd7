// The sm check: SMInfo from every port that says it runs an SM (PortInfo
// CapabilityMask IsSM), all queries in flight at once.
#include "lib/ib/check.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

namespace {

constexpr uint32_t kIsSm = 1u << 1;  // CapabilityMask.IsSM
constexpr uint64_t kMaster = 3;      // SMInfo.SMState

const char* sm_state_name(uint64_t s) {
  static const char* const kNames[] = {"not active", "discovering", "standby", "master"};
  return s < 4 ? kNames[s] : "unknown";
}

struct SmAnswer {
  PortRef port;
  std::optional<mad::Mad> info;
  std::string failure;
};

}  // namespace

std::vector<Finding> check_sm(mad::Engine& e, const Fabric& f) {
  std::vector<SmAnswer> sms;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    for (const Port& p : node.ports) {
      if (!p.info || !(p.info->caps & kIsSm) || (node.is_switch() && p.num != 0)) continue;
      if (!node.is_switch() && p.num == 0) continue;
      sms.push_back({{n, p.num}, std::nullopt, ""});
    }
  }
  for (size_t i = 0; i < sms.size(); ++i) {
    const Node& node = f.nodes[sms[i].port.node];
    // By directed route to the port discovery arrived at; another port of
    // a CA by its LID.
    mad::Route r{true, 0, node.path};
    const Port& p = f.at(sms[i].port);
    if (!node.is_switch() && p.num != node.info.local_port && p.info->lid)
      r = {false, p.info->lid, {}};
    e.submit({mad::make_smp(r, mad::kGet, mad::kSmInfo, 0), mad::smp_address(r),
              "SMInfo from " + mad::route_text(r),
              [&sms, i](const mad::Mad* reply, const mad::Failure* fail) {
                if (reply)
                  sms[i].info = *reply;
                else
                  sms[i].failure = fail->message;
              }});
  }
  e.run();
  std::vector<Finding> out;
  std::vector<const SmAnswer*> masters;
  for (const SmAnswer& a : sms) {
    FindingPlace at = place(f, a.port.node, a.port.port);
    if (!a.info) {
      out.push_back({"sm",
                     Severity::Warning,
                     "port says it runs an SM but SMInfo failed: " + a.failure,
                     {at}});
      continue;
    }
    uint64_t state = a.info->get_attr(mad::kSmInfo, "SMState");
    uint64_t priority = a.info->get_attr(mad::kSmInfo, "Priority");
    if (state == kMaster) masters.push_back(&a);
    out.push_back({"sm",
                   Severity::Info,
                   std::string("SM ") + sm_state_name(state) + ", priority " +
                       std::to_string(priority) + ", GUID " +
                       mad::guid_hex(a.info->get_attr(mad::kSmInfo, "GUID")),
                   {at}});
  }
  if (masters.empty()) {
    out.push_back({"sm", Severity::Error, "no master SM answers", {}});
    return out;
  }
  if (masters.size() > 1) {
    Finding fd{"sm", Severity::Error, std::to_string(masters.size()) + " master SMs", {}};
    for (const SmAnswer* a : masters) fd.where.push_back(place(f, a->port.node, a->port.port));
    out.push_back(std::move(fd));
    return out;
  }
  // Ports whose MasterSMLID is not the master's.
  uint16_t master_lid = f.at(masters[0]->port).info->lid;
  Finding fd{"sm", Severity::Warning, "", {}};
  size_t count = 0;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    for (const Port& p : f.nodes[n].ports) {
      bool has_lid = f.nodes[n].is_switch() ? p.num == 0 : p.num != 0;
      if (!has_lid || !p.info || !p.info->lid || p.info->sm_lid == master_lid) continue;
      if (count++ < kFirstFew) fd.where.push_back(place(f, n, p.num));
    }
  if (count) {
    fd.what = std::to_string(count) + " ports whose SM LID is not the master's (" +
              std::to_string(master_lid) + ")";
    out.push_back(std::move(fd));
  }
  return out;
}

}  // namespace rdma::ib
