#include "lib/view/read_text.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "lib/error.h"

namespace rdma::view {
namespace {

std::string read_text_error(const std::string& path, const std::string& what) {
  try {
    read_text(path, what);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReadText, WholeFileWithNulsAndNoFinalNewline) {
  char path[] = "/tmp/read_text_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  std::string body(100000, 'x');  // more than one read
  body[5] = '\0';
  body += "\nlast";
  ASSERT_EQ(write(fd, body.data(), body.size()), static_cast<ssize_t>(body.size()));
  close(fd);
  EXPECT_EQ(read_text(path, "the test file"), body);
  unlink(path);
}

TEST(ReadText, OneWordingNamingWhatAndWhy) {
  EXPECT_EQ(read_text_error("/nonexistent/x", "the M_Key file"),
            "cannot read the M_Key file \"/nonexistent/x\": No such file or directory");
  // A directory opens but does not read: an error, not an empty file.
  EXPECT_EQ(read_text_error("/tmp", "the node name map"),
            "cannot read the node name map \"/tmp\": Is a directory");
}

}  // namespace
}  // namespace rdma::view
