#include "lib/view/json_writer.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "lib/view/printer.h"

namespace rdma::view {
namespace {

// What a printer made by make writes for the records, finish() included.
std::string render_with(const std::function<std::unique_ptr<Printer>(std::FILE*)>& make,
                        const std::vector<Record>& records) {
  char* text = nullptr;
  size_t size = 0;
  std::FILE* f = open_memstream(&text, &size);
  {
    auto p = make(f);
    for (const Record& r : records) {
      p->record(r);
      p->flush();
    }
    p->finish();
  }
  std::fclose(f);
  std::string out(text, size);
  free(text);
  return out;
}

std::string render(bool json, bool pretty, const std::vector<Record>& records) {
  return render_with(
      [&](std::FILE* f) { return json ? make_json_printer(f, pretty) : make_text_printer(f); },
      records);
}

std::vector<Record> two_devices() {
  std::vector<Record> rs(2);
  for (int i = 0; i < 2; ++i) {
    rs[i].add("ifindex", std::to_string(i) + ": ", i);
    rs[i].add("ifname", "rxe" + std::to_string(i) + ": ", "rxe" + std::to_string(i));
    rs[i].add("caps", "\n    caps: <A, B>", Json::array({"A", "B"}));
    rs[i].add("on", "", true);
  }
  return rs;
}

TEST(Printers, TextJoinsFieldsAndEndsTheLine) {
  EXPECT_EQ(render(false, false, two_devices()),
            "0: rxe0: \n    caps: <A, B>\n1: rxe1: \n    caps: <A, B>\n");
}

// The views iproute2 lacks end no line in a blank; blanks inside a line
// stay, and -o joins the trimmed lines.
TEST(Printers, TextTrimmedLineEnds) {
  for (bool oneline : {false, true}) {
    std::string text = render_with(
        [&](std::FILE* f) {
          auto p = make_text_printer(f, oneline);
          p->set_line_ends(Printer::LineEnds::Trimmed);
          return p;
        },
        two_devices());
    EXPECT_EQ(text, oneline ? "0: rxe0:\\    caps: <A, B>\n1: rxe1:\\    caps: <A, B>\n"
                            : "0: rxe0:\n    caps: <A, B>\n1: rxe1:\n    caps: <A, B>\n");
  }
  Record r;
  r.pair("a", "1");
  r.add("", "   ", nullptr);
  r.pair("b", "2");
  EXPECT_EQ(render_with(
                [](std::FILE* f) {
                  auto p = make_text_printer(f);
                  p->set_line_ends(Printer::LineEnds::Trimmed);
                  return p;
                },
                {r}),
            "a 1    b 2\n");
}

TEST(Printers, CompactJsonLikeIproute2) {
  EXPECT_EQ(render(true, false, two_devices()),
            "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"caps\":[\"A\",\"B\"],\"on\":true},"
            "{\"ifindex\":1,\"ifname\":\"rxe1\",\"caps\":[\"A\",\"B\"],\"on\":true}]\n");
}

// The layout of iproute2's json_writer, checked byte for byte against
// iproute2 6.1 on Linux 6.1 (rdma -j -p -d dev).
TEST(Printers, PrettyJsonLikeIproute2) {
  EXPECT_EQ(render(true, true, two_devices()),
            "[ {\n"
            "        \"ifindex\": 0,\n"
            "        \"ifname\": \"rxe0\",\n"
            "        \"caps\": [ \"A\",\"B\" ],\n"
            "        \"on\": true\n"
            "    },{\n"
            "        \"ifindex\": 1,\n"
            "        \"ifname\": \"rxe1\",\n"
            "        \"caps\": [ \"A\",\"B\" ],\n"
            "        \"on\": true\n"
            "    } ]\n");
}

// JSON lines (monitor): a document per record, no array and no comma
// between them, each on its own line.
TEST(Printers, JsonLinesWriteADocumentPerRecord) {
  std::string out =
      render_with([](std::FILE* f) { return make_json_lines_printer(f, false); }, two_devices());
  EXPECT_EQ(out,
            "{\"ifindex\":0,\"ifname\":\"rxe0\",\"caps\":[\"A\",\"B\"],\"on\":true}\n"
            "{\"ifindex\":1,\"ifname\":\"rxe1\",\"caps\":[\"A\",\"B\"],\"on\":true}\n");
}

TEST(Printers, EmptyOutputIsStillValidJson) {
  EXPECT_EQ(render(true, false, {}), "[]\n");
  EXPECT_EQ(render(true, true, {}), "[ ]\n");
}

TEST(Printers, StringsAreEscaped) {
  std::vector<Record> rs(1);
  rs[0].add("comm", "", "a\"b\\c\n\x01");
  EXPECT_EQ(render(true, false, rs), "[{\"comm\":\"a\\\"b\\\\c\\n\\u0001\"}]\n");
}

}  // namespace
}  // namespace rdma::view
