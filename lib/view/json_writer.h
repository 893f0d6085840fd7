// JSON in iproute2's layout (its json_writer): compact "[{...},{...}]", or
// with pretty "[ {" ... "},{" ... "} ]" and 4-space indents, so that tools
// comparing our output with iproute2's see the same bytes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "lib/view/record.h"

namespace rdma::view {

// Output collects in a buffer until flush() (or destruction), so a record
// costs one write to the stream, not one per character.
class JsonWriter {
 public:
  JsonWriter(std::FILE* out, bool pretty) : out_(out), pretty_(pretty) {}
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void start_array();
  void end_array();
  void start_object();
  void end_object();
  void name(std::string_view key);
  // Any value: scalars, arrays and objects (recursively).
  void value(const Json& v);
  // A value already in JSON form (see Field::json).
  void raw(std::string_view json);
  // The record's keyed fields as members of the open object (text-only
  // fields have no key).
  void members(const Record& r);
  // Appends s as a JSON string (quoted, escaped) to out.
  static void quote(std::string_view s, std::string& out);
  // Writes what is buffered to the stream.
  void flush();

 private:
  void separate();  // the comma before a value or member
  void newline();
  void begin(char c);
  void end(char c);
  void string(std::string_view s);
  void number(uint64_t n);
  void number(int64_t n);

  std::FILE* out_;
  std::string buf_;
  bool pretty_;
  int depth_ = 0;
  char sep_ = '\0';
};

}  // namespace rdma::view
