#include "lib/ib/mkey_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "lib/error.h"

namespace rdma::ib {
namespace {

// The lines opensm writes (0x%016llx 0x%016llx), a comment, a blank line,
// tabs and a CR, and decimal numbers as strtoull(s, NULL, 0) takes them.
TEST(MkeyFile, ReadsOpensmsLines) {
  MkeysByGuid k = parse_mkey_file(
      "# guid2mkey\n0x0002c90300a1b2c3 0x00000000000000aa\n\n"
      "\t0x0002c90300a1b2c4\t0x1122334455667788\r\n42 7\n",
      "guid2mkey");
  EXPECT_EQ(k, (MkeysByGuid{
                   {0x0002c90300a1b2c3, 0xaa}, {0x0002c90300a1b2c4, 0x1122334455667788}, {42, 7}}));
  EXPECT_TRUE(parse_mkey_file("", "f").empty());
}

std::string mkey_file_error(const std::string& text) {
  try {
    parse_mkey_file(text, "keys");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(MkeyFile, ABadLineIsAnErrorNamingFileAndLine) {
  EXPECT_EQ(mkey_file_error("0x1 0x2\n0x3\n"),
            "keys:2: expected \"PORT_GUID M_KEY\", found 1 field");
  EXPECT_EQ(mkey_file_error("0x1 0x2 0x3\n"),
            "keys:1: expected \"PORT_GUID M_KEY\", found 3 fields");
  EXPECT_EQ(mkey_file_error("# c\nguid 0x2\n"),
            "keys:2: \"guid\" is not a port GUID (a 64-bit number, not 0)");
  EXPECT_EQ(mkey_file_error("0 0x2\n"),
            "keys:1: \"0\" is not a port GUID (a 64-bit number, not 0)");
  EXPECT_EQ(mkey_file_error("0x10000000000000000 1\n"),
            "keys:1: \"0x10000000000000000\" is not a port GUID (a 64-bit number, not 0)");
  // The bad key is not echoed: part of it may be the secret.
  EXPECT_EQ(mkey_file_error("0x5 0xsecret\n"), "keys:1: the M_Key of 0x5 is not a 64-bit number");
  EXPECT_EQ(mkey_file_error("0x5 1\n5 2\n"), "keys:2: port GUID 5 is given a second time");
}

TEST(MkeyFile, ReadsTheFileAndNamesOneItCannotRead) {
  std::string path = ::testing::TempDir() + "/mkey_file_test_keys";
  std::ofstream(path) << "0x10 0x20\n";
  EXPECT_EQ(read_mkey_file(path), (MkeysByGuid{{0x10, 0x20}}));
  std::remove(path.c_str());
  try {
    read_mkey_file(path);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot read the M_Key file \"" + path + "\": No such file or directory");
  }
}

}  // namespace
}  // namespace rdma::ib
