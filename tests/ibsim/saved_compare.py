"""A view from FILE beside the live one (route.sh: node show, port show).

  saved_compare.py MIN LIVE.json FILE.json FILE.err [LIVE.txt FILE.txt]

Every field the file's JSON has equals the live one; the live fields it
lacks are those its one stderr line ("note: FILE does not hold a, b")
names; at least MIN fields. With the text files: the same target, and
the file's "key value" pairs are the live line's, in its order.
"""
import json
import re
import sys

least = int(sys.argv[1])
live, got = (json.load(open(p))[0] for p in sys.argv[2:4])
err = open(sys.argv[4]).read()
m = re.fullmatch(r"(?:note: \S+ does not hold (.*)\n)?", err)
if not m:
    sys.exit(f"stderr: {err!r}")
said = set(m[1].split(", ")) if m[1] else set()
# A port's rate and generation derive from its width and speed (sa show's
# PortInfoRecord): left out with them.
if {"width", "speed"} <= said:
    said |= {"rate", "generation"} & set(live)
wrong = {k: (v, live.get(k)) for k, v in got.items() if live.get(k) != v}
if wrong or set(live) - set(got) != said or len(got) < least:
    sys.exit(f"differ {wrong}; left out {sorted(set(live) - set(got))}, said {sorted(said)}")
out = f"{len(got)} fields equal, {len(said)} not in the file"
if len(sys.argv) > 6:
    lt, ft = (open(p).read().split(": ", 1) for p in sys.argv[5:7])

    def pairs(s):
        w = s.split()
        return [tuple(w[i:i + 2]) for i in range(0, len(w), 2)]

    lp, fp = pairs(lt[1]), pairs(ft[1])
    it = iter(lp)
    if lt[0] != ft[0] or not all(p in it for p in fp) or len(fp) < 4:
        sys.exit(f"text {ft} is not of {lt}")
    out += f", {len(fp)} text pairs"
print(out)
