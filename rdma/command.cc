#include "rdma/command.h"

#include "lib/error.h"

namespace rdma {

std::string Args::need(const char* what) {
  if (empty()) throw UsageError(std::string("missing ") + what);
  return next();
}

void Args::done() const {
  if (!empty()) throw UsageError("unexpected argument \"" + v_[i_] + "\"");
}

bool matches(const std::string& word, const char* name) {
  return !word.empty() && std::string_view(name).starts_with(word);
}

void dispatch(Ctx& c, std::span<const Cmd> table, const char* what) {
  if (c.args.empty()) {
    for (const Cmd& e : table)
      if (!e.name) return e.fn(c);
    throw UsageError(std::string("missing ") + what);
  }
  for (const Cmd& e : table) {
    if (e.name && matches(c.args.peek(), e.name)) {
      c.args.next();
      return e.fn(c);
    }
  }
  throw UsageError(std::string("unknown ") + what + " \"" + c.args.peek() + "\"");
}

bool parse_on_off(const std::string& word, const char* keyword) {
  if (matches(word, "on")) return true;
  if (matches(word, "off")) return false;
  throw UsageError(std::string(keyword) + " takes on or off, not \"" + word + "\"");
}

void no_watch(const Ctx& c) {
  if (c.opt.watch_s || c.opt.count)
    throw UsageError("-w and -c apply to \"statistic show\" and the \"resource\" summary only");
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
