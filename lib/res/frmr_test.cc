#include "lib/res/frmr.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma::res {
namespace {

TEST(FrmrKey, ParsesFourHexFields) {
  FrmrKey k = parse_frmr_key("1a:100:1f:1");
  EXPECT_EQ(k.vendor_key, 0x1au);
  EXPECT_EQ(k.num_dma_blocks, 0x100u);
  EXPECT_EQ(k.access_flags, 0x1fu);
  EXPECT_EQ(k.ats, 1);
  EXPECT_EQ(frmr_key_text(k), "1a:100:1f:1");
  k = parse_frmr_key("0x0:0X8:0:0");
  EXPECT_EQ(k.num_dma_blocks, 8u);
  EXPECT_EQ(frmr_key_text(k), "0:8:0:0");
  EXPECT_EQ(frmr_key_text(parse_frmr_key("ffffffffffffffff:1:ffffffff:0")),
            "ffffffffffffffff:1:ffffffff:0");
}

TEST(FrmrKey, ExtraFieldsOnlyWhenZero) {
  EXPECT_EQ(parse_frmr_key("1:2:3:0:0:0").vendor_key, 1u);
  EXPECT_THROW(parse_frmr_key("1:2:3:0:1"), Error);
}

TEST(FrmrKey, BadKeysNameWhatIsWrong) {
  auto message = [](const char* text) {
    try {
      parse_frmr_key(text);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("1:2:3"),
            "invalid FRMR pool key \"1:2:3\": it has 3 fields, not 4 (expected "
            "VENDOR:NDMA:ACCESS:ATS, hex)");
  EXPECT_NE(message("1:2:3:2").find("ats \"2\" is neither 0 nor 1"), std::string::npos);
  EXPECT_NE(message("1:2:100000000:0").find("exceed 32 bits"), std::string::npos);
  EXPECT_NE(message("1:zz:3:0").find("field 2 \"zz\" is not a hex number"), std::string::npos);
  EXPECT_NE(message("1::3:0").find("field 2 \"\" is not a hex number"), std::string::npos);
  EXPECT_NE(message("-1:2:3:0").find("not a hex number"), std::string::npos);
  EXPECT_NE(message("10000000000000000:2:3:0").find("out of range"), std::string::npos);
  EXPECT_NE(message("").find("not a hex number"), std::string::npos);
}

}  // namespace
}  // namespace rdma::res
