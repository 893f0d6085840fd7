#include "rdma/command.h"

#include <algorithm>
#include <cstdint>

#include "lib/error.h"
#include "lib/verbs/verbs.h"
#include "rdma/words.h"

namespace rdma {

std::string Args::need(const char* what) {
  if (empty()) throw UsageError(std::string("missing ") + what);
  // No name, number or keyword this tool takes is empty: '' is a mistake.
  if (peek().empty()) throw UsageError(std::string("empty ") + what);
  return next();
}

std::string Args::need_word(const char* what) {
  if (empty()) throw UsageError(std::string("missing ") + what);
  return next();
}

std::string Args::need_value(const std::string& keyword, const char* what) {
  return need_word((std::string(what) + " after \"" + keyword + "\"").c_str());
}

std::optional<std::vector<uint8_t>> Args::need_port_list(const char* what) {
  std::string w = need_word(what);
  if (w == "all") return std::nullopt;
  view::NumberRule port{.max = 254};
  if (w.find_first_of(",-") == std::string::npos) return {{uint8_t(need_number(w, "port", port))}};
  std::vector<uint8_t> ports;
  for (uint64_t p : need_number_list(w, "port", port)) ports.push_back(static_cast<uint8_t>(p));
  return ports;
}

void Args::done() const {
  if (!empty()) throw UsageError("unexpected argument \"" + v_[i_] + "\"");
}

std::vector<std::string> Args::take_rest() {
  std::vector<std::string> rest(v_.begin() + static_cast<std::ptrdiff_t>(i_), v_.end());
  i_ = v_.size();
  return rest;
}

void Args::take_keyword_values(std::initializer_list<std::string_view> keywords, const TakeFn& take,
                               const MissingFn& missing) {
  std::vector<std::string> kept(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(i_));
  for (size_t j = i_; j < v_.size(); ++j) {
    if (std::find(keywords.begin(), keywords.end(), v_[j]) == keywords.end()) {
      kept.push_back(v_[j]);
      continue;
    }
    if (j + 1 >= v_.size()) throw UsageError(missing(v_[j]));
    take(v_[j], v_[j + 1]);
    ++j;
  }
  v_ = std::move(kept);
}

namespace {

// What follows `from` or `via`, for messages.
std::string value_after(const std::string& keyword) {
  return std::string(keyword == "via" ? "DEV/PORT" : "FILE") + " after \"" + keyword + "\"";
}

}  // namespace

std::string Args::take_via() {
  return take_source_words({"via"}).via;
}

FabricSource Args::take_source() {
  return take_source_words({"from", "via"});
}

FabricSource Args::take_source_words(std::initializer_list<std::string_view> keywords) {
  FabricSource src;
  take_keyword_values(
      keywords,
      [&](const std::string& k, const std::string& v) {
        // An empty DEV/PORT is the check's to name.
        if (k == "via") {
          src.via = check_via(v);
        } else {
          if (v.empty()) throw UsageError("empty " + value_after(k));
          src.from = v;
        }
      },
      [](const std::string& k) { return "missing " + value_after(k); });
  return src;
}

std::optional<mad::Target> Args::target() {
  return mad::parse_target(v_, i_);
}

std::vector<mad::Target> Args::targets(size_t max) {
  std::vector<mad::Target> all;
  while (all.size() < max) {
    std::optional<mad::Target> t = target();
    if (!t) break;
    all.push_back(std::move(*t));
  }
  return all;
}

std::optional<mad::Target> Args::target_or_name(std::initializer_list<const char*> keywords) {
  if (std::optional<mad::Target> t = target()) return t;
  if (empty() || peek().empty() || peek()[0] == '-') return std::nullopt;
  for (const char* k : {"via", "from", "help"})
    if (matches(peek(), k)) return std::nullopt;
  for (const char* k : keywords)
    if (matches(peek(), k)) return std::nullopt;
  return mad::name_target(next());
}

std::vector<mad::Target> Args::targets_or_names(size_t max,
                                                std::initializer_list<const char*> keywords) {
  std::vector<mad::Target> all;
  while (all.size() < max) {
    std::optional<mad::Target> t = target_or_name(keywords);
    if (!t) break;
    all.push_back(std::move(*t));
  }
  return all;
}

bool matches(const std::string& word, const char* name) {
  return !word.empty() && std::string_view(name).starts_with(word);
}

namespace {

// "\"A\", \"B\" and \"C\"".
std::string quoted_and(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("\"" + names[i] + "\"");
  return s;
}

void refuse_watch(const Ctx& c) {
  if (c.opt.watch_s || c.opt.count)
    throw UsageError("-w and -c apply to " + quoted_and(commands_taking(Takes::Watch)) + " only");
}

void walk(std::span<const Cmd> table, const std::string& path, Takes t,
          std::vector<std::string>& out) {
  std::vector<Handler> seen;  // an alias (list for show) counts once
  for (const Cmd& e : table) {
    if (std::find(seen.begin(), seen.end(), e.fn) != seen.end()) continue;
    const std::string here = e.name ? (path.empty() ? "" : path + " ") + e.name : path;
    if (e.takes & t) {
      seen.push_back(e.fn);
      out.push_back(here);
    } else if (e.sub && e.name) {
      seen.push_back(e.fn);
      walk(e.sub(), here, t, out);
    }
  }
}

}  // namespace

std::vector<std::string> commands_taking(Takes t) {
  std::vector<std::string> out;
  walk(objects(), "", t, out);
  return out;
}

// -w is refused before --openmetrics.
void check_takes(Ctx& c, Takes t) {
  c.findings = t & Takes::Findings;
  if (t & Takes::OwnText) c.out.set_line_ends(view::Printer::LineEnds::Trimmed);
  if (t & Takes::Own) return;
  if (!(t & Takes::Watch)) {
    refuse_watch(c);
  } else {
    if (c.opt.count && !c.opt.watch_s) throw UsageError("-c COUNT needs -w SECONDS");
    if (c.opt.watch_s) refuse_in_json_batch(c, "-w");
    if (t & Takes::Metrics) no_metrics_watch(c);
  }
  if (!(t & Takes::Metrics)) no_openmetrics(c);
}

const Cmd* choose(Ctx& c, std::span<const Cmd> table, const char* what) {
  if (c.args.empty()) {
    for (const Cmd& e : table) {
      if (!e.name) {
        check_takes(c, e.takes);
        return &e;
      }
    }
    throw UsageError(std::string("missing ") + what);
  }
  for (const Cmd& e : table) {
    if (e.name && matches(c.args.peek(), e.name)) {
      c.args.next();
      check_takes(c, e.takes);
      return &e;
    }
  }
  std::vector<std::string> names;
  for (const Cmd& e : table)
    if (e.name && std::find(names.begin(), names.end(), e.name) == names.end())
      names.push_back(e.name);
  throw UsageError(unknown_word(what, c.args.peek(), names));
}

void dispatch(Ctx& c, std::span<const Cmd> table, const char* what) {
  choose(c, table, what)->fn(c);
}

int exit_status(const Error& e) {
  if (const auto* x = dynamic_cast<const ExitUsageError*>(&e)) return x->status;
  if (const auto* x = dynamic_cast<const ExitError*>(&e)) return x->status;
  return 1;
}

void Ctx::warn(const std::string& text) {
  std::fprintf(err, "warning: %s\n", text.c_str());
  if (!status) status = 1;
}

void Ctx::warn(const std::vector<std::string>& texts) {
  for (const std::string& t : texts) warn(t);
}

std::unique_ptr<verbs::Verbs> Ctx::verbs() const {
  if (verbs_factory && *verbs_factory) return (*verbs_factory)();
  return verbs::open_libibverbs();
}

uint32_t split_port(std::string& dev) {
  // Leading blanks and a sign as strtoul took them.
  DevPort d = parse_dev_port(dev, {.min = 1, .max = UINT32_MAX, .blanks_and_sign = true});
  if (d.dev.empty())
    throw UsageError("missing device name in \"" + dev + "\" (expected DEV or DEV/PORT)");
  if (d.port_bad())
    throw UsageError("invalid port \"" + *d.port_text +
                     "\" (expected DEV/PORT with PORT 1 or more)");
  dev = d.dev;
  return d.port.value_or(0);
}

bool parse_on_off(const std::string& word, const char* keyword) {
  if (matches(word, "on")) return true;
  if (matches(word, "off")) return false;
  throw UsageError(std::string(keyword) + " takes on or off, not \"" + word + "\"");
}

void no_openmetrics(const Ctx& c) {
  if (c.opt.exposition != Options::Exposition::None)
    throw UsageError("--openmetrics and --prometheus apply to " +
                     quoted_and(commands_taking(Takes::Metrics)) + " only");
}

void no_metrics_watch(const Ctx& c) {
  if (c.opt.exposition != Options::Exposition::None && (c.opt.watch_s || c.opt.count))
    throw UsageError(
        "--openmetrics and --prometheus show the counters once (Prometheus computes rates): no "
        "-w");
}

std::unique_ptr<view::Printer> openmetrics_output(Ctx& c, view::MetricsSpec spec) {
  if (c.opt.exposition == Options::Exposition::None) return nullptr;
  no_metrics_watch(c);
  if (c.opt.output)
    throw UsageError(
        "--output FILE applies to \"fabric errors\", \"fabric links\" and \"perf show\"");
  spec.format = c.opt.exposition == Options::Exposition::OpenMetrics
                    ? view::MetricsFormat::OpenMetrics
                    : view::MetricsFormat::Prometheus;
  return view::make_openmetrics_printer(c.help_out, std::move(spec));
}

void refuse_in_json_batch(const Ctx& c, const char* what) {
  if (c.in_batch && c.out.is_json())
    throw UsageError(std::string(what) +
                     " cannot run in a JSON batch (-j -b): it writes a document of its own per " +
                     "event or interval");
}

void own_json_output(Ctx& c, const char* what) {
  refuse_in_json_batch(c, what);
  if (c.out.is_json()) c.out.detach();
}

}  // namespace rdma
