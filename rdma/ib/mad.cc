// rdma mad get ATTR TARGET [mod N] [port N]: any known attribute, every
// field, or an unknown SMP attribute's bytes raw; rdma mad set: the same
// attribute read, the named fields changed, written, the answer shown;
// rdma mad decode: a MAD in hex on stdin, decoded.
#include <cstdio>
#include <cstdlib>

#include "lib/error.h"
#include "lib/ib/attribute.h"
#include "lib/ib/lid_route.h"
#include "lib/mad/assign.h"
#include "lib/mad/attr_class.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"
#include "lib/mad/describe.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void mad_help(Ctx& c) {
  std::string names;
  for (const mad::AttrDef* a : mad::all_attrs())
    if (!mad::is_sa_record(*a)) names += std::string(names.empty() ? "" : " | ") + a->name;
  std::fprintf(c.help_out,
               "Usage: rdma mad get ATTR TARGET [ mod N ] [ port N ] [via DEV/PORT]\n"
               "       rdma mad set ATTR TARGET [ mod N ] [ port N ] FIELD=VALUE...\n"
               "       rdma mad decode < FILE   (a MAD as hex bytes)\n"
               "where  ATTR := { %s }\n"
               "               (a name, any prefix, or the attribute id: an SMP attribute\n"
               "               without a decoder is read and written raw, FIELD data=HEX)\n"
               "       TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
               "              dr lid LID PATH | name NAME }\n"
               "               (a PMA attribute: a dr route goes by its port's LID)\n"
               "       FIELD := the IBA field name, as mad get -j prints it; NAME[i] for a table\n",
               names.c_str());
}

// Leading blanks and a sign after them as strtoull took them, but no '-' first.
uint32_t parse_mod(const std::string& s) {
  std::optional<uint64_t> v = view::parse_number(
      s, {.max = UINT32_MAX, .c_bases = true, .blanks_and_sign = true, .not_first = "-"});
  if (!v)
    throw UsageError("invalid attribute modifier \"" + s +
                     "\" (expected a number, decimal or 0x hex)");
  return static_cast<uint32_t>(*v);
}

// The words of mad get and mad set, read and checked before anything is
// sent: the attribute (raw: a fieldless SMP one named by its id, def
// pointing at raw), where, and for set the changes.
struct MadWords {
  mad::AttrDef raw;
  std::string raw_name;
  const mad::AttrDef* def = nullptr;
  std::optional<mad::Target> target;
  std::string via;
  uint32_t mod = 0;
  std::optional<uint8_t> port;
  std::vector<mad::Assignment> changes;
  std::optional<std::vector<uint8_t>> raw_data;  // data=HEX of a raw attribute
  bool is_raw() const { return def == &raw; }
  bool smp() const { return mad::is_smp(*def); }
};

void read_words(Ctx& c, MadWords& w, bool set) {
  mad::AttrChoice choice = mad::choose_attr(c.args.need("attribute"));
  if (choice.def) {
    w.def = choice.def;
  } else {
    w.raw_name = view::hex_text(choice.id, 4);
    w.raw = mad::raw_smp_attr(w.raw_name.c_str(), choice.id);
    w.def = &w.raw;
  }
  const mad::AttrDef& a = *w.def;
  if (mad::is_sa_record(a))
    throw UsageError(std::string(a.name) + " is an SA record; rdma mad " + (set ? "set" : "get") +
                     " reads SMP and PMA attributes");
  w.target = c.args.target();
  w.via = c.args.take_via();
  if (!w.target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "mod")) {
      w.mod = parse_mod(c.args.need_word("attribute modifier"));
    } else if (matches(k, "port")) {
      w.port = parse_port(c.args.need_word("port number"));
    } else if (set && k.find('=') != std::string::npos) {
      if (w.is_raw()) {
        if (k.compare(0, 5, "data=") != 0)
          throw UsageError(std::string(a.name) + " has no decoder: set its bytes with data=HEX");
        std::vector<uint8_t> bytes;
        try {
          bytes = mad::parse_hex(k.substr(5));
        } catch (const Error& e) {
          throw UsageError(std::string("data: ") + e.what());
        }
        if (bytes.empty() || bytes.size() > a.bytes)
          throw UsageError("data: 1 to " + std::to_string(a.bytes) + " bytes, not " +
                           std::to_string(bytes.size()));
        w.raw_data = std::move(bytes);
      } else {
        mad::add_assignment(w.changes, mad::parse_assignment(a, k));
      }
    } else {
      throw UsageError(unknown_word(std::string("mad ") + (set ? "set" : "get") + " argument", k,
                                    set ? std::vector<std::string>{"mod", "port", "FIELD=VALUE"}
                                        : std::vector<std::string>{"mod", "port"}));
    }
  }
  // An SMP attribute indexed by port takes "port N" as (part of) its
  // modifier; PortInfo's is the port alone.
  if (w.smp() && w.port && !ib::smp_port_modifier(a, *w.port, w.mod))
    throw UsageError(ib::smp_port_modifier(a, *w.port, 0)
                         ? "\"port\" and \"mod\" together: " + std::string(a.name) +
                               "'s modifier is the port; give one"
                         : "\"port\" is for PMA attributes and the SMP attributes indexed by "
                           "port; " +
                               std::string(a.name) + " takes \"mod N\"");
  if (set && w.changes.empty() && !w.raw_data)
    throw UsageError(std::string("nothing to set: name fields as FIELD=VALUE (") +
                     (w.is_raw() ? "data=HEX" : "e.g. " + std::string(a.fields[0].name) + "=...") +
                     ")");
}

// What mad get and mad set print: the target, the attribute, its fields
// (or its bytes, raw).
void show(Ctx& c, const MadWords& w, const mad::Route& r, const mad::Mad& reply) {
  const mad::AttrDef& a = *w.def;
  view::Record rec;
  add_target(rec, r);
  rec.add("attribute", std::string("attribute ") + a.name + " ", a.name);
  std::span<const uint8_t> data = reply.data().first(a.bytes);
  if (w.is_raw()) {
    std::string dump = mad::smpdump_text(data);
    dump.pop_back();  // the record's own line end follows
    rec.add("data", "\n" + dump, mad::hex_string(data));
  } else
    mad::decode(a, reply.data(), 1, rec, {.show_keys = c.opt.show_keys});
  c.out.record(rec);
}

// Where the attribute is asked: a GMP (a PMA's, the CC agent's) goes by
// LID, so a directed or combined route is resolved to the LID of the port
// it ends at (one PortInfo SMP), as perf show does; an SMP takes the
// route as given.
mad::Route attr_route(MadSession& s, const MadWords& w) {
  mad::Route r = s.route(w.target);
  if (w.smp()) return r;
  return ib::lid_route(s, r, "its agent for " + std::string(w.def->name) + " is reached by LID");
}

ib::AttrAccess access(const MadWords& w) {
  return {.def = w.def, .mod = w.mod, .port = w.port};
}

void mad_get(Ctx& c) {
  MadWords w;
  read_words(c, w, false);
  MadSession s(c, w.via);
  mad::Route r = attr_route(s, w);
  show(c, w, r, ib::read_attribute(s, r, access(w)));
}

void mad_set(Ctx& c) {
  MadWords w;
  read_words(c, w, true);
  MadSession s(c, w.via);
  mad::Route r = attr_route(s, w);
  // -d: the Get and the Set as sent and received (-dd shows every MAD).
  if (c.opt.details == 1) s.engine().trace = ib::print_trace(c.err, c.opt.show_keys);
  std::span<const uint8_t> raw;
  if (w.raw_data) raw = *w.raw_data;
  mad::Mad answer = ib::write_attribute(s, r, access(w), w.changes, raw);
  show(c, w, r, answer);
  // A write is read back: the answer to a Set is the attribute as the node
  // now has it, so a value it kept is said, and the exit status is 1.
  for (const std::string& v : ib::not_taken(*w.def, w.changes, answer.data())) {
    std::fprintf(c.err, "warning: %s did not take %s\n", w.def->name, v.c_str());
    c.status = 1;
  }
}

void mad_decode(Ctx& c) {
  c.args.done();
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, c.in)) > 0) text.append(buf, n);
  std::vector<uint8_t> bytes = mad::parse_hex(text);
  view::Record header, attr;
  mad::describe(bytes, header, attr);
  c.out.record(header);
  if (!attr.empty()) c.out.record(attr);
}

}  // namespace

void cmd_mad(Ctx& c) {
  static constexpr Cmd kTable[] = {{nullptr, mad_help},
                                   {"get", mad_get},
                                   {"set", mad_set},
                                   {"decode", mad_decode},
                                   {"help", mad_help}};
  dispatch(c, kTable, "mad command");
}

}  // namespace rdma
