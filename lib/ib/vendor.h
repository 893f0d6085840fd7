// The vendor-class tools: ibping's ping (OpenIB class 0x32, answered with
// the server's host name), ibsysstat's queries (class 0x33: ping, host,
// cpu), their servers (ibping -S, ibsysstat -S), and vendstat's Mellanox
// GeneralInfo (class 0x0a). The front end (rdma node ping, sysstat,
// vendor) reads words and prints; the MADs are built in lib/mad/vendor.h.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "lib/ib/client.h"
#include "lib/mad/mad.h"
#include "lib/mad/transport.h"
#include "lib/mad/vendor.h"

namespace rdma::ib {

// An OUI is 24 bits: the largest the oui word takes.
inline constexpr uint32_t kOuiMax = 0xffffff;

// One ping's answer: the server's host name and the round trip in
// microseconds (ibping prints it as ms with three decimals).
struct Pong {
  std::string host;
  uint64_t rtt_us = 0;
};

// One ping to lid; throws MadError when it gets no good answer (after the
// engine's retries).
Pong ping(MadClient& c, uint16_t lid, uint32_t oui = mad::kOpenIbOui);

// ibping's statistics: pings sent, answered, the time the run took and the
// round trips (min, sum, max; microseconds), the first server's host.
struct PingSummary {
  std::string host;
  uint64_t transmitted = 0, received = 0;
  uint64_t elapsed_us = 0;
  uint64_t min_us = 0, total_us = 0, max_us = 0;
  uint64_t loss_percent() const {
    return transmitted ? (transmitted - received) * 100 / transmitted : 0;
  }
  uint64_t avg_us() const { return received ? total_us / received : 0; }
};

struct PingRun {
  uint64_t count = 0;  // pings to send; 0: until stopped
  bool flood = false;  // no pause between pings (ibping -f)
  uint32_t oui = mad::kOpenIbOui;
};

// Pings as ibping does: one a second (flood: back to back), each answer
// given to pong, each failure to lost (its message); wait(ms) pauses
// between pings and returns false when the run is to stop (a signal).
PingSummary ping_run(MadClient& c, uint16_t lid, const PingRun& run,
                     const std::function<void(const Pong&)>& pong,
                     const std::function<void(const std::string&)>& lost,
                     const std::function<bool(int ms)>& wait);

// ibsysstat's queries.
enum class SysstatQuery { Ping, Host, Cpu };

// ibsysstat's query: the text the server answered (empty for a ping).
// Throws MadError.
std::string sysstat(MadClient& c, uint16_t lid, SysstatQuery q, uint32_t oui = mad::kOpenIbOui);

// vendstat -N: the Mellanox agent's ClassPortInfo (required of an agent
// of the class: a node without one fails here), then its GeneralInfo.
mad::MellanoxGeneralInfo mellanox_general_info(MadClient& c, uint16_t lid);

// What a server answers with: its host name (and domain, as the diags'
// servers give it) and, for sysstat's cpu, a line per CPU.
struct ServeInfo {
  std::string host;
  std::string cpus;
  uint32_t oui = mad::kOpenIbOui;  // the OUI served (the diags' -o)
  // The local P_Key table index the answers leave with (-Y), as every
  // GMP the engine sends.
  uint16_t pkey_index = 0;
};

// This machine's: gethostname, getdomainname, /proc/cpuinfo.
ServeInfo local_serve_info();

// ibsysstat's cpu lines from /proc/cpuinfo's text: "cpu N: model M MHZ F".
std::string cpu_lines(const std::string& cpuinfo);

// The answer a server of mgmt_class (kClassOpenIbPing or Sysstat) and oui
// gives m; nullopt when m is not such a request. A sysstat attribute it
// does not know is answered with status "unsupported method/attribute".
std::optional<mad::Mad> vendor_answer(uint8_t mgmt_class, uint32_t oui, const ServeInfo& info,
                                      const mad::Mad& m);

// The diags' servers: ibping -S's and ibsysstat -S's.
enum class VendorServer { Ping, Sysstat };

// Serves one of them on t (info.oui): registers for its requests (t must be a
// mad::Serving, else Error), answers each to where it came from, until
// count were answered (0: no limit) or stop() says so (asked at least
// every 200 ms). Each answer's requester's LID goes to answered. Returns
// how many were answered.
uint64_t vendor_serve(mad::Transport& t, VendorServer which, const ServeInfo& info, uint64_t count,
                      const std::function<bool()>& stop,
                      const std::function<void(uint16_t lid)>& answered = {});

}  // namespace rdma::ib
