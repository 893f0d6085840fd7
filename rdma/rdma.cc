#include "rdma/rdma.h"

#include <cstdlib>
#include <memory>
#include <optional>

#include "lib/error.h"
#include "lib/ib/ibdiag_conf.h"
#include "lib/nl/socket.h"
#include "rdma/batch.h"
#include "rdma/help.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void usage(std::FILE* f) {
  std::fputs(
      "Usage: rdma [ OPTIONS ] OBJECT { COMMAND | help }\n"
      "       rdma [ -f[orce] ] -b[atch] filename\n"
      "where  OBJECT := { dev | link | resource | system | statistic | monitor |\n"
      "                   node | port | perf | sm | mad | fabric | route | sa | gid | cc |\n"
      "                   bw | help }\n"
      "       OPTIONS := { -V[ersion] | -d[etails] | -j[son] | -o[neline] | -p[retty] |\n"
      "                    -r[aw] | -n[etns] NAME | --timeout MS | --retries N | --window N |\n"
      "                    --sa | --show-keys | --openmetrics | --prometheus | --output FILE |\n"
      "                    --node-name-map FILE | -w[atch] SECONDS | -c[ount] COUNT |\n"
      "                    --cckey KEY | --deadline SECONDS | -q[uiet] |\n"
      "                    --discovery { lid | dr | sa } }\n",
      f);
}

void cmd_help(Ctx& c) {
  usage(c.help_out);
}

// Order matters: a prefix selects the first match ("s" is system), as in
// iproute2; objects iproute2 lacks come after its own.
// Objects whose commands all run once refuse -w/-c (and --openmetrics) up
// front; the others (Own) refuse them command by command. Those iproute2
// lacks write their own text (OwnText).
constexpr Cmd kObjects[] = {
    {nullptr, cmd_help, Takes::Own},
    {"help", cmd_help, Takes::Own},
    {"dev", cmd_dev},
    {"link", cmd_link},
    {"resource", cmd_resource, Takes::Own, resource_commands},
    {"system", cmd_system},
    {"statistic", cmd_statistic, Takes::Own, statistic_commands},
    {"monitor", cmd_monitor, Takes::Own},
    {"node", cmd_node, Takes::OwnText},
    {"port", cmd_port, Takes::OwnText},
    {"perf", cmd_perf, Takes::Own | Takes::OwnText, perf_commands},
    {"sm", cmd_sm, Takes::OwnText},
    {"mad", cmd_mad, Takes::OwnText},
    {"fabric", cmd_fabric, Takes::Own | Takes::OwnText, fabric_commands},
    {"route", cmd_route, Takes::OwnText},
    {"sa", cmd_sa, Takes::OwnText},
    {"gid", cmd_gid, Takes::OwnText},
    {"cc", cmd_cc, Takes::OwnText},
    {"bw", cmd_bw, Takes::OwnText},
};

// The object entry word selects (not help); UsageError naming the
// choices otherwise.
const Cmd& object_of(const std::string& word) {
  std::vector<std::string> names;
  for (const Cmd& e : kObjects) {
    if (!e.name || e.fn == cmd_help) continue;
    if (matches(word, e.name)) return e;
    names.push_back(e.name);
  }
  throw UsageError(unknown_word("object", word, names));
}

// What the object's own "help" entry prints.
std::string object_usage(const Cmd& object, nl::Connection& conn, Env& env) {
  char* text = nullptr;
  size_t n = 0;
  std::FILE* f = open_memstream(&text, &n);
  if (!f) throw Error("out of memory");
  std::unique_ptr<view::Printer> none = view::make_text_printer(f);
  const Options plain;
  Ctx c{plain, Args({"help"}), conn, *none, f, env.in, env.err};
  try {
    object.fn(c);
  } catch (...) {
    std::fclose(f);
    std::free(text);
    throw;
  }
  std::fclose(f);
  std::string usage(text, n);
  std::free(text);
  return usage;
}

// Help for the words given (rdma help OBJECT [COMMAND], rdma OBJECT [COMMAND]
// help, -h with them): the usage of that level.
void help(const std::vector<std::string>& words, nl::Connection& conn, Env& env) {
  if (words.empty()) return usage(env.out);
  if (matches(words[0], "help")) return usage(env.out);
  const Cmd& object = object_of(words[0]);
  std::string text = object_usage(object, conn, env);
  if (words.size() > 1) text = command_usage(text, object.name, words[1]);
  std::fputs(text.c_str(), env.out);
}

// The words of a request for help (without "help"), or nullopt: "help
// [OBJECT [COMMAND]]", "OBJECT help", "OBJECT COMMAND help".
std::optional<std::vector<std::string>> help_words(const std::vector<std::string>& args) {
  if (args.empty()) return std::nullopt;
  if (matches(args[0], "help")) return std::vector<std::string>(args.begin() + 1, args.end());
  if ((args.size() == 2 || args.size() == 3) && args.back() == "help")
    return std::vector<std::string>(args.begin(), args.end() - 1);
  return std::nullopt;
}

}  // namespace

std::span<const Cmd> objects() {
  return kObjects;
}

namespace {

std::unique_ptr<view::Printer> make_printer(const Options& o, std::FILE* out) {
  if (o.json) return view::make_json_printer(out, o.pretty);
  return view::make_text_printer(out, o.oneline);
}

// One command line; returns its exit status and whether the command
// reports findings. Throws Error: for a findings command with status 2
// (ExitError, ExitUsageError), as diff(1) fails.
LineStatus run_command(std::vector<std::string> words, const Options& opt, nl::Connection& conn,
                       view::Printer& out, Env& env, bool in_batch) {
  Ctx c{opt,       Args(std::move(words)), conn, out, env.out, env.in, env.err, in_batch, &env.mad,
        &env.verbs};
  c.is_terminal = env.is_terminal;
  // iproute2's line ends until the object says otherwise (Takes::OwnText):
  // the printer is the whole batch's.
  out.set_line_ends(view::Printer::LineEnds::AsIproute2);
  try {
    dispatch(c, kObjects, "object");
  } catch (const UsageError& e) {
    if (c.findings) throw ExitUsageError(kStatusFailed, e.what());
    throw;
  } catch (const Error& e) {
    if (c.findings) throw ExitError(kStatusFailed, e.what());
    throw;
  }
  return {c.status, c.findings};
}

}  // namespace

int run(std::vector<std::string> args, Env& env) {
  Options opt;
  try {
    opt = parse_options(args);
  } catch (const Error& e) {
    std::fprintf(env.err, "%s\n", e.what());
    return 1;
  }
  if (opt.version) {
    std::fprintf(env.out, "rdma utility, version %s\n", RDMA_VERSION);
    return 0;
  }
  std::optional<std::vector<std::string>> asked = help_words(args);
  if (opt.help || asked) {
    nl::Connection none(env.open);  // help sends nothing
    try {
      help(asked ? *asked : args, none, env);
    } catch (const Error& e) {
      std::fprintf(env.err, "%s\n", e.what());
      return 1;
    }
    return 0;
  }
  // infiniband-diags' site settings, as every diags tool reads them before
  // its options (which win here too).
  try {
    std::string path = opt.config ? *opt.config : env.ibdiag_conf;
    if (!path.empty()) {
      ib::IbdiagConf conf = ib::read_ibdiag_conf(path, opt.config.has_value());
      for (const std::string& w : conf.warnings) std::fprintf(env.err, "%s\n", w.c_str());
      // -d says what was taken from it (the options on the line win).
      std::string took;
      if (conf.ca) took += " via " + *conf.ca + (conf.port ? "/" + std::to_string(*conf.port) : "");
      if (conf.timeout_ms && !opt.mad_timeout_given)
        took += " timeout " + std::to_string(*conf.timeout_ms) + " ms";
      if (conf.mkey && !opt.mkey) took += " m_key";
      apply_ibdiag_conf(opt, conf);
      if (opt.details && !took.empty())
        std::fprintf(env.err, "ibdiag.conf: %s:%s\n", path.c_str(), took.c_str());
    }
  } catch (const Error& e) {
    std::fprintf(env.err, "%s\n", e.what());
    return 1;
  }
  // One document per run: OpenMetrics is not JSON, and a batch's lines would
  // each write their own.
  if (opt.exposition != Options::Exposition::None && (opt.json || opt.batch)) {
    std::fprintf(env.err,
                 "--openmetrics and --prometheus are output formats of their own: not with -j "
                 "or -b\n");
    return 1;
  }
  if (opt.output && opt.exposition == Options::Exposition::None) {
    std::fprintf(env.err,
                 "--output FILE writes the metrics: it needs --openmetrics or --prometheus\n");
    return 1;
  }
  try {
    if (opt.netns) nl::enter_netns(*opt.netns);
  } catch (const Error& e) {
    std::fprintf(env.err, "%s\n", e.what());
    return 1;
  }
  nl::Connection conn(env.open, env.trace,
                      opt.kernel_timeout_ms ? opt.kernel_timeout_ms : nl::kDefaultTimeoutMs);
  std::unique_ptr<view::Printer> out = make_printer(opt, env.out);
  int status = 0;
  if (opt.batch) {
    if (!args.empty()) {
      out->abandon();
      std::fprintf(env.err, "unexpected argument \"%s\" with -batch\n", args[0].c_str());
      return 1;
    }
    status = run_batch(opt, conn, env, [&](std::vector<std::string> words, const Options& o) {
      return run_command(std::move(words), o, conn, *out, env, true);
    });
  } else {
    try {
      status = run_command(std::move(args), opt, conn, *out, env, false).status;
    } catch (const UsageError& e) {
      out->abandon();  // a malformed command line: nothing on stdout
      std::fprintf(env.err, "%s\n", e.what());
      status = exit_status(e);
    } catch (const Error& e) {
      out->finish();  // keep -j output one valid JSON document
      std::fprintf(env.err, "%s\n", e.what());
      status = exit_status(e);
    }
  }
  out->finish();
  return status;
}

}  // namespace rdma
