// Global options. They may stand anywhere on the line, as with iproute2
// (whose getopt permutes argv); the single-dash long forms it documents
// (-json, -details, ...) work too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/ibdiag_conf.h"

namespace rdma {

struct Options {
  bool json = false;
  bool pretty = false;
  bool raw = false;
  bool oneline = false;  // -o: a record's line breaks become '\\' (iproute2's _SL_)
  bool force = false;
  bool version = false;
  bool help = false;
  int details = 0;  // -d, -dd
  std::optional<std::string> batch;
  std::optional<std::string> netns;
  // How long to wait for each datagram of a netlink reply
  // (--kernel-timeout MS; nl::kDefaultTimeoutMs, 5 s, when not given).
  int kernel_timeout_ms = 0;
  // MADs (node, port, perf, sm, mad): per-MAD timeout and retries, as in
  // infiniband-diags.
  int mad_timeout_ms = 1000;
  bool mad_timeout_given = false;  // --timeout was on the line (ibdiag.conf's yields)
  int mad_retries = 3;
  // MADs in flight at once (fabric commands send many): enough to keep a
  // fabric's switches busy together (bench/latency_results.md), fewer than
  // the simulator's umad2sim stalls at (512; bench/fabric_results.md).
  int mad_window = 256;
  // --sa: node and port views from the SA's records instead of SMPs.
  bool sa = false;
  // --discovery lid: the fabric found with LID-routed SMPs where nodes have
  // LIDs (lib/ib/lid_discover.h). `--discovery sa` is --sa, `dr` neither.
  bool lid_discovery = false;
  // --show-keys: M_Key, SM_Key and ServiceKey in clear, as infiniband-diags'
  // -K (else "<not displayed>").
  bool show_keys = false;
  // stat show / res (-w SECONDS, -c COUNT) and monitor (-c events,
  // --timestamp): 0 means not given.
  int watch_s = 0;
  int count = 0;
  bool timestamp = false;
  // --openmetrics, --prometheus: the counter views (statistic show, perf
  // show, fabric errors) as OpenMetrics text (Prometheus scrapes it) or the
  // older Prometheus text format (what node_exporter's textfile collector
  // reads).
  enum class Exposition : uint8_t { None, OpenMetrics, Prometheus };
  Exposition exposition = Exposition::None;
  // --output FILE: the metrics replace FILE when the run succeeds (and
  // only then: rdma/metrics_run.h).
  std::optional<std::string> output;
  // --node-name-map FILE: the InfiniBand views name nodes as the file says
  // (lib/ib/node_name_map.h; infiniband-diags' default file when not given).
  std::optional<std::string> node_name_map;
  // --mkey KEY: the M_Key every SMP carries (infiniband-diags' -y), for
  // ports whose M_Key protects them; unset: 0.
  std::optional<uint64_t> mkey;
  // --mkey-file FILE: M_Keys by port GUID (opensm's guid2mkey: "GUID
  // MKEY" lines); an SMP to a port in it carries that port's key.
  std::optional<std::string> mkey_file;
  // --pkey-idx IDX (infiniband-diags' -Y): the P_Key table index the GMPs
  // (SA, PMA, CC) leave with; SMPs always use 0. Unset: 0.
  std::optional<uint16_t> pkey_index;
  // --yes: the confirmation a subnet-wide change asks for (port set all).
  bool yes = false;
  // --cckey KEY: the CC_Key congestion control MADs carry (rdma cc; 0 when
  // not given, as ibccquery's -c).
  uint64_t cc_key = 0;
  // --deadline SECONDS: a MAD command stops sending when it is reached and
  // prints what it has (exit status 1); 0: no cap. deadline_text is how it
  // was given, for the warning.
  double deadline_s = 0;
  std::string deadline_text;
  // -q, --quiet: no progress line on stderr during long sweeps.
  bool quiet = false;
  // --config FILE: the ibdiag.conf to read instead of the site's
  // (infiniband-diags' -z). Its settings are defaults; the line wins.
  std::optional<std::string> config;
  // The local port MADs leave from when a command names none with `via`:
  // ibdiag.conf's CA (and Port); empty: the first active port.
  std::string default_via;
};

// Takes the options out of args, leaving the object and its arguments.
// Throws Error for an unknown option or a missing option argument.
Options parse_options(std::vector<std::string>& args);

// ibdiag.conf's settings as defaults of opt: CA (with Port) for `via`,
// timeout unless --timeout was given, m_key unless --mkey was. A Port
// without a CA is not used (a port number names no device).
void apply_ibdiag_conf(Options& opt, const ib::IbdiagConf& conf);

}  // namespace rdma
