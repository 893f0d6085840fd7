#!/usr/bin/env python3
"""Compares rdma fabric check / route output (JSON) with infiniband-diags' text.

  check_compare.py fts DUMP_FTS.txt OURS.json      route show all: every switch's LIDs, out
                                                   port, port GUID and description (-a:
                                                   the port alone where it is 255)
  check_compare.py users IBFINDNODESUSING.txt OURS.json
                                                   route users: the end nodes each way
  check_compare.py ids IBIDSVERIFY.txt OURS.json   fabric check ids: the duplicate LIDs

Prints what was compared; exits 1 with the differences.
"""
import json
import re
import sys

ENTRY = re.compile(r"^0x([0-9a-f]{4}) (\d{3}) : \((.*) portguid 0x([0-9a-f]+): '(.*)'\)$")
ILLEGAL = re.compile(r"^0x([0-9a-f]{4}) (\d{3}) : \(path #\d+ - illegal port\)$")


def fts(diags, ours):
    want, switch = {}, None
    for line in diags.splitlines():
        m = re.match(r"^Unicast lids .* guid 0x([0-9a-f]+)", line)
        if m:
            switch = int(m.group(1), 16)
            continue
        m = ENTRY.match(line)
        if m and switch is not None:
            want[(switch, int(m.group(1), 16))] = (int(m.group(2)), int(m.group(4), 16),
                                                   m.group(5))
        m = ILLEGAL.match(line)
        if m and switch is not None:
            want[(switch, int(m.group(1), 16))] = (int(m.group(2)), None, None)
    # dump_fts lists only the LIDs someone answers at; -a the entries that
    # send a LID nowhere too, without a destination.
    have = {(int(e["switch_guid"], 16), e["lid"]):
            (e["port"], int(e["port_guid"], 16), e["description"]) if e["port"] != 255
            else (255, None, None)
            for e in ours if "port_guid" in e or e["port"] == 255}
    if not want:
        return ["dump_fts printed no LIDs"]
    errors = [f"switch {s:#x} lid {l}: dump_fts {want.get((s, l))}, rdma {have.get((s, l))}"
              for s, l in sorted(set(want) | set(have)) if want.get((s, l)) != have.get((s, l))]
    switches = len({s for s, _ in want})
    return errors or f"{len(want)} entries of {switches} switches equal"


def expand(names):
    """ibfindnodesusing's compressed host list ("h1-3 h5") -> names."""
    out = set()
    for word in names.split():
        m = re.fullmatch(r"(.*?)(\d+)-(\d+)", word)
        if m:
            width = len(m.group(2))
            for i in range(int(m.group(2)), int(m.group(3)) + 1):
                out.add(f"{m.group(1)}{i:0{width}d}")
        else:
            out.add(word)
    return out


def users(diags, ours):
    lines = diags.splitlines()
    want = {}
    for i, line in enumerate(lines):
        for arrow, direction in (("==>>", "out"), ("<<==", "in")):
            if arrow in line:
                want[direction] = expand(lines[i + 1]) if i + 1 < len(lines) else set()
    if set(want) != {"out", "in"}:
        return ["ibfindnodesusing printed no two directions"]
    have = {"out": set(), "in": set()}
    for e in ours:
        have[e["direction"]].add(e["description"])
    errors = [f"{d}: ibfindnodesusing {sorted(want[d])}, rdma {sorted(have[d])}"
              for d in ("out", "in") if want[d] != have[d]]
    return errors or f"out {len(want['out'])}, in {len(want['in'])} end nodes equal"


def ids(diags, ours):
    want = {int(m.group(1)) for m in re.finditer(r"^LID (\d+) already defined", diags, re.M)}
    have = set()
    for e in ours:
        m = re.fullmatch(r"duplicate LID (\d+) on \d+ ports", e.get("what", ""))
        if m and e["severity"] == "error":
            have.add(int(m.group(1)))
    if not want:
        return ["ibidsverify found no duplicate LID"]
    return ([f"duplicate LIDs: ibidsverify {sorted(want)}, rdma {sorted(have)}"]
            if want != have else f"duplicate LIDs {sorted(want)} equal")


def main():
    kind, diags_file, ours_file = sys.argv[1:4]
    with open(diags_file) as f:
        diags = f.read()
    with open(ours_file) as f:
        ours = json.load(f)
    result = {"fts": fts, "users": users, "ids": ids}[kind](diags, ours)
    if isinstance(result, list):
        print("\n".join(result))
        sys.exit(1)
    print(result)


main()
