#include "lib/mad/engine.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/dest_count.h"
#include "lib/mad/format.h"
#include "lib/mad/query_text.h"

namespace rdma::mad {

using dest_count::kSentBits;
using dest_count::kSentMask;
using dest_count::packed_route;
using dest_count::window_bits;

namespace {

// The low 32 bits are ours; the kernel (or the simulator) owns the high ones.
uint32_t tid_of(std::span<const uint8_t> mad) {
  return static_cast<uint32_t>(get_bits(mad, hdr::kTid.bit + 32, 32));
}

// 4.096 us x 2^v (IBA 13.4.6.2), in ms. v is a 5-bit field: a shift, not
// ldexp, whose call faults in a 60 KiB window of libm's tables mid-run.
double time_value_ms(uint64_t v) {
  return 4.096e-3 * static_cast<double>(uint64_t{1} << (v & 63));
}

// A query's route end as a key of Engine::dests_: "d" and a directed
// route's ports, or "l" and the DLID.
std::string route_key(const Query& q) {
  if (q.mad.mgmt_class() != kClassSmiDr) return "l" + std::to_string(q.to.lid);
  std::span<const uint8_t> path = q.mad.dr_path();
  return "d" + std::string(path.begin(), path.end());
}

}  // namespace

int give_up_window(const EngineConfig& c, bool group) {
  if (c.give_up <= 0) return 0;
  return std::min(2 * c.give_up * (std::max(c.retries, 0) + 1) * (group ? 2 : 1), 64);
}

std::string EngineStats::dropped_text() const {
  std::string out;
  if (dropped) {
    out = "dropped " + std::to_string(dropped) + (dropped == 1 ? " reply" : " replies") +
          " not matching their request (";
    bool first = true;
    for (const auto& [field, n] : dropped_by) {
      out += (first ? "" : ", ") + field + " " + std::to_string(n);
      first = false;
    }
    out += ")";
  }
  if (stray) out += (out.empty() ? "" : ", ") + std::to_string(stray) + " stray";
  return out;
}

std::string EngineStats::given_up_text() const {
  if (gave_up_on.empty()) return "";
  std::string out = "gave up on " + std::to_string(gave_up_on.size()) +
                    (gave_up_on.size() == 1 ? " destination (" : " destinations (");
  for (size_t i = 0; i < gave_up_on.size() && i < 3; ++i) out += (i ? ", " : "") + gave_up_on[i];
  out += gave_up_on.size() > 3 ? ", ...)" : ")";
  return out + ": " + std::to_string(given_up) + (given_up == 1 ? " query" : " queries") +
         " not sent";
}

std::string EngineStats::not_retried_text() const {
  if (!not_retried) return "";
  return std::to_string(not_retried) + (not_retried == 1 ? " query" : " queries") +
         " not retried: most tries of the sweep went unanswered";
}

void Engine::set_budget(Budget b) {
  budget_ = b;
  budget_from_s_ = stats_.seconds;
  budget_from_answers_ = stats_.answered + stats_.status_errors;
}

// The run time allowed (base and earned since set_budget) minus what was
// spent before this run(), from `began`. Answers are counted as they come,
// so the loop asks again after each.
std::optional<Engine::Clock::time_point> Engine::budget_due(Clock::time_point began) const {
  if (budget_.base_ms <= 0) return std::nullopt;
  uint64_t answers = stats_.answered + stats_.status_errors - budget_from_answers_;
  double allowed =
      budget_.base_ms / 1e3 + static_cast<double>(answers) * budget_.per_answer_us / 1e6;
  double left = allowed - (stats_.seconds - budget_from_s_);
  return began + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(left));
}

uint32_t Engine::new_tid() {
  if (next_tid_ == 0)  // not 0, and unlike the last run's, so stale replies do not match
    next_tid_ = (static_cast<uint32_t>(getpid()) << 16) ^
                static_cast<uint32_t>(Clock::now().time_since_epoch().count());
  if (++next_tid_ == 0) ++next_tid_;
  return next_tid_;
}

// A directed route's end (its path), or the DLID: the node that serves it.
Engine::Dest& Engine::route_dest(const Query& q) {
  auto [d, added] = add_dest(route_key(q));
  if (added) {
    d->limited = q.mad.mgmt_class() != kClassSa;
    // Probes sent to this route before it had a Dest, or what a Dest of it
    // retired left: counted on, once.
    if (std::optional<uint64_t> p = packed_route(d->key.view())) {
      uint64_t v = probe_sent_.take(*p);
      d->sent = v & kSentMask;
      d->recent_count = static_cast<uint8_t>(v >> kSentBits);
    }
  }
  return *d;
}

// "dr 0,1,3", "lid 4", "behind 0x...", "behind dr 0,1": from the key
// route_dest and dest_of give it; a probe's route's too (count_sent).
namespace {
std::string key_text(std::string_view k) {
  auto path = [&k](std::string out) {
    for (size_t i = 1; i < k.size(); ++i) out += "," + std::to_string(static_cast<uint8_t>(k[i]));
    return out;
  };
  switch (k[0]) {
    case 'd':
      return path("dr 0");
    case 'g':
      return path("behind dr 0");
    case 'G': {  // the GUID's bytes, most significant first
      uint64_t guid = 0;
      for (size_t i = 1; i < k.size(); ++i) guid = guid << 8 | static_cast<uint8_t>(k[i]);
      return "behind " + guid_hex(guid);
    }
    default:  // 'l'
      return "lid " + std::string(k.substr(1));
  }
}
}  // namespace
std::string Engine::Dest::text() const {
  static_assert(sizeof(Dest) <= 72, "6,902 destinations live at a discovery's peak: keep it small");
  return key_text(key.view());
}

std::string Engine::what_of(const Query& q) {
  return q.what.empty() ? query_text(q.mad, q.to) : q.what;
}

// Where a try counts for EngineStats::busiest: its route end's Dest (at),
// or for a probe whose route no Dest serves, the route's count in
// probe_sent_ (at null; a route too long to pack gets a Dest). A probe's
// is looked up at each try, not kept: the Dest it found may be retired
// before the next.
uint64_t& Engine::count_sent(const Flight& f, Dest*& at) {
  at = f.dest;
  if (!f.dest->group) return f.dest->sent;
  std::string key = route_key(f.q);
  std::optional<uint64_t> p = packed_route(key);
  Dest* d = find_dest(key);
  at = nullptr;
  if (!d && p) return probe_sent_[*p];
  at = d ? d : &route_dest(f.q);
  return at->sent;
}

// Where a query waits its turn: its route's end, or for a probe of an
// unknown node the port group of the known node before it (the route
// without its last hop), whichever node the probe turns out to reach.
Engine::Dest& Engine::dest_of(const Query& q) {
  std::span<const uint8_t> path = q.mad.dr_path();
  if (!q.unknown_end || path.empty()) return route_dest(q);
  std::string key;
  if (q.behind) {  // the node, not the route: one group whichever way
    key = "G";
    for (int shift = 56; shift >= 0; shift -= 8) key += static_cast<char>(q.behind >> shift);
  } else {
    key = "g" + std::string(path.begin(), path.end() - 1);
  }
  auto [d, added] = add_dest(std::move(key));
  if (added) d->group = true;
  return *d;
}

bool Engine::may_start(const Dest& d) const {
  if (d.pending.empty()) return false;
  if (!d.limited || c_.per_node == 0) return true;
  return d.in_flight < std::max<size_t>(c_.per_node, 1);
}

// Back in a ring when it may start another query: the idle one when it has
// nothing in flight.
void Engine::ring(Dest& d) {
  if (c_.per_node == 0 || !may_start(d)) return;
  bool idle = d.in_flight == 0;
  bool& in = idle ? d.in_idle : d.in_ring;
  if (in) return;
  in = true;
  (idle ? idle_ : ring_).push_back(&d);
}

// The timeout the node asks for (IBA 13.4.6.2: the subnet's propagation
// time plus the port's response time), from a good reply that says it.
void Engine::learn(Dest& d, const Mad& reply) {
  uint16_t attr = static_cast<uint16_t>(reply.get(hdr::kAttrId));
  uint8_t cls = reply.mgmt_class();
  double ms = 0;
  if ((cls == kClassSmiDr || cls == kClassSmiLid) && attr == kPortInfo.id &&
      reply.get(hdr::kAttrMod) == 0) {
    ms = time_value_ms(reply.get_attr(kPortInfo, "SubnetTimeOut")) +
         time_value_ms(reply.get_attr(kPortInfo, "RespTimeValue"));
  } else if (cls == kClassPerf && attr == kClassPortInfo.id) {
    ms = time_value_ms(reply.get_attr(kClassPortInfo, "RespTimeValue"));
  } else {
    return;
  }
  int lo = std::min(c_.min_timeout_ms, c_.timeout_ms);
  d.timeout_ms = static_cast<int>(std::clamp<double>(std::ceil(ms), lo, c_.timeout_ms));
}

void Engine::submit(Query q) {
  q.mad.set(hdr::kTid, new_tid());
  Dest& d = dest_of(q);
  ++pending_;
  if (d.given_up) {
    doomed_.emplace_back(std::move(q), &d);
    return;
  }
  d.pending.push(std::move(q));
  if (c_.per_node == 0)
    fifo_.push_back(&d);
  else
    ring(d);
}

void Engine::start(Query q, Dest& d) {
  uint32_t tid = tid_of(q.mad.bytes);
  Flight& f = flights_[tid];
  f.q = std::move(q);
  f.dest = &d;
  f.timeout_ms = d.timeout_ms ? d.timeout_ms : c_.timeout_ms;
  if (f.q.timeout_ms > 0) f.timeout_ms = std::min(f.timeout_ms, f.q.timeout_ms);
  ++d.in_flight;
  f.tids.push_back(tid);
  tids_[tid] = tid;
  send(f);
}

void Engine::send(Flight& f) {
  ++f.tries;
  ++stats_.sent;
  Dest* at = nullptr;
  if (uint64_t n = ++count_sent(f, at) & kSentMask; n > stats_.busiest_sent) {
    stats_.busiest_sent = n;
    stats_.busiest = at ? at->text() : key_text(route_key(f.q));
  }
  f.deadline = t_.now() + std::chrono::milliseconds(f.timeout_ms);
  deadlines_.emplace(f.deadline, f.tids.front());
  if (trace) trace(">", f.q.mad.bytes);
  Address to = f.q.to;
  const uint8_t cls = f.q.mad.mgmt_class();
  to.pkey_index = cls == kClassSmiDr || cls == kClassSmiLid ? 0 : c_.gmp_pkey_index;
  t_.send(f.q.mad, to, f.timeout_ms);
}

void Engine::retry(uint32_t key, Flight& f) {
  uint32_t tid = new_tid();
  f.q.mad.set(hdr::kTid, tid);
  f.tids.push_back(tid);
  tids_[tid] = key;
  ++stats_.retried;
  send(f);
}

void Engine::withdraw(Query q) {
  ++stats_.withdrawn;
  Failure failure{Failure::Kind::Withdrawn, 0, 0, "not sent: " + what_of(q)};
  if (q.done) q.done(nullptr, &failure);
}

// The tries of a query that ended: a destination whose tries go
// unanswered, in a row, past its allowance is given up on. An answer at the
// first try clears the count; one after retries keeps the retries counted
// (a node that answers each query at its last try costs T a query, k at a
// time, as much as one that never answers). While the sweep is failing,
// two queries unanswered in a row: not two tries, or a node that answers
// all but one kind of query (a PMA silent on PortSamplesControl, one query
// a node) would be given up on. Not while the deadline or the budget
// ends the run (end_at_deadline): every query ends then anyway.
//
// And by its answer ratio: at least half of its last give_up_window()
// tries unanswered, judged try by try, gives it up whatever it answered in
// between. So before it is given up its unanswered tries are fewer than
// its answered ones plus that window (a window's worth at the start, then
// less than half of each window's worth): a node that answers every other
// query at once costs the window, not C/(2k) queries' tries (man rdma,
// TIME BOUND; engine_bound_test).
void Engine::count_tries(Dest& d, const Flight& f, bool answered) {
  if (c_.give_up <= 0 || c_.per_node == 0 || !d.limited || d.given_up) return;
  int tries = std::max(c_.retries, 0) + 1;
  // A query left unanswered while the sweep is failing (one try, not
  // retried) counts as one that ran out of its tries.
  int lost = answered ? f.tries - 1 : failing() ? std::max(f.tries, tries) : f.tries;
  const int n = give_up_window(c_, d.group);
  const uint64_t last = window_bits(n);
  bool poor = false;
  for (int i = 0; i < lost + (answered ? 1 : 0); ++i) {
    bool unanswered = i < lost;
    d.recent = d.recent << 1 | (unanswered ? 1 : 0);
    d.recent_count = static_cast<uint8_t>(std::min(d.recent_count + 1, n));
    poor = poor || (unanswered && d.recent_count >= n && 2 * std::popcount(d.recent & last) >= n);
  }
  if (answered && f.tries == 1) {
    d.unanswered = 0;
    return;
  }
  d.unanswered += lost;
  int allowed = c_.give_up * tries * (d.group ? 2 : 1);
  if (d.unanswered >= allowed || poor) give_up(d);
}

// Its waiting queries end unsent, at the top of run()'s next turn (their
// callbacks may submit more, which end the same way), and those in flight
// at once (expire()): their replies, if any come, are strays.
void Engine::give_up(Dest& d) {
  d.given_up = true;
  stats_.gave_up_on.push_back(d.text());
  while (!d.pending.empty()) doomed_.emplace_back(d.pending.pop(), &d);
  for (auto& [key, f] : flights_)
    if (f.dest == &d) {
      f.abandoned = true;
      f.deadline = t_.now();
      deadlines_.emplace(f.deadline, key);
    }
}

namespace {
// Whether a query's tries judge the sweep (EngineConfig::failing_tries):
// not one asked once for a value with a default (Query::retries 0, a
// PMA's PortXmitWait tick), whose silence is common (every ibsim PMA's)
// and says nothing of the fabric's health. A counter window asks 99 ticks
// at once on a 100-node tree: their silence filled the last 32 tries, and
// the next sweep's first lost reply ended its query unretried
// (errors_test, SilentTicksCostOneTryEachAndNoOtherQueryItsRetries).
bool judges_sweep(const Query& q) {
  return q.retries != 0;
}
}  // namespace

// A try ended: answered (a reply, or a status), or its timeout passed.
void Engine::note_try(bool answered) {
  if (c_.failing_tries <= 0) return;
  recent_tries_ = recent_tries_ << 1 | (answered ? 0 : 1);
  recent_count_ = std::min(recent_count_ + 1, std::min(c_.failing_tries, 64));
}

// At least half of the last failing_tries tries unanswered.
bool Engine::failing() const {
  int n = std::min(c_.failing_tries, 64);
  if (c_.per_node == 0 || n <= 0 || recent_count_ < n) return false;
  uint64_t last = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
  return 2 * std::popcount(recent_tries_ & last) >= n;
}

Failure Engine::given_up_failure(const Query& q, const Dest& d, bool sent) {
  ++stats_.given_up;
  return {Failure::Kind::Timeout, 0, 0,
          (sent ? "no reply to " : "not sent: ") + what_of(q) + ": gave up on " +
              (d.group ? "the probes " + d.text() : d.text()) + " (" + why_given_up(d) + ")"};
}

// "8 tries in a row unanswered", or by its answer ratio "9 of its last 16
// tries unanswered".
std::string Engine::why_given_up(const Dest& d) const {
  int allowed = c_.give_up * (std::max(c_.retries, 0) + 1) * (d.group ? 2 : 1);
  if (d.unanswered >= allowed) return std::to_string(d.unanswered) + " tries in a row unanswered";
  const int n = give_up_window(c_, d.group);
  const uint64_t last = window_bits(n);
  return std::to_string(std::popcount(d.recent & last)) + " of its last " + std::to_string(n) +
         " tries unanswered";
}

void Engine::end_given_up(Query q, const Dest& d) {
  if (q.wanted && !q.wanted()) return withdraw(std::move(q));
  ++stats_.timeouts;
  Failure failure = given_up_failure(q, d, false);
  if (q.done) q.done(nullptr, &failure);
}

void Engine::finish(uint32_t key, const Mad* reply, const Failure* failure) {
  auto it = flights_.find(key);
  if (it == flights_.end()) return;
  Query q = std::move(it->second.q);
  Dest& d = *it->second.dest;
  // A status is an answer: the node is there.
  count_tries(d, it->second, reply || failure->kind == Failure::Kind::Status);
  for (uint32_t tid : it->second.tids) tids_.erase(tid);
  flights_.erase(it);
  --d.in_flight;
  if (reply) {
    ++stats_.answered;
    learn(d, *reply);
  } else if (failure->kind == Failure::Kind::Timeout) {
    ++stats_.timeouts;
  } else if (failure->kind == Failure::Kind::Status) {
    ++stats_.status_errors;
  } else {
    ++stats_.malformed;
  }
  ring(d);
  if (q.done) q.done(reply, failure);
  retire(d);  // unless the callback asked it more
}

void Engine::on_receive(const Received& r) {
  // A send's failure report (umad's timeout) holds our request, not a reply.
  if (trace && !r.status) trace("<", r.bytes);
  if (r.bytes.size() < 16) return;  // no TID to match; the request times out
  uint32_t tid = tid_of(r.bytes);
  auto alias = tids_.find(tid);
  if (alias == tids_.end()) {  // foreign, a duplicate, or for a finished query
    if (!r.status) ++stats_.stray;
    return;
  }
  uint32_t key = alias->second;
  Flight& f = flights_.at(key);
  if (r.status) {
    // umad gave our own send back: no reply within the timeout. Only the
    // current try's report counts.
    if (tid == f.tids.back()) {
      auto wait = std::chrono::milliseconds(f.timeout_ms);
      if (t_.now() - (f.deadline - wait) < wait / 2) {
        ++f.returned;
        f.return_status = r.status;
      }
      f.deadline = t_.now();
      deadlines_.emplace(f.deadline, key);  // due now: expire() runs next
    }
    return;
  }
  if (!get_bits(r.bytes, hdr::kResponse.bit, 1)) return;  // a request, not ours to answer
  // Checked where it arrives: a reply with our TID that does not answer the
  // request (class, method, attribute) or carries an error status ends it.
  // The TID matched one of the query's tries, maybe an earlier one than the
  // current: check the rest against the request as that try sent it.
  Mad request = f.q.mad;
  request.set(hdr::kTid, r.bytes.size() >= 16 ? get_bits(r.bytes, hdr::kTid.bit, 64) : 0);
  Mad reply;
  std::optional<Failure> failure = verify_reply(request, r.bytes, what_of(f.q), reply);
  // A LID-routed reply comes from the LID the request went to (its SLID is
  // the request's DLID, LMC path bits included); 0: the transport cannot say.
  if (!failure && f.q.mad.mgmt_class() != kClassSmiDr && f.q.to.lid &&
      f.q.to.lid != kPermissiveLid && r.slid && r.slid != f.q.to.lid) {
    failure =
        Failure{Failure::Kind::Malformed, 0, 0,
                "malformed reply to " + what_of(f.q) + ": from LID " + std::to_string(r.slid)};
    failure->field = "source LID";
  }
  if (failure && failure->kind == Failure::Kind::Malformed) {
    // Not this query's answer, though it carries its TID (a damaged reply,
    // or another's with its TID moved): dropped; the query waits on.
    ++stats_.dropped;
    ++stats_.dropped_by[failure->field];
    f.refused = std::move(failure);
  } else if (failure) {
    if (judges_sweep(f.q)) note_try(true);  // a status is an answer
    finish(key, nullptr, &*failure);
  } else {
    if (judges_sweep(f.q)) note_try(true);
    if (f.q.whole) *f.q.whole = r.bytes;
    finish(key, &reply, nullptr);
  }
}

void Engine::expire(Clock::time_point now) {
  while (!deadlines_.empty() && deadlines_.top().first <= now) {
    auto [deadline, key] = deadlines_.top();
    deadlines_.pop();
    auto it = flights_.find(key);
    if (it == flights_.end() || it->second.deadline != deadline) continue;  // stale
    Flight& f = it->second;
    if (f.abandoned) {
      Failure failure = given_up_failure(f.q, *f.dest, true);
      failure.tries = f.tries;
      finish(key, nullptr, &failure);
      continue;
    }
    if (judges_sweep(f.q)) note_try(false);
    // A query's own retry count (Query::retries) where it has one.
    int retries = f.q.retries < 0 ? c_.retries : f.q.retries;
    bool cut = f.tries <= retries && failing();
    if (f.tries <= retries && !cut) {
      retry(key, f);
      continue;
    }
    if (cut) ++stats_.not_retried;
    // Only replies that did not answer it: the last of them names why.
    if (f.refused) {
      Failure failure = std::move(*f.refused);
      failure.tries = f.tries;
      if (cut) failure.message += " (not retried: most tries of the sweep went unanswered)";
      finish(key, nullptr, &failure);
      continue;
    }
    // Said as it happened: every try refused at once by the local port
    // (no route, a port that is down) is not a wait of tries x timeout.
    bool returned = f.returned == f.tries;
    std::string tries = std::to_string(f.tries) + (f.tries == 1 ? " try" : " tries");
    Failure failure{
        Failure::Kind::Timeout, f.tries, 0,
        "no reply to " + what_of(f.q) + " (" +
            (returned ? tries + (f.tries == 1 ? ", given" : ", each given") +
                            " back at once by the local port: " + std::strerror(f.return_status)
                      : tries + " of " + std::to_string(f.timeout_ms) + " ms") +
            (cut ? ", not retried: most tries of the sweep went unanswered" : "") + ")"};
    failure.returned = returned;
    finish(key, nullptr, &failure);
  }
}

void Engine::drop_stale_deadlines() {
  while (!deadlines_.empty()) {
    auto it = flights_.find(deadlines_.top().second);
    if (it != flights_.end() && it->second.deadline == deadlines_.top().first) return;
    deadlines_.pop();
  }
}

// Every query still pending or in flight ends without its reply; done
// callbacks may submit more, which end the same way.
void Engine::end_at_deadline(const std::string& why) {
  // The queries ending here unanswered judge no node (count_tries). For
  // this run only, not while EngineStats::budget_spent stays set (the
  // command's warning): a watch's next sweep, under a budget of its own,
  // gives up on a silent node as the sweeps before the cut did.
  struct Restore {
    int& give_up;
    int was;
    ~Restore() { give_up = was; }
  } restore{c_.give_up, c_.give_up};
  c_.give_up = 0;
  while (pending_ || !flights_.empty()) {
    if (!doomed_.empty()) {
      Query q = std::move(doomed_.front().first);
      doomed_.pop_front();
      --pending_;
      Failure failure{Failure::Kind::Timeout, 0, 0, why + ": not sent: " + what_of(q)};
      ++stats_.timeouts;
      if (q.done) q.done(nullptr, &failure);
      continue;
    }
    if (!flights_.empty()) {
      Flight& f = flights_.begin()->second;
      Failure failure{Failure::Kind::Timeout, f.tries, 0, why + ": no reply to " + what_of(f.q)};
      finish(flights_.begin()->first, nullptr, &failure);
      continue;
    }
    // Pointers, not iterators: a callback's submit may add to dests_. In
    // the order they were made, whichever slots they reuse.
    std::vector<Dest*> waiting;
    for (Dest& d : dests_)
      if (!d.pending.empty()) waiting.push_back(&d);
    std::sort(waiting.begin(), waiting.end(),
              [](const Dest* a, const Dest* b) { return a->order < b->order; });
    for (Dest* d : waiting) {
      while (!d->pending.empty()) {
        Query q = d->pending.pop();
        --pending_;
        Failure failure{Failure::Kind::Timeout, 0, 0, why + ": not sent: " + what_of(q)};
        ++stats_.timeouts;
        if (q.done) q.done(nullptr, &failure);
      }
    }
  }
  while (!deadlines_.empty()) deadlines_.pop();
  for (Dest* d : ring_) d->in_ring = false;
  for (Dest* d : idle_) d->in_idle = false;
  ring_.clear();
  idle_.clear();
  fifo_.clear();
}

void Engine::run(const std::function<bool()>& until) {
  size_t window = std::max<size_t>(c_.window, 1);
  Clock::time_point began = t_.now();
  while ((pending_ || !flights_.empty()) && !(until && until())) {
    if (c_.deadline && t_.now() >= *c_.deadline) {
      stats_.deadline_reached = true;
      end_at_deadline("deadline reached");
      break;
    }
    std::optional<Clock::time_point> budget = budget_due(began);
    if (budget && t_.now() >= *budget) {
      stats_.budget_spent = true;
      stats_.budget_answers = stats_.answered + stats_.status_errors - budget_from_answers_;
      stats_.budget_seconds = budget_.base_ms / 1e3 + static_cast<double>(stats_.budget_answers) *
                                                          budget_.per_answer_us / 1e6;
      end_at_deadline("time budget spent");
      break;
    }
    if (!doomed_.empty()) {  // then the loop's test again: the run may be over
      while (!doomed_.empty()) {
        auto [q, d] = std::move(doomed_.front());
        doomed_.pop_front();
        --pending_;
        end_given_up(std::move(q), *d);
      }
      continue;
    }
    // One query from each destination in turn: a node's queries do not
    // fill the window while the others' wait behind them.
    while (flights_.size() < window && !(idle_.empty() && ring_.empty() && fifo_.empty())) {
      std::deque<Dest*>& from = !fifo_.empty() ? fifo_ : !idle_.empty() ? idle_ : ring_;
      Dest& d = *from.front();
      from.pop_front();
      (&from == &idle_ ? d.in_idle : d.in_ring) = false;
      if (!may_start(d)) {
        retire(d);  // its last query started from the other ring: this entry was its last
        continue;
      }
      Query q = d.pending.pop();
      --pending_;
      if (q.wanted && !q.wanted()) {
        withdraw(std::move(q));
        ring(d);
        retire(d);
        continue;
      }
      start(std::move(q), d);
      ring(d);
    }
    drop_stale_deadlines();
    Clock::time_point next = deadlines_.empty() ? Clock::time_point::max() : deadlines_.top().first;
    if (c_.deadline) next = std::min(next, *c_.deadline);
    if (budget) next = std::min(next, *budget);
    auto now = t_.now();
    int wait =
        next <= now || !doomed_.empty()
            ? 0
            : static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(next - now).count());
    if (std::optional<Received> r = t_.receive(wait)) on_receive(*r);
    expire(t_.now());
  }
  // Every query ended: the next ones (a watch's next sweep) try the
  // destinations given up on again.
  if (!pending_ && flights_.empty()) {
    for (Dest& d : dests_) {
      d.given_up = false;
      d.unanswered = 0;
      d.recent = 0;
      d.recent_count = 0;
    }
    probe_sent_.for_each([](uint64_t& v) { v &= kSentMask; });  // the retired ones'
  }
  stats_.seconds += std::chrono::duration<double>(t_.now() - began).count();
}

Mad Engine::call(const Mad& request, const Address& to, const std::string& what) {
  std::optional<Mad> reply;
  std::optional<Failure> failure;
  submit({request, to, what, [&](const Mad* r, const Failure* f) {
            if (r)
              reply = *r;
            else
              failure = *f;
          }});
  run();
  if (failure) throw MadError(*failure);
  return *reply;
}

}  // namespace rdma::mad
