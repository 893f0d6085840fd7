// rdma cc show TARGET [ATTR] [block N | port N]: a congestion control
// attribute (IBA annex A10), as ibccquery reads it; rdma cc set TARGET ATTR
// [block N | port N] FIELD=VALUE...: read, the named fields changed,
// written, the answer shown, as ibccconfig. Every MAD carries --cckey.
#include <cstdio>

#include "lib/error.h"
#include "lib/ib/attribute.h"
#include "lib/ib/client.h"
#include "lib/ib/congestion_control.h"
#include "lib/ib/lid_route.h"
#include "lib/mad/assign.h"
#include "lib/mad/attrs_cc.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void cc_help(Ctx& c) {
  std::string names;
  for (const mad::AttrDef* a : mad::cc_attrs())
    names += std::string(names.empty() ? "" : " |\n                 ") + a->name;
  std::fprintf(
      c.help_out,
      "Usage: rdma [ --cckey KEY ] cc show TARGET [ ATTR ] [ block N | port N ]\n"
      "       rdma [ --cckey KEY ] cc set TARGET ATTR [ block N | port N ] "
      "FIELD=VALUE...\n"
      "where  ATTR := { %s }\n"
      "               (a name, any prefix, or ibccquery's CI, CK, CL, SS, SP, CS, CT, TI, CP;\n"
      "               show: CongestionInfo when none)\n"
      "       TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH | dr lid LID PATH }\n"
      "               (the CC agent is reached by LID: a directed route's port's)\n"
      "       FIELD := the IBA field name or the key cc show -j prints; NAME[i] for a\n"
      "               table (SL i of CACongestionSetting, entry i of a table block)\n",
      names.c_str());
}

// The words of cc show and cc set, checked before anything is sent.
struct CcWords {
  mad::Target target;
  std::string via;
  const mad::AttrDef* attr = &ib::cc_default_attr();
  uint32_t block = 0;
  std::optional<int> port;  // SwitchPortCongestionSetting: one port's element
  std::vector<mad::Assignment> changes;
};

CcWords read_cc_words(Ctx& c, bool set) {
  CcWords w;
  const char* verb = set ? "set" : "show";
  std::optional<mad::Target> t = c.args.target();
  w.via = c.args.take_via();
  if (!t) throw UsageError("missing target (lid N, guid G, gid G or dr PATH)");
  w.target = *t;
  bool named = false, have_block = false;
  std::vector<std::string> assignments;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (k == "block") {
      w.block = static_cast<uint32_t>(need_number(c.args.need_word("block number"), "block",
                                                  {.max = UINT16_MAX, .c_bases = true}));
      have_block = true;
    } else if (k == "port") {
      w.port = parse_port(c.args.need_word("port number"));
    } else if (k.find('=') != std::string::npos && set) {
      assignments.push_back(k);
    } else if (!named && mad::find_cc_attr(k)) {
      w.attr = mad::find_cc_attr(k);
      named = true;
    } else {
      std::vector<std::string> words = {"block", "port"};
      if (!named)
        for (const mad::AttrDef* d : mad::cc_attrs()) words.push_back(d->name);
      if (set) words.push_back("FIELD=VALUE");
      throw UsageError(unknown_word(std::string("cc ") + verb + " argument", k, words));
    }
  }
  const mad::AttrDef& a = *w.attr;
  if (w.port) {
    // A table in blocks but not of ports: CongestionControlTable.
    if (!ib::cc_has_ports(a))
      throw UsageError("\"port\" is for SwitchPortCongestionSetting; " + std::string(a.name) +
                       (ib::cc_has_blocks(a) ? " takes \"block N\"" : " takes neither"));
    if (have_block) throw UsageError("\"port\" and \"block\" together: give one");
    w.block = ib::cc_port_block(static_cast<unsigned>(*w.port));
  } else if (have_block && !ib::cc_has_blocks(a)) {
    throw UsageError(std::string(a.name) + " has no blocks");
  }
  if (set) {
    if (!named) throw UsageError("missing attribute to set");
    if (ib::cc_read_only(a)) throw UsageError(std::string(a.name) + " is read-only");
    if (assignments.empty())
      throw UsageError("nothing to set: name fields as FIELD=VALUE (e.g. " +
                       std::string(a.fields[a.fields.size() > 1 ? 1 : 0].name) + "=...)");
    for (const std::string& word : assignments) {
      mad::Assignment s = mad::parse_assignment(a, word);
      // port N: a table field without [i] is that port's element.
      if (w.port && s.field->count > 1 && word.find('[') == std::string::npos)
        s.index = ib::cc_port_element(static_cast<unsigned>(*w.port));
      mad::add_assignment(w.changes, s);
    }
  }
  return w;
}

void cc_print(Ctx& c, const CcWords& w, uint16_t lid, std::span<const uint8_t> data) {
  const mad::AttrDef* a = &ib::cc_layout(*w.attr, data);
  view::Record rec;
  std::string t = "lid " + std::to_string(lid);
  rec.add("target", t + ": ", t);
  rec.add("attribute", std::string("attribute ") + a->name + " ", a->name);
  if (w.port) {
    rec.pair("port", *w.port);
    unsigned i = ib::cc_port_element(static_cast<unsigned>(*w.port));
    for (const mad::FieldDef& f : a->fields) {
      std::string text;
      view::Json json;
      mad::render(f, data, i, text, json);
      rec.add(f.label, std::string(f.label) + " " + text + " ", std::move(json));
    }
  } else {
    if (ib::cc_has_blocks(*a)) rec.pair("block", w.block);
    mad::decode(*a, data, 1, rec, {.show_keys = c.opt.show_keys});
  }
  c.out.record(rec);
}

// The CC agent's LID (a GMP's): a directed route's resolved as perf's.
uint16_t cc_lid(MadSession& s, const mad::Target& t) {
  return ib::lid_route(s, s.route(t), "its CC agent is reached by LID").lid;
}

void cc_show(Ctx& c) {
  CcWords w = read_cc_words(c, false);
  MadSession s(c, w.via);
  uint16_t lid = cc_lid(s, w.target);
  cc_print(c, w, lid, ib::cc_get(s, lid, *w.attr, w.block, c.opt.cc_key));
}

void cc_set(Ctx& c) {
  CcWords w = read_cc_words(c, true);
  MadSession s(c, w.via);
  uint16_t lid = cc_lid(s, w.target);
  if (c.opt.details == 1) s.engine().trace = ib::print_trace(c.err, c.opt.show_keys);
  std::vector<uint8_t> answer = ib::cc_change(s, lid, *w.attr, w.block, c.opt.cc_key, w.changes);
  cc_print(c, w, lid, answer);
  // A write is read back, as mad set's: what the agent kept is said.
  for (const std::string& v : ib::not_taken(*w.attr, w.changes, answer)) {
    std::fprintf(c.err, "warning: %s did not take %s\n", w.attr->name, v.c_str());
    c.status = 1;
  }
}

}  // namespace

void cmd_cc(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, cc_help}, {"show", cc_show}, {"set", cc_set}, {"help", cc_help}};
  dispatch(c, kTable, "cc command");
}

}  // namespace rdma
