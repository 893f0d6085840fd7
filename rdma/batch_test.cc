#include "rdma/batch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "lib/error.h"

namespace rdma {
namespace {

using Words = std::vector<std::string>;

TEST(Batch, SplitsQuotesEscapesAndComments) {
  EXPECT_EQ(split_words("dev show  rxe0 # trailing"), (Words{"dev", "show", "rxe0"}));
  EXPECT_EQ(split_words("a \"b c\" 'd e' f\\ g"), (Words{"a", "b c", "d e", "f g"}));
  EXPECT_EQ(split_words("a \"x\\\"y\""), (Words{"a", "x\"y"}));
  EXPECT_EQ(split_words("a#b"), (Words{"a#b"}));  // '#' inside a word is not a comment
  EXPECT_TRUE(split_words("   # only a comment").empty());
  EXPECT_THROW(split_words("dev \"unterminated"), Error);
}

TEST(Batch, ContinuationsAndLineNumbers) {
  const char text[] = "# header\n\ndev show \\\n  rxe0\nlink\n";
  std::FILE* f = fmemopen(const_cast<char*>(text), std::strlen(text), "r");
  int lineno = 0;
  BatchLine l;
  ASSERT_TRUE(read_batch_line(f, lineno, l));
  EXPECT_EQ(l.lineno, 3);
  EXPECT_EQ(l.words, (Words{"dev", "show", "rxe0"}));
  ASSERT_TRUE(read_batch_line(f, lineno, l));
  EXPECT_EQ(l.lineno, 5);
  EXPECT_EQ(l.words, (Words{"link"}));
  EXPECT_FALSE(read_batch_line(f, lineno, l));
  std::fclose(f);
}

}  // namespace
}  // namespace rdma
