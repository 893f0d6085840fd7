// The asynchronous MAD core: up to `window` requests in flight, each with
// its own deadline and retries, at most `per_node` of them to any one
// destination (a switch's SMA serves one MAD at a time: the window is
// spread across nodes, their queries interleaved; bench/latency_results.md). A reply is believed
// only when it matches its request in everything the request fixed (verify_reply: TID, versions,
// class, method, attribute and modifier, a directed route's way back; a
// LID-routed reply's source): anything else is counted and dropped, and the
// query waits for its own reply or times out. Single-target commands send one request through
// call(); fabric discovery submits many.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <queue>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lib/mad/key_index.h"
#include "lib/mad/query_queue.h"
#include "lib/mad/result.h"
#include "lib/mad/route_counts.h"
#include "lib/mad/short_key.h"
#include "lib/mad/transport.h"

namespace rdma::mad {

// What the tool sends to one node at once: a switch's SMA serves one MAD at
// a time, so a second waiting keeps it busy and more only queue there. Also
// the probes in flight behind one known node's ports (Query::unknown_end).
inline constexpr size_t kPerNode = 2;
// How many queries' worth of tries one node may leave unanswered in a row
// before the tool gives up on it (EngineConfig::give_up): a node that
// answers nothing, or nothing but damaged replies, or every query only
// after its retries, would otherwise hold its queue of queries k at a time
// for every try of each (a switch's sweep of 39 queries, 4 s each, 80 s).
// And how many queries' worth of its last tries judge a node by its
// answer ratio: 2 x kGiveUp x (retries+1) tries (give_up_window), half of
// them unanswered give it up, so a node that answers every other query at
// once and leaves the rest unanswered is not kept (man rdma, TIME BOUND).
inline constexpr int kGiveUp = 2;
// How many of the last tries judge whether a sweep is failing
// (EngineConfig::failing_tries): enough that a node or two that do not
// answer, among nodes that do, are not a failing fabric.
inline constexpr int kFailingTries = 32;

struct EngineConfig {
  int timeout_ms = 1000;  // per try, like infiniband-diags
  int retries = 3;        // tries after the first
  size_t window = 8;      // requests in flight
  // Requests in flight to one destination (a directed route's end, a
  // DLID); the SA, a host's daemon, is not limited. A destination given up
  // on (give_up) stays limited: its queries end without being sent.
  // 0: no limit, queries started in the order submitted (the engine before
  // per-destination scheduling, and bench/'s model of other tools). The
  // tool's sessions use kPerNode (lib/ib/engine_config.cc).
  size_t per_node = 0;
  // With per_node: a destination whose tries went unanswered give_up x
  // (retries+1) times in a row (no query answered at its first try in
  // between: timeouts, damaged replies, answers only after retries) is
  // given up on: its queries waiting, and those submitted to it later, end
  // at once unsent (Failure::Kind::Timeout, tries 0, the message naming
  // it), those in flight at once too. A probe group (Query::unknown_end) is many nodes, so it takes
  // twice as many. Until every query has ended (the end of a run() that
  // leaves nothing behind: a watch's next sweep tries it again).
  // While the sweep is failing (failing_tries), an unanswered query counts
  // as one that spent all its tries: two in a row give the node up.
  // Also given up on: a destination at least half of whose last
  // give_up_window() tries went unanswered (once that many have ended),
  // whatever it answered in between: a node answering every other query
  // at once is not kept, while one losing a try now and then is.
  // 0: never (the engine before, bench/'s model of other tools); the
  // tool's sessions use kGiveUp.
  int give_up = 0;
  // With per_node: while at least half of the last failing_tries tries
  // (once that many have ended) went unanswered (no reply, or none that
  // answered the request, within its timeout), the sweep is failing and an
  // unanswered try is not retried: the query ends (Timeout, or the reply
  // that did not answer it). A sick fabric then costs each step one
  // timeout, not R+1, and a step waiting on its slowest query is not held
  // R+1 timeouts by whichever query lost every try. Judged try by try, so
  // a fabric that recovers is retried again. At most 64; 0: never (the
  // engine before, bench/'s model of other tools); the tool's sessions use
  // kFailingTries.
  int failing_tries = 0;
  // What a node says of its response time (PortInfo SubnetTimeOut and
  // RespTimeValue of its port 0, or of the port asked with modifier 0; a
  // ClassPortInfo's RespTimeValue) sets the timeout of the queries to it
  // that follow (IBA 13.4.6.2), kept within [min_timeout_ms, timeout_ms].
  int min_timeout_ms = 50;
  // --deadline: when reached, nothing more is sent and every query not
  // answered yet ends as a Timeout ("deadline reached: ..."); none: no cap.
  std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt;
  // The P_Key index every GMP (SA, PerfMgt, CC: any class but the SMI's)
  // is sent with (infiniband-diags' -Y), for fabrics whose management
  // traffic runs on a partition other than the default one. SMPs always
  // leave with index 0, as the diags send them.
  uint16_t gmp_pkey_index = 0;
};

// A sweep's time budget (Engine::set_budget): the time spent in run()
// since it was set may not pass base_ms plus per_answer_us for every
// query answered since. When it would, the sweep ends as at a deadline
// (EngineStats::budget_spent): what was found is kept. A fabric that
// answers earns far more than it spends (a few to 150 us of wall time an
// answer, bench/latency_results.md), while one that answers late, or
// not at all, or damaged, cannot stretch a sweep past base_ms plus
// per_answer_us for each query the command asks (man rdma, TIME BOUND).
// 0 base_ms: no budget.
struct Budget {
  int base_ms = 0;
  int per_answer_us = 0;
};

// The last tries of a destination that judge its answer ratio
// (EngineConfig::give_up): 2 x give_up x (retries+1), twice that for a
// probe group (many nodes), at most 64; 0 when give_up is.
int give_up_window(const EngineConfig& c, bool group);

// Called once per query: the reply, checked against the request (class,
// method, attribute, status), or why there is none. One of the two is set.
using Done = std::function<void(const Mad* reply, const Failure* failure)>;

// What a run cost, for -d and bench/: MADs sent (tries included), tries that
// were retries, and queries that ended without a good reply, by kind; the
// replies dropped (carrying a query's TID but not answering it as sent, by
// what differed) and the stray ones (no query in flight has their TID:
// duplicates, late or foreign replies).
struct EngineStats {
  uint64_t sent = 0;
  uint64_t retried = 0;
  uint64_t answered = 0;
  uint64_t timeouts = 0;
  uint64_t status_errors = 0;
  uint64_t malformed = 0;
  uint64_t withdrawn = 0;  // queries not sent (Query::wanted)
  // Queries ended unsent as their destination was given up on
  // (EngineConfig::give_up; counted in timeouts too), or ended in flight,
  // and the destinations.
  uint64_t given_up = 0;
  std::vector<std::string> gave_up_on;  // "dr 0,1,3", "behind 0x...", "lid 4"
  // Queries ended before their retries as the sweep was failing
  // (EngineConfig::failing_tries; counted in timeouts or malformed too).
  uint64_t not_retried = 0;
  uint64_t dropped = 0;
  uint64_t stray = 0;
  std::map<std::string, uint64_t> dropped_by;  // "attribute" -> 3
  // The destination sent the most MADs ("dr 0,1,3", "lid 4") and how many.
  std::string busiest;
  uint64_t busiest_sent = 0;
  double seconds = 0;             // time spent in run(), on the transport's clock
  bool deadline_reached = false;  // EngineConfig::deadline cut the run short
  bool budget_spent = false;      // the Budget cut the run short
  // Its figures when it did: seconds allowed (base and earned), answers.
  double budget_seconds = 0;
  uint64_t budget_answers = 0;
  uint64_t failed() const { return timeouts + status_errors + malformed; }
  // "dropped 4 replies not matching their request (attribute 3, path 1),
  // 2 stray"; "" when none.
  std::string dropped_text() const;
  // "gave up on 2 nodes (dr 0,1,3, lid 4): 37 queries not sent"; "" when
  // none.
  std::string given_up_text() const;
  // "12 queries not retried: most tries of the sweep went unanswered"; ""
  // when none.
  std::string not_retried_text() const;
};

struct Query {
  Mad mad;
  Address to;
  // For messages: "NodeInfo from lid 4". Empty: made from the MAD and
  // the address when a message needs it (query_text), not kept per query.
  std::string what;
  Done done;
  // When set, a good reply's bytes as received: longer than one MAD when the
  // kernel reassembled an RMPP transfer (an SA table).
  std::vector<uint8_t>* whole = nullptr;
  // A directed-route probe of a node not known yet (discovery's NodeInfo
  // behind a port): probes through different ports may end at one node (a
  // switch's parallel links to one spine), which no one can tell before it
  // answers, so they are limited to per_node in flight per port group: the
  // known node the route's last hop leaves from.
  bool unknown_end = false;
  // The GUID of that known node, when the caller knows it: its probes then
  // share one limit whichever route they take to it.
  uint64_t behind = 0;
  // Asked just before the query is sent: false withdraws it unsent (a
  // question answered meanwhile another way); done then gets a Withdrawn
  // failure.
  std::function<bool()> wanted = nullptr;
  // Tries after the first for this query; negative: the engine's
  // (EngineConfig::retries). 0 asks once: a question with a documented
  // fallback (a PMA's PortXmitWait tick, lib/ib/lost_bandwidth.h) need not
  // wait out every retry of a PMA that leaves it unanswered.
  int retries = -1;
  // The longest one try of this query waits, in ms; 0: its destination's
  // (EngineConfig::timeout_ms, or what the node said of itself, kept
  // within min_timeout_ms..timeout_ms). Never longer than that: a caller
  // that knows its destination was silent lately (a watch's PMA,
  // lib/ib/errors.h) asks it briefly rather than holding a window slot
  // for the full timeout.
  int timeout_ms = 0;
};

class Engine {
 public:
  Engine(Transport& t, EngineConfig c) : t_(t), c_(c) {}

  // Queues a query; its TransactionID is assigned here.
  void submit(Query q);
  // Runs until every query has its reply or has run out of tries, or
  // until `until` (when given) holds after a reply: the queries left go on
  // with the next run(). done callbacks may submit more.
  void run(const std::function<bool()>& until = {});
  // One request; returns the checked reply or throws MadError (timeout,
  // malformed reply, bad status).
  Mad call(const Mad& request, const Address& to, const std::string& what);

  const EngineConfig& config() const { return c_; }
  // Sets the sweep's time budget from now (a fabric-wide command's, set as
  // its discovery starts): it counts run()'s time and the answers from
  // here on.
  void set_budget(Budget b);
  const EngineStats& stats() const { return stats_; }
  // The destinations held now, the retired ones not (tests, bench/).
  size_t destinations() const { return dest_index_.size(); }

  // Sees every MAD sent (">") and received ("<"), for -dd.
  std::function<void(const char* dir, std::span<const uint8_t> mad)> trace;

 private:
  using Clock = std::chrono::steady_clock;
  // Where queries go, each with its own queue: the ring of destinations
  // that may start one takes turns, so the window is spread across nodes.
  // Its members ordered so that it packs in 72 bytes (6,902 destinations
  // were met in a 4,768-node discovery, at most 3,066 of them held at once
  // since retire() lets the quiet ones go).
  struct Dest {
    explicit Dest(std::string_view k) : key(k) {}
    QueryQueue pending;
    // Its key ("d" and a route's ports, "l" and a DLID, "G" and a GUID's
    // bytes, "g" and a group's route): inline for routes of up to 14 hops
    // (ShortKey). The text derived from it when a message needs it
    // (text()).
    ShortKey key;
    // Its last tries, one bit each (1: unanswered), the newest lowest, and
    // how many (give_up_window).
    uint64_t recent = 0;
    // MADs sent to it (EngineStats::busiest); in a Dest retired, the
    // position + 1 of the next one free (Engine::free_dest_), 0: none.
    uint64_t sent = 0;
    uint32_t in_flight = 0;
    // When it was made (Engine::next_order_): end_at_deadline ends the
    // queries waiting in this order, whatever slot of dests_ it reuses.
    uint32_t order = 0;
    int unanswered = 0;  // tries unanswered in a row (EngineConfig::give_up)
    int timeout_ms = 0;  // 0: nothing learned, the configured one
    uint8_t recent_count = 0;
    bool in_ring = false;   // in ring_
    bool in_idle = false;   // in idle_
    bool given_up = false;  // its queries end unsent
    bool limited = true;    // not the SA
    bool group = false;     // probes behind a known node's ports, not one node
    std::string text() const;
  };
  struct Flight {
    Query q;
    Dest* dest = nullptr;  // scheduled by
    int timeout_ms = 0;
    int tries = 0;
    Clock::time_point deadline;
    std::vector<uint32_t> tids;  // one per try; the last is the current one
    // The last reply dropped as not answering this query: what it ends
    // with when no true reply comes.
    std::optional<Failure> refused;
    // Tries the local port gave back (a send's failure report) before half
    // their wait, and the last report's status.
    int returned = 0;
    int return_status = 0;
    bool abandoned = false;  // its destination was given up on: ends now
  };
  uint32_t new_tid();
  Dest& dest_of(const Query& q);
  Dest* find_dest(std::string_view key);
  std::pair<Dest*, bool> add_dest(std::string_view key);  // as try_emplace
  Dest& route_dest(const Query& q);
  void retire(Dest& d);
  uint64_t& count_sent(const Flight& f, Dest*& at);
  bool may_start(const Dest& d) const;
  void ring(Dest& d);
  void learn(Dest& d, const Mad& reply);
  void start(Query q, Dest& d);
  void send(Flight& f);
  void retry(uint32_t key, Flight& f);
  void on_receive(const Received& r);
  void expire(Clock::time_point now);
  void drop_stale_deadlines();
  void end_at_deadline(const std::string& why);
  // When the budget falls due in a run() that began at `began`; none
  // without a budget.
  std::optional<Clock::time_point> budget_due(Clock::time_point began) const;
  void finish(uint32_t key, const Mad* reply, const Failure* failure);
  void withdraw(Query q);
  void count_tries(Dest& d, const Flight& f, bool answered);
  void give_up(Dest& d);
  Failure given_up_failure(const Query& q, const Dest& d, bool sent);
  std::string why_given_up(const Dest& d) const;
  void end_given_up(Query q, const Dest& d);
  void note_try(bool answered);
  bool failing() const;
  // Query::what, or when empty the text made from its MAD (query_text).
  static std::string what_of(const Query& q);

  Transport& t_;
  EngineConfig c_;
  EngineStats stats_;
  uint32_t next_tid_ = 0;
  size_t pending_ = 0;  // queries not started yet
  // Every destination, found by key through dest_index_: a deque, so a
  // Dest stays where it is (flights and rings point at it), not a 144-byte
  // hash node each with its string key (bench/fabric_results.md). A Dest
  // retired (retire()) leaves its slot to the next one made: the free
  // slots are a list through their `sent`, free_dest_ its head (position
  // + 1; 0: none).
  std::deque<Dest> dests_;
  KeyIndex dest_index_;
  uint32_t free_dest_ = 0;
  uint32_t next_order_ = 0;  // Dest::order of the next one made
  // MADs sent to each probe's route end that no Dest serves (yet), for
  // EngineStats::busiest, by the route packed in 64 bits: a count, not a
  // 144-byte Dest, for the 9,500 routes a 5,000-node discovery probes
  // (bench/fabric_results.md). A Dest made for such a route takes its count.
  // A Dest retired leaves here its count, and in the bits above
  // kSentBits its recent_count (retire()).
  RouteCounts probe_sent_;
  // Destinations that may start a query: those with none in flight first
  // (idle_), so that a full window keeps as many nodes busy as it holds
  // MADs, rather than half as many each serving one and holding the next.
  std::deque<Dest*> idle_;
  std::deque<Dest*> ring_;  // the others (one in flight, or not limited)
  std::deque<Dest*> fifo_;  // per_node 0: the destinations of the queries in submit order
  // Queries of destinations given up on, to end unsent (counted in pending_).
  std::deque<std::pair<Query, const Dest*>> doomed_;
  // The last tries that ended, one bit each (1: unanswered), the newest
  // lowest, and how many of them there are (EngineConfig::failing_tries).
  uint64_t recent_tries_ = 0;
  int recent_count_ = 0;
  // The budget, and the run time and answers when it was set.
  Budget budget_;
  double budget_from_s_ = 0;
  uint64_t budget_from_answers_ = 0;
  // Each try has its own TID (low 32 bits; the kernel owns the high ones), so
  // a failure report for an old try cannot cut the current one short, while
  // a late reply to any try still answers the query.
  std::map<uint32_t, Flight> flights_;  // by the first try's TID
  std::map<uint32_t, uint32_t> tids_;   // every try's TID -> flights_ key
  // (deadline, flights_ key) of every try, the earliest on top: neither
  // finding nor expiring it walks all the flights. An entry whose flight is
  // gone or has a newer deadline is stale and skipped.
  using Deadline = std::pair<Clock::time_point, uint32_t>;
  std::priority_queue<Deadline, std::vector<Deadline>, std::greater<>> deadlines_;
};

}  // namespace rdma::mad
