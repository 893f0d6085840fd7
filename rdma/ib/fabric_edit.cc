#include "rdma/ib/fabric_edit.h"

#include <vector>

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/fabric_edit.h"
#include "lib/mad/target.h"
#include "lib/view/replace_file.h"

namespace rdma {

namespace {

struct EditWord {
  const char* word;  // ibcacheedit's option without its dashes
  ib::GuidEdit::Kind kind;
};
constexpr EditWord kEditWords[] = {
    {"switchguid", ib::GuidEdit::Kind::Switch},
    {"caguid", ib::GuidEdit::Kind::Ca},
    {"sysimgguid", ib::GuidEdit::Kind::SysImage},
    {"portguid", ib::GuidEdit::Kind::Port},
};

std::vector<std::string> edit_words() {
  std::vector<std::string> out;
  for (const EditWord& w : kEditWords) out.push_back(w.word);
  return out;
}

uint64_t need_guid(Args& a, const std::string& keyword, const char* what) {
  uint64_t g = mad::parse_guid(a.need_value(keyword, what));
  if (!g) throw UsageError(std::string("invalid ") + what + " 0 after \"" + keyword + "\"");
  return g;
}

}  // namespace

void fabric_edit(Ctx& c) {
  std::string file = c.args.need_word("FILE (a fabric saved by \"rdma fabric save\")");
  std::string out = file;
  std::vector<ib::GuidEdit> edits;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (k == "to") {
      out = c.args.need_value("to", "NEWFILE");
      if (out.empty()) throw UsageError("empty NEWFILE after \"to\"");
      continue;
    }
    const EditWord* w = nullptr;
    for (const EditWord& e : kEditWords)
      if (k == e.word) w = &e;
    if (!w) {
      std::vector<std::string> choices = edit_words();
      choices.push_back("to");
      throw UsageError(unknown_word("fabric edit argument", k, choices));
    }
    ib::GuidEdit e;
    e.kind = w->kind;
    if (e.kind == ib::GuidEdit::Kind::Port) e.node = need_guid(c.args, k, "NODE_GUID");
    e.before = need_guid(c.args, k, "OLD_GUID");
    e.after = need_guid(c.args, k, "NEW_GUID");
    edits.push_back(e);
  }
  if (edits.empty())
    throw UsageError("missing an edit (" + or_list(edit_words()) + ", each OLD NEW)");
  ib::Fabric f = ib::load_fabric(file);
  for (const ib::GuidEdit& e : edits) ib::edit_guid(f, e);
  // Written whole beside its place, then renamed: a failed write leaves
  // the old file as it was.
  view::ReplaceFile file_out(out);
  ib::write_fabric(f, file_out.file());
  file_out.commit();
}

}  // namespace rdma
