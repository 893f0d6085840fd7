// rdma mad get ATTR TARGET [mod N] [port N]: any known attribute, every
// field; rdma mad decode: a MAD in hex on stdin, decoded.
#include <cstdio>
#include <cstdlib>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/describe.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void mad_help(Ctx& c) {
  std::string names;
  for (const mad::AttrDef* a : mad::all_attrs())
    if (a->mgmt_class != mad::kClassSa) names += std::string(names.empty() ? "" : " | ") + a->name;
  std::fprintf(c.help_out,
               "Usage: rdma mad get ATTR TARGET [ mod N ] [ port N ] [via DEV/PORT]\n"
               "       rdma mad decode < FILE   (a MAD as hex bytes)\n"
               "where  ATTR := { %s }\n"
               "               (a name, any prefix, or the attribute id)\n"
               "       TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH }\n",
               names.c_str());
}

// Leading blanks and a sign after them as strtoull took them, but no '-' first.
uint32_t parse_mod(const std::string& s) {
  std::optional<uint64_t> v;
  if (s.empty() || s[0] != '-')
    v = parse_number(s, {.max = UINT32_MAX, .c_bases = true, .blanks_and_sign = true});
  if (!v)
    throw UsageError("invalid attribute modifier \"" + s +
                     "\" (expected a number, decimal or 0x hex)");
  return static_cast<uint32_t>(*v);
}

void mad_get(Ctx& c) {
  const mad::AttrDef& a = mad::find_attr(c.args.need("attribute"));
  if (a.mgmt_class == mad::kClassSa)
    throw UsageError(std::string(a.name) +
                     " is an SA record; rdma mad get reads SMP and PMA attributes");
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G or dr PATH)");
  uint32_t mod = 0;
  std::optional<uint8_t> port;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "mod"))
      mod = parse_mod(c.args.need_word("attribute modifier"));
    else if (matches(k, "port"))
      port = parse_port(c.args.need_word("port number"));
    else
      throw UsageError("unknown mad get argument \"" + k + "\"");
  }
  bool smp = a.mgmt_class == mad::kClassSmiLid;
  if (smp && port) throw UsageError("\"port\" is for PMA attributes; SMPs take \"mod N\"");
  if (!smp && target->kind == mad::Target::Kind::Dr)
    throw UsageError(std::string(a.name) + " needs a LID target (a PMA attribute)");
  MadSession s(c, via);
  mad::Route r = s.route(target);
  mad::Mad reply;
  if (smp) {
    reply = s.smp(r, mad::kGet, a, mod);
  } else {
    mad::Mad body = mad::make_gmp(a.mgmt_class, mad::kGet, a, mod);
    if (port && mad::find_field(a, "PortSelect")) body.set_attr(a, "PortSelect", *port);
    reply = s.gmp(r.lid, a.mgmt_class, mad::kGet, a, mod, &body);
  }
  view::Record rec;
  add_target(rec, r);
  rec.add("attribute", std::string("attribute ") + a.name + " ", a.name);
  mad::decode(a, reply.data(), 1, rec, {.show_keys = c.opt.show_keys});
  c.out.record(rec);
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
  static constexpr Cmd kTable[] = {
      {nullptr, mad_help}, {"get", mad_get}, {"decode", mad_decode}, {"help", mad_help}};
  dispatch(c, kTable, "mad command");
}

}  // namespace rdma
