#include "rdma/options.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

#include "lib/error.h"
#include "rdma/words.h"

namespace rdma {

namespace {

struct OptionSpec {
  char short_name;
  const char* long_name;
  bool takes_arg;
  // The shortest prefix that selects it: "-op" stays -o -p, not --openmetrics.
  size_t min_prefix = 2;
};

constexpr OptionSpec kOptions[] = {
    {'V', "version", false},
    {'h', "help", false},
    {'d', "details", false},
    {'j', "json", false},
    {'p', "pretty", false},
    {'r', "raw", false},
    {'o', "oneline", false},
    {'f', "force", false},
    {'b', "batch", true},
    {'n', "netns", true},
    // '\1' to '\10': long form only. -t is the timestamp, as in `ip -t
    // monitor`. --timeout is per MAD (infiniband-diags' -t); the kernel
    // answers netlink requests in microseconds, so its deadline is another
    // option with another default.
    {'\2', "timeout", true},
    {'\3', "kernel-timeout", true},
    {'\1', "retries", true},
    {'\4', "window", true},
    {'\5', "sa", false},
    {'w', "watch", true},
    {'c', "count", true},
    {'t', "timestamp", false},
    {'\6', "openmetrics", false, 3},
    {'\7', "prometheus", false, 5},
    // "-no" stays -n o (netns "o"), as before the option.
    {'\10', "node-name-map", true, 4},
    {'\20', "show-keys", false},
    {'\21', "output", true, 3},
    {'\22', "mkey", true},
    {'\23', "yes", false},
    {'\24', "cckey", true},
    {'\25', "deadline", true, 3},
    {'q', "quiet", false},
    // "--co" stays --count, as before the option.
    {'\26', "config", true, 4},
    // infiniband-diags' -Y, --pkey-idx; "-pk" stays -p -k (an unknown
    // option) as before, so the long form needs "--pke".
    {'Y', "pkey-idx", true, 3},
    // "--mkey" in full stays the key; the file needs "--mkey-".
    {'\27', "mkey-file", true, 5},
    // ibtool's --discovery; "-di" stays -d -i (an unknown option).
    {'\30', "discovery", true, 3},
};

const OptionSpec* by_short(char c) {
  for (const OptionSpec& o : kOptions)
    if (o.short_name == c) return &o;
  return nullptr;
}

// A long name given in full or as an unambiguous prefix (getopt_long rules).
// The short letter itself is not a prefix match: "-d" is -d, "-dd" twice -d.
// iproute2 documents -Version with a capital; names compare case-blind.
const OptionSpec* by_long(std::string_view given) {
  if (given.size() < 2) return nullptr;
  std::string word(given);
  for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const OptionSpec* found = nullptr;
  for (const OptionSpec& o : kOptions) {
    std::string_view name = o.long_name;
    if (name == word) return &o;
    if (name.starts_with(word) && word.size() >= o.min_prefix) {
      if (found) return nullptr;
      found = &o;
    }
  }
  return found;
}

// A decimal count for --timeout MS / --retries N, at least min.
// Leading blanks and a sign as stoi took them.
int parse_count(const std::string& s, const char* name, int min) {
  std::optional<uint64_t> v = view::parse_number(
      s, {.min = static_cast<uint64_t>(min), .max = 3600000, .blanks_and_sign = true});
  if (!v)
    throw UsageError(std::string("invalid --") + name + " \"" + s +
                     "\" (expected a number, at least " + std::to_string(min) + ")");
  return static_cast<int>(*v);
}

// --deadline SECONDS: a positive number of seconds, fractions allowed.
double parse_seconds(const std::string& s, const char* name) {
  char* end = nullptr;
  double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !std::isfinite(v) || v <= 0 || v > 3600000)
    throw UsageError(std::string("invalid --") + name + " \"" + s +
                     "\" (expected a number of seconds, more than 0)");
  return v;
}

void apply(Options& opt, const OptionSpec& o, const std::string* arg) {
  switch (o.short_name) {
    case 'V':
      opt.version = true;
      break;
    case 'h':
      opt.help = true;
      break;
    case 'd':
      ++opt.details;
      break;
    case 'j':
      opt.json = true;
      break;
    case 'p':
      opt.pretty = true;
      break;
    case 'r':
      opt.raw = true;
      break;
    case 'o':
      opt.oneline = true;
      break;
    case 'f':
      opt.force = true;
      break;
    case 'b':
      opt.batch = *arg;
      break;
    case 'n':
      opt.netns = *arg;
      break;
    case '\2':
      opt.mad_timeout_ms = parse_count(*arg, "timeout", 1);
      opt.mad_timeout_given = true;
      break;
    case '\3':
      opt.kernel_timeout_ms = parse_count(*arg, "kernel-timeout", 1);
      break;
    case '\1':
      opt.mad_retries = parse_count(*arg, "retries", 0);
      break;
    case '\4':
      opt.mad_window = parse_count(*arg, "window", 1);
      break;
    case '\5':
      opt.sa = true;
      opt.lid_discovery = false;
      break;
    case '\30':
      // The last of --sa and --discovery given wins.
      if (*arg != "dr" && *arg != "lid" && *arg != "sa")
        throw UsageError("invalid --discovery \"" + *arg + "\" (expected lid, dr or sa)");
      opt.sa = *arg == "sa";
      opt.lid_discovery = *arg == "lid";
      break;
    case 'w':
      opt.watch_s = parse_count(*arg, "watch", 1);
      break;
    case 'c':
      opt.count = parse_count(*arg, "count", 1);
      break;
    case 't':
      opt.timestamp = true;
      break;
    case '\6':
      opt.exposition = Options::Exposition::OpenMetrics;
      break;
    case '\7':
      opt.exposition = Options::Exposition::Prometheus;
      break;
    case '\10':
      if (arg->empty()) throw UsageError("empty FILE after \"--node-name-map\"");
      opt.node_name_map = *arg;
      break;
    case '\20':
      opt.show_keys = true;
      break;
    case '\21':
      if (arg->empty()) throw UsageError("empty FILE after \"--output\"");
      opt.output = *arg;
      break;
    case '\22': {
      std::optional<uint64_t> key = view::parse_number(*arg, {.c_bases = true});
      if (!key) throw UsageError("invalid --mkey \"" + *arg + "\" (expected a 64-bit number)");
      opt.mkey = *key;
      break;
    }
    case '\23':
      opt.yes = true;
      break;
    case '\24': {
      std::optional<uint64_t> key = view::parse_number(*arg, {.max = UINT64_MAX, .c_bases = true});
      if (!key)
        throw UsageError("invalid --cckey \"" + *arg + "\" (expected a number, decimal or 0x hex)");
      opt.cc_key = *key;
      break;
    }
    case '\25':
      opt.deadline_s = parse_seconds(*arg, "deadline");
      opt.deadline_text = *arg;
      break;
    case 'q':
      opt.quiet = true;
      break;
    case '\26':
      opt.config = *arg;
      break;
    case 'Y': {
      std::optional<uint64_t> index =
          view::parse_number(*arg, {.max = UINT16_MAX, .c_bases = true});
      if (!index)
        throw UsageError("invalid --pkey-idx \"" + *arg +
                         "\" (expected a P_Key table index, 0-65535)");
      opt.pkey_index = static_cast<uint16_t>(*index);
      break;
    }
    case '\27':
      if (arg->empty()) throw UsageError("empty FILE after \"--mkey-file\"");
      opt.mkey_file = *arg;
      break;
  }
}

}  // namespace

Options parse_options(std::vector<std::string>& args) {
  Options opt;
  auto is_option = [](const std::string& a) { return a.size() >= 2 && a[0] == '-'; };
  // Most batch lines have no option: nothing to take out (copying the words
  // was 4% of a batch line).
  if (std::none_of(args.begin(), args.end(), is_option)) return opt;
  std::vector<std::string> rest;
  rest.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {  // everything after is an argument
      rest.insert(rest.end(), std::make_move_iterator(args.begin() + i + 1),
                  std::make_move_iterator(args.end()));
      break;
    }
    if (!is_option(a)) {
      rest.push_back(std::move(args[i]));
      continue;
    }
    // has_eq: "--OPT=VALUE" (the value, empty or not, is what follows '=':
    // "--OPT=" followed by a word must not take the word).
    auto take_arg = [&](const OptionSpec& o, std::string inline_arg, bool has_eq) {
      if (has_eq && inline_arg.empty())
        throw UsageError(std::string("option \"--") + o.long_name + "\" has an empty value (\"--" +
                         o.long_name + "=\")");
      if (!inline_arg.empty()) return apply(opt, o, &inline_arg);
      if (i + 1 >= args.size())
        throw UsageError(std::string("option \"--") + o.long_name + "\" needs an argument");
      apply(opt, o, &args[++i]);
    };
    std::string_view body = std::string_view(a).substr(a[1] == '-' ? 2 : 1);
    std::string inline_arg;
    bool has_eq = false;
    if (auto eq = body.find('='); a[1] == '-' && eq != std::string_view::npos) {
      inline_arg = std::string(body.substr(eq + 1));
      body = body.substr(0, eq);
      has_eq = true;
    }
    if (const OptionSpec* o = by_long(body)) {
      if (o->takes_arg) {
        take_arg(*o, inline_arg, has_eq);
      } else {
        if (has_eq)  // getopt_long's rule: a flag takes no value
          throw UsageError(std::string("option \"--") + o->long_name + "\" takes no value");
        apply(opt, *o, nullptr);
      }
      continue;
    }
    if (a[1] == '-') throw UsageError("unknown option \"" + a + "\"");
    // A cluster of short options: -jp, -dd, -bFILE.
    for (size_t k = 1; k < a.size(); ++k) {
      const OptionSpec* o = by_short(a[k]);
      if (!o) throw UsageError("unknown option \"" + a + "\"");
      if (o->takes_arg) {
        take_arg(*o, a.substr(k + 1), false);
        break;
      }
      apply(opt, *o, nullptr);
    }
  }
  args = std::move(rest);
  return opt;
}

void apply_ibdiag_conf(Options& opt, const ib::IbdiagConf& conf) {
  if (conf.ca) opt.default_via = *conf.ca + (conf.port ? "/" + std::to_string(*conf.port) : "");
  if (conf.timeout_ms && !opt.mad_timeout_given)
    opt.mad_timeout_ms = static_cast<int>(*conf.timeout_ms);
  if (conf.mkey && !opt.mkey) opt.mkey = conf.mkey;
}

}  // namespace rdma
