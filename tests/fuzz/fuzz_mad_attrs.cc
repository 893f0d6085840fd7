// Every MAD attribute table decoding any bytes (at every detail level), and
// the reply checks (check_reply) of a request for the attribute byte 0 picks
// against the rest of the input as its reply.
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/mad.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rdma;
  if (size < 2) return 0;
  std::span<const uint8_t> bytes(data + 2, size - 2);
  auto attrs = mad::all_attrs();
  // Byte 0 picks the table, byte 1 the detail level and the request's form:
  // one decode per input keeps the fuzzer fast, and it reaches every table.
  const mad::AttrDef& pick = *attrs[data[0] % attrs.size()];
  view::Record r;
  try {
    mad::decode(pick, bytes, data[1] % 3, r);
  } catch (const Error&) {
  }
  // A LID route to 2, or a directed route 0,1,3 (no LID: a directed route
  // with one is a combined route, which only a client knowing its own LID
  // can build).
  const bool dr = (data[1] & 4) != 0;
  mad::Mad req = pick.mgmt_class == mad::kClassSmiLid
                     ? mad::make_smp({dr, static_cast<uint16_t>(dr ? 0 : 2), {1, 3}}, mad::kGet,
                                     pick, data[1] >> 4)
                     : mad::make_gmp(pick.mgmt_class, mad::kGet, pick, data[1] >> 4);
  if (data[1] & 8) req.set(mad::hdr::kTid, 0x1234);
  try {
    mad::Mad reply = mad::check_reply(req, bytes, "fuzz");
    r.clear();
    mad::decode(pick, reply.data(), 2, r);
  } catch (const Error&) {
  }
  return 0;
}
