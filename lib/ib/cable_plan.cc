#include "lib/ib/cable_plan.h"

#include <algorithm>
#include <optional>
#include <set>

#include "lib/error.h"
#include "lib/ib/records.h"
#include "lib/mad/format.h"

namespace rdma::ib {

void Plan::add(PlanLink l) {
  if (l.a == l.b)
    throw Error(l.where + ": \"" + l.a.node + "\" port " + std::to_string(l.a.port) +
                " is cabled to itself");
  for (const PlanEnd* e : {&l.a, &l.b}) {
    PlanNode& n = nodes[e->node];
    auto [it, added] = by_end.try_emplace(*e, links.size());
    // A port cabled twice: two nodes of that name, or a slip; either way
    // the name is ambiguous, never a guess.
    if (!added && n.twice.empty()) {
      n.count = std::max(n.count, 2u);
      n.guid = 0;
      n.twice =
          "port " + std::to_string(e->port) + " at " + links[it->second].where + " and " + l.where;
    }
  }
  links.push_back(std::move(l));
}

std::string plan_name(const Node& n) {
  return n.description.empty() ? mad::guid_hex(n.info.node_guid) : n.description;
}

namespace {

std::string end_text(const PlanEnd& e) {
  return mad::desc_text(e.node) + " port " + std::to_string(e.port);
}

const char* state_name(uint8_t s) {
  static const char* const kNames[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE"};
  return s < 5 ? kNames[s] : "unknown";
}

std::string width_text(unsigned lanes) {
  return std::to_string(lanes) + "X";
}

std::string guids_text(const Fabric& f, const std::vector<uint32_t>& nodes) {
  std::string s;
  for (uint32_t n : nodes) s += (s.empty() ? "" : ", ") + mad::guid_hex(f.nodes[n].info.node_guid);
  return s;
}

// The state of the comparison: the judged nodes by name and the cables as
// built between their ports.
class Checker {
 public:
  Checker(const Plan& plan, const Fabric& f) : plan_(plan), f_(f) {}

  PlanResult run() {
    names();
    built();
    PlanResult r;
    r.planned = plan_.links.size();
    std::vector<const PlanLink*> wrong;
    for (const PlanLink& l : plan_.links) {
      if (!judged(l.a.node) || !judged(l.b.node)) continue;
      auto it = built_.find(l.a);
      if (it != built_.end() && it->second == l.b) {
        ++r.matched;
        quality(l);
        consumed_.insert(l.a);
        consumed_.insert(l.b);
      } else {
        wrong.push_back(&l);
      }
      planned_[l.a] = l.b;
      planned_[l.b] = l.a;
    }
    swaps(wrong);
    for (const PlanLink* l : wrong) miswired(*l);
    unplanned();
    r.findings = std::move(out_);
    return r;
  }

 private:
  bool judged(const std::string& name) const { return judged_.count(name) != 0; }

  void add(const char* kind, Severity s, std::string what, std::vector<PlanEnd> ends) {
    out_.push_back({kind, s, std::move(what), std::move(ends)});
  }

  // Names on both sides: ambiguous, absent, unknown, replaced.
  void names() {
    for (uint32_t i = 0; i < f_.nodes.size(); ++i) by_name_[plan_name(f_.nodes[i])].push_back(i);
    for (const auto& [name, pn] : plan_.nodes) {
      auto it = by_name_.find(name);
      if (pn.count > 1 || (it != by_name_.end() && it->second.size() > 1)) {
        std::string what = "the name " + mad::desc_text(name) + " is used by ";
        if (pn.count > 1)
          what += pn.twice.empty() ? std::to_string(pn.count) + " nodes of the plan"
                                   : "two cables of the plan (" + pn.twice + ")";
        if (pn.count > 1 && it != by_name_.end() && it->second.size() > 1) what += " and by ";
        if (it != by_name_.end() && it->second.size() > 1)
          what += std::to_string(it->second.size()) + " nodes of the fabric (" +
                  guids_text(f_, it->second) + ")";
        add(kPlanAmbiguous, Severity::Error, what + ": its cables are not checked", {{name, 0}});
        continue;
      }
      if (it == by_name_.end()) {
        add(kPlanAbsent, Severity::Error, "planned node " + mad::desc_text(name) + " is not found",
            {{name, 0}});
        continue;
      }
      const Node& n = f_.nodes[it->second[0]];
      if (pn.guid && pn.guid != n.info.node_guid)
        add(kPlanReplaced, Severity::Info,
            mad::desc_text(name) + " has node GUID " + mad::guid_hex(n.info.node_guid) +
                ", the plan says " + mad::guid_hex(pn.guid) + ": a replaced part",
            {{name, 0}});
      judged_[name] = it->second[0];
    }
    for (const auto& [name, nodes] : by_name_) {
      if (plan_.nodes.count(name)) continue;
      if (nodes.size() > 1) {
        add(kPlanAmbiguous, Severity::Error,
            "the name " + mad::desc_text(name) + " is used by " + std::to_string(nodes.size()) +
                " nodes of the fabric (" + guids_text(f_, nodes) + ")",
            {{name, 0}});
        continue;
      }
      add(kPlanUnknown, Severity::Warning,
          "node " + mad::desc_text(name) + " " + mad::guid_hex(f_.nodes[nodes[0]].info.node_guid) +
              " is not in the plan",
          {{name, 0}});
    }
  }

  // The cables as built from each judged node's ports, whatever the other
  // end (a cable to an unknown node is still where a planned one is not).
  void built() {
    for (const auto& [name, n] : judged_) {
      for (const Port& p : f_.nodes[n].ports) {
        if (!p.peer || p.num == 0) continue;
        built_[{name, p.num}] = {plan_name(f_.nodes[p.peer->node]), p.peer->port};
      }
    }
  }

  const Port* port(const PlanEnd& e) const { return f_.nodes[judged_.at(e.node)].port(e.port); }

  // A cable as planned: its state, its width and speed against the plan's,
  // or with none planned against what both ends support.
  void quality(const PlanLink& l) {
    const Port* a = port(l.a);
    const Port* b = port(l.b);
    if (!a || !b || !a->info || !b->info) return;
    std::string cable = end_text(l.a) + " - " + end_text(l.b);
    for (const Port* p : {a, b}) {
      if (p->info->state != kPortActive) {
        add(kPlanNotActive, Severity::Error,
            cable + " is " + state_name(p->info->state) + ", not ACTIVE", {l.a, l.b});
        break;
      }
    }
    const Node& na = f_.nodes[judged_.at(l.a.node)];
    unsigned lanes = mad::width_lanes(a->info->width_active);
    mad::Generation g = link_generation(*a->info, speed_caps(na, *a->info));
    std::string runs = width_text(lanes) + " " +
                       (mad::generation_name(g) ? mad::generation_name(g) : "unknown speed");
    // No rate planned: not judged here. What both ends support is no
    // plan (ibsim's ports all support 12X QDR, whatever they run), and
    // `fabric check links` reports links below it.
    if (!l.lanes && l.speed == mad::Generation::Unknown) return;
    bool narrow = l.lanes && lanes < l.lanes;
    bool slow = l.speed != mad::Generation::Unknown && g < l.speed;
    if (!narrow && !slow) return;
    std::string planned = l.lanes ? width_text(l.lanes) : "";
    if (l.speed != mad::Generation::Unknown)
      planned += (planned.empty() ? "" : " ") + std::string(mad::generation_name(l.speed));
    add(kPlanSlow, Severity::Error, cable + " runs " + runs + ", the plan says " + planned,
        {l.a, l.b});
  }

  std::optional<PlanEnd> built_at(const PlanEnd& e) const {
    auto it = built_.find(e);
    if (it == built_.end()) return std::nullopt;
    return it->second;
  }

  // Two planned cables x-y and u-v built x-v and u-y: one swap. The ends
  // are named from the node both cables share, when one side has one.
  void swaps(std::vector<const PlanLink*>& wrong) {
    std::map<PlanEnd, size_t> at;  // a wrong cable's ends
    for (size_t i = 0; i < wrong.size(); ++i) at[wrong[i]->a] = at[wrong[i]->b] = i;
    std::vector<bool> done(wrong.size());
    for (size_t i = 0; i < wrong.size(); ++i) {
      if (done[i]) continue;
      for (bool flip : {false, true}) {
        PlanEnd x = flip ? wrong[i]->b : wrong[i]->a, y = flip ? wrong[i]->a : wrong[i]->b;
        std::optional<PlanEnd> v = built_at(x);
        if (!v) continue;
        auto j = at.find(*v);
        if (j == at.end() || j->second == i || done[j->second]) continue;
        const PlanLink& o = *wrong[j->second];
        PlanEnd u = o.a == *v ? o.b : o.a;
        if (built_at(u) != y) continue;
        done[i] = done[j->second] = true;
        // x-v and u-y as built; name them from the shared node.
        if (y.node == v->node && x.node != u.node) {
          std::swap(x, y);
          std::swap(u, *v);
        }
        add(kPlanSwapped, Severity::Error,
            "cables swapped: " + end_text(x) + " goes to " + end_text(*v) + " and " + end_text(u) +
                " to " + end_text(y) + "; the plan says " + end_text(x) + " to " + end_text(y) +
                " and " + end_text(u) + " to " + end_text(*v),
            {x, *v, u, y});
        for (const PlanEnd& e : {x, y, u, *v}) consumed_.insert(e);
        break;
      }
    }
    std::vector<const PlanLink*> left;
    for (size_t i = 0; i < wrong.size(); ++i)
      if (!done[i]) left.push_back(wrong[i]);
    wrong = std::move(left);
  }

  // A planned cable not found: an end cabled elsewhere (each such cable
  // once), or nothing at either end.
  void miswired(const PlanLink& l) {
    if (consumed_.count(l.a) && consumed_.count(l.b)) return;
    std::optional<PlanEnd> at_a = built_at(l.a), at_b = built_at(l.b);
    if (!at_a && !at_b) {
      std::string why;
      for (const PlanEnd& e : {l.a, l.b}) {
        const Port* p = port(e);
        if (!p) why += "; " + end_text(e) + " does not exist";
      }
      // Named in one order whichever end the plan gives first.
      const PlanEnd& lo = std::min(l.a, l.b);
      const PlanEnd& hi = std::max(l.a, l.b);
      add(kPlanMissing, Severity::Error,
          "cable " + end_text(lo) + " - " + end_text(hi) + " is missing" + why, {lo, hi});
      return;
    }
    for (auto [e, other, at] : {std::tuple{l.a, l.b, at_a}, std::tuple{l.b, l.a, at_b}}) {
      if (!at || consumed_.count(e)) continue;
      std::string what =
          end_text(e) + " goes to " + end_text(*at) + ", the plan says " + end_text(other);
      auto p = planned_.find(*at);
      if (p != planned_.end())
        what += " (and " + end_text(*at) + " to " + end_text(p->second) + ")";
      add(kPlanMiswired, Severity::Error, what, {e, *at, other});
      consumed_.insert(e);
      consumed_.insert(*at);
    }
  }

  // Cables built between judged nodes that no plan line and no finding
  // accounts for.
  void unplanned() {
    for (const auto& [e, at] : built_) {
      if (consumed_.count(e) || !judged(at.node) || at < e) continue;
      if (consumed_.count(at)) continue;
      add(kPlanUnplanned, Severity::Warning,
          "cable " + end_text(e) + " - " + end_text(at) + " is not in the plan", {e, at});
    }
  }

  const Plan& plan_;
  const Fabric& f_;
  std::map<std::string, std::vector<uint32_t>> by_name_;
  std::map<std::string, uint32_t> judged_;  // name -> node, on both sides once
  std::map<PlanEnd, PlanEnd> built_, planned_;
  std::set<PlanEnd> consumed_;  // ends a match or a finding accounts for
  std::vector<PlanFinding> out_;
};

}  // namespace

PlanResult check_plan(const Plan& plan, const Fabric& f) {
  return Checker(plan, f).run();
}

Plan plan_of(const Fabric& f) {
  Plan p;
  std::map<std::string, unsigned> seen;
  for (const Node& n : f.nodes) {
    std::string name = plan_name(n);
    PlanNode& pn = p.nodes[name];
    if (++seen[name] > 1) {
      pn.count = seen[name];
      pn.guid = 0;
    } else {
      pn.guid = n.info.node_guid;
      pn.type = n.info.node_type;
    }
  }
  for (const Link& l : f.links()) {
    PlanLink pl;
    pl.a = {plan_name(f.nodes[l.a.node]), l.a.port};
    pl.b = {plan_name(f.nodes[l.b.node]), l.b.port};
    const Port& pa = f.at(l.a);
    const Port& pb = f.at(l.b);
    const Node& na = f.nodes[l.a.node];
    const Port* ref = pa.info ? &pa : pb.info ? &pb : nullptr;
    if (ref) {
      const Node& nr = ref == &pa ? na : f.nodes[l.b.node];
      pl.lanes = mad::width_lanes(ref->info->width_active);
      pl.speed = link_generation(*ref->info, speed_caps(nr, *ref->info));
    }
    pl.where = "the fabric";
    // Two nodes of one name: the plan says so (ambiguous), the cables stay.
    p.by_end.try_emplace(pl.a, p.links.size());
    p.by_end.try_emplace(pl.b, p.links.size());
    p.links.push_back(std::move(pl));
  }
  return p;
}

}  // namespace rdma::ib
