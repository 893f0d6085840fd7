// What became of a MAD query when it has no good reply: the kind of
// failure, with what callers test for (the tries, the MAD status), and the
// one line the user reads. Callers decide on kind and status, never on the
// message's words.
#pragma once

#include <cstdint>
#include <string>

#include "lib/error.h"

namespace rdma::mad {

struct Failure {
  enum class Kind : uint8_t {
    Timeout,    // no reply after every try
    Status,     // the reply carries a non-zero MAD status
    Malformed,  // a reply that is not a valid answer to the request
    Withdrawn,  // not sent: its caller no longer wanted it (Query::wanted)
  };
  Kind kind = Kind::Timeout;
  int tries = 0;        // Timeout: how many were sent
  uint16_t status = 0;  // Status: the status word (DR SMPs: without the D bit)
  std::string message;  // "no reply to NodeInfo from lid 4 (4 tries of 1000 ms)"
  // Malformed: what of the reply did not match the request ("attribute",
  // "path", "source LID"...), for counting.
  const char* field = "";
  // Timeout: every try was given back by the local port (umad's report of
  // a failed send) before half its wait: refused at once, not unanswered.
  bool returned = false;

  // The MAD status says the method or attribute is not supported (IBA
  // 13.4.7, codes 2 and 3): the attribute does not exist there, which for
  // optional attributes is an answer, not an error.
  bool unsupported() const {
    unsigned code = (status >> 2) & 0x7;
    return kind == Kind::Status && (code == 2 || code == 3);
  }
};

// The SA's class-specific status (the status word's high byte, IBA
// 15.2.1.1): no record matches the query.
inline constexpr unsigned kSaNoRecords = 3;

// The Error single-query callers get: its what() is the failure's message.
class MadError : public Error {
 public:
  explicit MadError(Failure f) : Error(f.message), failure(std::move(f)) {}
  Failure failure;
};

}  // namespace rdma::mad
