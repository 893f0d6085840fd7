// Objects and commands are tables; a word selects the first entry it is a
// prefix of, in table order, as in iproute2 (so "rdma s" is "system").
#pragma once

#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/mad/access.h"
#include "lib/mad/target.h"
#include "lib/nl/connection.h"
#include "lib/view/openmetrics.h"
#include "lib/view/printer.h"
#include "rdma/options.h"
#include "rdma/words.h"

namespace rdma {

namespace verbs {
class Verbs;  // lib/verbs/verbs.h
}

// Where a fabric command's fabric comes from: a file `fabric save` wrote
// (`from FILE`), else discovery from a local port (`via DEV/PORT`; "" for
// the first one that is active).
struct FabricSource {
  std::string from;
  std::string via;
};
using VerbsFactory = std::function<std::unique_ptr<verbs::Verbs>()>;

// The words after the object, consumed left to right; some words may
// stand anywhere (`via DEV/PORT`) and are taken out of the rest.
class Args {
 public:
  explicit Args(std::vector<std::string> v) : v_(std::move(v)) {}
  bool empty() const { return i_ >= v_.size(); }
  const std::string& peek() const { return v_[i_]; }
  std::string next() { return v_[i_++]; }
  // The next word, or an Error saying what was expected.
  std::string need(const char* what);
  // The next word even when empty (the parser it goes to names what is
  // wrong with it); "missing WHAT" when there is none.
  std::string need_word(const char* what);
  // The value after keyword (need_word: even when empty), or
  // "missing WHAT after \"KEYWORD\"".
  std::string need_value(const std::string& keyword, const char* what);
  // A port list as the next word: "all" (nullopt), or N, N-M and
  // comma-separated lists of them ("1-3,7"), each a port 0-254; missing or
  // malformed: UsageError (a single number's as parse_port's).
  std::optional<std::vector<uint8_t>> need_port_list(const char* what);
  // Throws when words are left over.
  void done() const;
  // The words left, taken.
  std::vector<std::string> take_rest();

  // Takes every "KEYWORD VALUE" whose keyword is one of keywords out of
  // the words left, wherever it stands, in one pass left to right: the
  // value is the next word, whatever it is (even another keyword), and
  // take(keyword, value) gets each pair in turn; a keyword with no word
  // after it is UsageError(missing(keyword)).
  using TakeFn = std::function<void(const std::string& keyword, const std::string& value)>;
  using MissingFn = std::function<std::string(const std::string& keyword)>;
  void take_keyword_values(std::initializer_list<std::string_view> keywords, const TakeFn& take,
                           const MissingFn& missing);
  // `via DEV/PORT` anywhere in the words left, checked (check_via()); the
  // last one given, or "" when none is.
  std::string take_via();
  // `from FILE` and `via DEV/PORT` anywhere in the words left, in one pass
  // (as take_keyword_values: `from via` reads the file "via").
  FabricSource take_source();
  // The MAD target the next words give (lid N, N, guid G, gid G, dr PATH;
  // lib/mad/target.h parses the value), taken; nullopt when the next word
  // starts none.
  std::optional<mad::Target> target();
  // Up to max targets, as many as the next words give.
  std::vector<mad::Target> targets(size_t max);
  // As target(), and where the command takes nothing else there, a bare
  // word (`node show gpu-node-03`) as `name WORD`: one that starts no
  // target and is no prefix of keywords (the words that may follow), of
  // "via", "from" or "help", nor an option.
  std::optional<mad::Target> target_or_name(std::initializer_list<const char*> keywords);
  std::vector<mad::Target> targets_or_names(size_t max,
                                            std::initializer_list<const char*> keywords);

 private:
  FabricSource take_source_words(std::initializer_list<std::string_view> keywords);
  std::vector<std::string> v_;
  size_t i_ = 0;
};

struct Ctx {
  const Options& opt;
  Args args;
  nl::Connection& conn;
  view::Printer& out;
  std::FILE* help_out;                          // usage text (stdout)
  std::FILE* in;                                // input of commands that read one (mad decode)
  std::FILE* err;                               // diagnostics beside the output (-dd MAD traces)
  bool in_batch = false;                        // a line of -b FILE, sharing out with the others
  const mad::Access* mad = nullptr;             // how MAD commands reach the fabric
  const VerbsFactory* verbs_factory = nullptr;  // unset: libibverbs
  // The exit status of a command that printed what it could (a partial
  // fabric, a diff that found changes) but is not a success.
  int status = 0;
  // The command reports findings (its table's Takes::Findings, set by
  // dispatch): it exits as diff(1), 0 nothing found, 1 found (found(), or
  // a warning), 2 failed (an Error, bad input included; run() maps them).
  bool findings = false;
  // Whether a stream is a terminal (the progress line of long sweeps);
  // unset: isatty. Tests force it.
  std::function<bool(std::FILE*)> is_terminal = {};
  nl::Session& session() { return conn.session(); }
  // libibverbs (loaded now, by the commands that need it) or the test's
  // fake; throws Error when the library cannot be loaded.
  std::unique_ptr<verbs::Verbs> verbs() const;
  // What a findings command found (a port over a threshold, a changed
  // link): exit status 1.
  void found() {
    if (!status) status = 1;
  }
  // Problems beside the output (a node that did not answer, a table that
  // could not be read): "warning: TEXT" on err for each, exit status 1
  // when there is one. The result printed is partial, not wrong.
  void warn(const std::string& text);
  void warn(const std::vector<std::string>& texts);
};

// For commands that write a JSON document per event or interval (monitor,
// -w): takes the output over from c.out. Inside a -j batch that would end
// the batch's one document, so it is refused there (Error);
// refuse_in_json_batch() says so before any other work.
void refuse_in_json_batch(const Ctx& c, const char* what);
void own_json_output(Ctx& c, const char* what);

// --openmetrics or --prometheus given to a command that has no counters to
// expose: Error.
void no_openmetrics(const Ctx& c);
// --openmetrics or --prometheus with -w: Error.
void no_metrics_watch(const Ctx& c);
// With --openmetrics or --prometheus, the printer a counter view writes to
// instead of c.out (which then writes nothing); finish() writes the
// document. nullptr without the options; Error with -w.
std::unique_ptr<view::Printer> openmetrics_output(Ctx& c, view::MetricsSpec spec);

// A findings command's failure, as diff(1)'s "trouble".
constexpr int kStatusFailed = 2;

// An error with an exit status of its own (a findings command's: 2).
class ExitError : public Error {
 public:
  ExitError(int status, const std::string& msg) : Error(msg), status(status) {}
  int status;
};

// A malformed command line of such a command: nothing on stdout, as any
// UsageError, but its own exit status (fabric diff's 1 means "different").
class ExitUsageError : public UsageError {
 public:
  ExitUsageError(int status, const std::string& msg) : UsageError(msg), status(status) {}
  int status;
};

// The exit status an Error ends a command with: its own, else 1.
int exit_status(const Error& e);

using Handler = void (*)(Ctx&);

// What a command takes besides its words, as a column of its table (as
// systemd's Verb flags): dispatch() refuses the others before the command
// runs (-w before --openmetrics, as the commands did themselves).
enum class Takes : uint8_t {
  Once = 0,     // runs once: -w/-c and --openmetrics/--prometheus refused (the default)
  Watch = 1,    // -w SECONDS [-c COUNT] repeats it
  Metrics = 2,  // --openmetrics, --prometheus
  // The entry refuses what it does not take itself: a sub-table, help
  // (which ignores them), or a command that can tell only after reading its
  // words (res show TYPE runs once, res show DEV repeats).
  Own = 4,
  // Reports findings: exits as diff(1) (Ctx::findings), 0 nothing found, 1
  // found, 2 failed; dispatch() sets it before any check, so bad input to
  // such a command is 2 as well.
  Findings = 8,
  // Its text views are this tool's own (iproute2 has none for them to
  // equal): no line ends in a blank. An object's column; its commands
  // inherit it (the printer keeps it until the next command line).
  OwnText = 16,
};
// What dispatch() checks, from the columns: Once refuses -w, -c,
// --openmetrics and --prometheus, naming the commands that take them;
// Watch refuses -c without -w, and -w in a JSON batch (-j -b: a watch
// writes a document per interval); Watch with Metrics refuses both at once.
constexpr Takes operator|(Takes a, Takes b) {
  return static_cast<Takes>(static_cast<uint8_t>(a) | static_cast<uint8_t>(b));
}
constexpr bool operator&(Takes a, Takes b) {
  return (static_cast<uint8_t>(a) & static_cast<uint8_t>(b)) != 0;
}

struct Cmd {
  const char* name;  // nullptr: the default when no word is left
  Handler fn;
  Takes takes = Takes::Once;
  // The table fn dispatches to, when it does (an object, statistic show):
  // how the rules' messages and help find the commands below it.
  std::span<const Cmd> (*sub)() = nullptr;
};

// The commands, from the objects' table down, whose entries take t
// ("statistic show", "fabric errors"): a default entry that takes it
// stands for its table's path, aliases (the same handler) count once.
std::vector<std::string> commands_taking(Takes t);

// The objects' table (rdma.cc).
std::span<const Cmd> objects();

// What dispatch() does on entering an entry that takes t (Ctx::findings
// set, the options it does not take refused); for commands reached
// without a table (a word their handler reads itself).
void check_takes(Ctx& c, Takes t);

// True when word is a non-empty prefix of name.
bool matches(const std::string& word, const char* name);

// The table entry the next word selects (taken), or the default entry
// when no word is left, entered (check_takes); "unknown WHAT 'word'" when
// none is. For a handler that selects a kind by a word (fn nullptr).
const Cmd* choose(Ctx& c, std::span<const Cmd> table, const char* what);

// Runs the table entry choose() selects.
void dispatch(Ctx& c, std::span<const Cmd> table, const char* what);

// "DEV/PORT" -> PORT, leaving DEV in dev; 0 when there is no "/".
uint32_t split_port(std::string& dev);

// Parses "on"/"off" (abbreviable), naming the keyword in the error.
bool parse_on_off(const std::string& word, const char* keyword);

}  // namespace rdma
