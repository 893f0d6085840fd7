#include "lib/res/summary.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/nldev/newer.h"

namespace rdma::res {
namespace {

// A RES_GET reply of device 3 "rxe0" with the summary entries put by fill.
template <typename Fill>
std::vector<uint8_t> summary_reply(Fill fill) {
  std::vector<uint8_t> buf(1024);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_GET);
  mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
  mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
  nlattr* table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY);
  fill(nlh);
  mnl_attr_nest_end(nlh, table);
  return buf;
}

void summary_entry(nlmsghdr* nlh, const char* name, std::optional<uint64_t> curr) {
  nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
  if (name) mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name);
  if (curr) mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, *curr);
  mnl_attr_nest_end(nlh, e);
}

const nlmsghdr* summary_msg(const std::vector<uint8_t>& b) {
  return reinterpret_cast<const nlmsghdr*>(b.data());
}

std::string summary_error(const std::vector<uint8_t>& b) {
  view::Record r;
  try {
    summary_record(summary_msg(b), r);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ResSummaryRecord, TextAndJsonForms) {
  auto b = summary_reply([](nlmsghdr* nlh) {
    summary_entry(nlh, "pd", 7);
    summary_entry(nlh, "qp", 18446744073709551615u);
  });
  view::Record text;
  text.set_text_only(true);
  summary_record(summary_msg(b), text);
  std::string line;
  for (const view::Field& f : text) line += f.text;
  EXPECT_EQ(line, "3: rxe0: pd 7 qp 18446744073709551615 ");
  EXPECT_EQ(text[0].key, "");

  view::Record json;
  summary_record(summary_msg(b), json);
  ASSERT_EQ(json.size(), 4u);
  EXPECT_EQ(json[0].key, "ifindex");
  EXPECT_EQ(json[0].value, 3u);
  EXPECT_EQ(json[1].key, "ifname");
  EXPECT_EQ(json[1].value, "rxe0");
  EXPECT_EQ(json[3].key, "qp");
  EXPECT_EQ(json[3].value, 18446744073709551615u);
  EXPECT_EQ(json[3].text, "qp 18446744073709551615 ");
}

TEST(ResSummaryRecord, TheLastAttributeOfATypeAndNewerOnesIgnored) {
  auto b = summary_reply([](nlmsghdr* nlh) {
    nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
    mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "pd");
    mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, 1);
    mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "cq");
    mnl_attr_put_u32(nlh, 1000, 5);
    mnl_attr_nest_end(nlh, e);
  });
  view::Record r;
  r.set_text_only(true);
  summary_record(summary_msg(b), r);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[2].text, "cq 1 ");
}

TEST(ResSummaryRecord, CurrentOverMaxWhenTheKernelSendsTheLimit) {
  auto b = summary_reply([](nlmsghdr* nlh) {
    summary_entry(nlh, "qp", 5);
    nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
    mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "cq");
    mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, 2);
    mnl_attr_put_u64(nlh, nldev::kAttrResSummaryEntryMax, 65536);
    mnl_attr_nest_end(nlh, e);
  });
  view::Record text;
  text.set_text_only(true);
  summary_record(summary_msg(b), text);
  std::string line;
  for (const view::Field& f : text) line += f.text;
  EXPECT_EQ(line, "3: rxe0: qp 5 cq 2/65536 ");

  view::Record json;
  summary_record(summary_msg(b), json);
  ASSERT_EQ(json.size(), 5u);
  EXPECT_EQ(json[3].key, "cq");
  EXPECT_EQ(json[3].value, 2u);
  EXPECT_EQ(json[4].key, "cq-max");
  EXPECT_EQ(json[4].value, 65536u);
  EXPECT_EQ(json[4].text, "");  // JSON only

  EXPECT_EQ(summary_error(summary_reply([](nlmsghdr* nlh) {
              nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
              mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "pd");
              mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, 1);
              mnl_attr_put_u32(nlh, nldev::kAttrResSummaryEntryMax, 9);
              mnl_attr_nest_end(nlh, e);
            })),
            "malformed kernel reply: RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_MAX has 4 bytes, "
            "expected 8");
}

TEST(ResSummaryRecord, MalformedEntries) {
  EXPECT_EQ(summary_error(summary_reply([](nlmsghdr* nlh) { summary_entry(nlh, "pd", {}); })),
            "malformed kernel reply: resource summary entry without name or count");
  EXPECT_EQ(summary_error(summary_reply([](nlmsghdr* nlh) { summary_entry(nlh, nullptr, 1); })),
            "malformed kernel reply: resource summary entry without name or count");
  EXPECT_EQ(summary_error(summary_reply([](nlmsghdr* nlh) {
              nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
              mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, "pd");
              mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, 1);
              mnl_attr_nest_end(nlh, e);
            })),
            "malformed kernel reply: RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR has 4 bytes, "
            "expected 8");
  EXPECT_EQ(summary_error(summary_reply([](nlmsghdr* nlh) {
              nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);
              mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
              mnl_attr_nest_end(nlh, e);
            })),
            "malformed kernel reply: RDMA_NLDEV_ATTR_DEV_INDEX has 1 bytes, expected 4");
}

}  // namespace
}  // namespace rdma::res
