#!/usr/bin/python3
"""Checks the page of `rdma fabric report DIR` as a reader meets it.

  report_page.py DIR SCREENSHOT.png

- html5lib reads DIR/report.html without a parse error;
- it is self-contained: no script, no external style, font, image or link;
- its numbers equal DIR/findings.json's: the verdict, the counts of every
  check and the totals, and each group's members add up to the findings;
- headless Chromium (through chromedriver) opens it from disk, with the
  network off, and the verdict and the checks' table are in the first
  screen (1280x800); the screenshot is written to SCREENSHOT.png.

Prints "ok: ..." and "FAIL: ..." lines. Run with Debian's python3 (html5lib,
selenium), without the simulator's LD_PRELOAD.
"""
import json
import os
import sys
import tempfile

import html5lib

NS = "{http://www.w3.org/1999/xhtml}"
failed = 0


def check(ok, what, detail=""):
    global failed
    if ok:
        print("ok: " + what)
    else:
        failed += 1
        print("FAIL: " + what + (": " + str(detail) if detail else ""))


def text(el):
    return "".join(el.itertext()).strip()


def main():
    d, shot = sys.argv[1], sys.argv[2]
    page = os.path.join(d, "report.html")
    raw = open(page, "rb").read()
    parser = html5lib.HTMLParser(strict=False)
    doc = parser.parse(raw)
    check(not parser.errors, "html5lib reads report.html without errors", parser.errors[:3])

    scripts = doc.findall(".//" + NS + "script")
    links = doc.findall(".//" + NS + "link")
    srcs = [e for e in doc.iter() if "src" in e.attrib]
    remote = [e.attrib["href"] for e in doc.iter()
              if "href" in e.attrib and ":" in e.attrib["href"]]
    check(not scripts and not links and not srcs and not remote,
          "self-contained: no script, link, src or remote href",
          (len(scripts), len(links), len(srcs), remote[:3]))

    findings = json.load(open(os.path.join(d, "findings.json")))
    summary = findings["summary"]
    verdict = doc.find(".//" + NS + "header[@id='verdict']")
    check(verdict is not None and verdict.attrib.get("data-verdict") == summary["verdict"],
          "the page's verdict is findings.json's (%s)" % summary["verdict"],
          verdict.attrib if verdict is not None else "no verdict")

    rows = {}
    for tr in doc.iter(NS + "tr"):
        name = tr.attrib.get("data-check")
        if not name:
            continue
        cells = {td.attrib["data-severity"]: int(text(td)) for td in tr
                 if "data-severity" in td.attrib}
        rows[name] = cells
    want = {c["check"]: c for c in summary["checks"]}
    for name, c in want.items():
        got = rows.get(name)
        if c.get("skipped"):
            check(got == {}, "check %s: not run in the page as in findings.json" % name, got)
            continue
        check(got == {"error": c["errors"], "warning": c["warnings"], "info": c["notes"]},
              "check %s: the page's counts equal findings.json's" % name, (got, c))
    check(rows.get("total") == {"error": summary["errors"], "warning": summary["warnings"],
                                "info": summary["notes"]},
          "the totals equal findings.json's", (rows.get("total"), summary))
    check(set(rows) - {"total"} == set(want), "the same checks in the page and findings.json",
          (sorted(rows), sorted(want)))
    by_sev = {"error": 0, "warning": 0, "info": 0}
    for det in doc.iter(NS + "details"):
        if "data-count" in det.attrib:
            by_sev[det.attrib["data-severity"]] += int(det.attrib["data-count"])
    counted = {"error": 0, "warning": 0, "info": 0}
    for f in findings["findings"]:
        counted[f["severity"]] += 1
    check(by_sev == counted, "the grouped findings add up to findings.json's list", (by_sev, counted))

    browse(page, shot)
    print("%d failed" % failed)
    return 1 if failed else 0


def browse(page, shot):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="rdma-report-chromium-")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--window-size=1280,800", "--user-data-dir=" + profile,
              # The page must not need the network: none is given.
              "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    try:
        driver.set_page_load_timeout(30)
        driver.get("file://" + os.path.abspath(page))
        height = driver.execute_script("return window.innerHeight")
        for el in ("verdict", "summary"):
            bottom = driver.execute_script(
                "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
                "return r.bottom;", el)
            check(bottom <= height, "Chromium: #%s is in the first screen (bottom %d of %d)"
                  % (el, bottom, height))
        shown = driver.execute_script(
            "return document.getElementById('verdict').innerText")
        check(shown.startswith("Fabric "), "Chromium shows the verdict: " + shown.split("\n")[0])
        check(driver.save_screenshot(shot) and os.path.getsize(shot) > 1000,
              "Chromium's screenshot " + shot)
    finally:
        driver.quit()


if __name__ == "__main__":
    sys.exit(main())
