// Every MAD attribute table decoding any bytes (at every detail level), and
// the reply checks (check_reply) of a request for the attribute byte 0 picks
// against the rest of the input as its reply.
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/mad.h"
#include "lib/view/printer.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rdma;
  if (size < 2) return 0;
  std::span<const uint8_t> bytes(data + 2, size - 2);
  auto attrs = mad::all_attrs();
  const mad::AttrDef& pick = *attrs[data[0] % attrs.size()];
  auto text = view::make_text_printer(fuzz::null_file());
  auto json = view::make_json_printer(fuzz::null_file(), false);
  for (const mad::AttrDef* a : attrs) {
    if (a != &pick && !(data[1] & 1)) continue;  // all tables on every other input
    for (int detail = 0; detail <= 2; ++detail) {
      view::Record r;
      try {
        mad::decode(*a, bytes, detail, r);
        text->record(r);
        json->record(r);
      } catch (const Error&) {
      }
    }
  }
  mad::Mad req = pick.mgmt_class == mad::kClassSmiLid
                     ? mad::make_smp({(data[1] & 2) != 0, 2, {1, 3}}, mad::kGet, pick, data[1] >> 4)
                     : mad::make_gmp(pick.mgmt_class, mad::kGet, pick, data[1] >> 4);
  if (data[1] & 4) req.set(mad::hdr::kTid, 0x1234);
  try {
    mad::Mad r = mad::check_reply(req, bytes, "fuzz");
    view::Record rec;
    mad::decode(pick, r.data(), 2, rec);
    json->record(rec);
  } catch (const Error&) {
  }
  json->finish();
  return 0;
}
