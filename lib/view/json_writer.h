// JSON in iproute2's layout (its json_writer): compact "[{...},{...}]", or
// with pretty "[ {" ... "},{" ... "} ]" and 4-space indents, so that tools
// comparing our output with iproute2's see the same bytes.
#pragma once

#include <cstdio>
#include <string_view>

#include "lib/view/record.h"

namespace rdma::view {

class JsonWriter {
 public:
  JsonWriter(std::FILE* out, bool pretty) : out_(out), pretty_(pretty) {}

  void start_array();
  void end_array();
  void start_object();
  void end_object();
  void name(std::string_view key);
  // Any value: scalars, arrays and objects (recursively).
  void value(const Json& v);

 private:
  void separate();  // the comma before a value or member
  void newline();
  void begin(char c);
  void end(char c);
  void string(std::string_view s);

  std::FILE* out_;
  bool pretty_;
  int depth_ = 0;
  char sep_ = '\0';
};

}  // namespace rdma::view
