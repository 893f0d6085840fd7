#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/NAME.

nl_replies: the recorded kernel replies of tests/data/golden, for the views
of fuzz_nl_replies.cc's table that were recorded; mad_decode and mad_attrs:
the MADs captured from ibsim (lib/testing/captured.h); cmdline and batch:
the command lines of tests/vm/corpus*.txt; topology: the simulator's
topology files (tests/ibsim/*.net, tests/data/*.net, *.topo); node_name_map and
thresholds: small files of each format written here. fabric_file's seeds
(net-*: `rdma fabric save` of tests/ibsim/net under the simulator; topo-*:
tests/data/ibnetdiscover-net.topo, which `from FILE` reads too, and the
fuzzer's find of a description that is not UTF-8) are kept as they are
(not written here). Run from anywhere; it replaces
the seeds it wrote before (files named seed-*).
"""
import glob
import hashlib
import json
import os
import re
import struct

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")


def write(name, data):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    h = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, "seed-" + h), "wb") as f:
        f.write(data)


def clear(name):
    for f in glob.glob(os.path.join(OUT, name, "seed-*")):
        os.remove(f)


def views():
    src = open(os.path.join(ROOT, "tests", "fuzz", "fuzz_nl_replies.cc")).read()
    table = src.split("kViews[] = {", 1)[1].split("};", 1)[0]
    return re.findall(r'"([^"]*)"', table)


def nl_replies():
    clear("nl_replies")
    table = views()
    n = 0
    for index in glob.glob(os.path.join(ROOT, "tests", "data", "reference", "*", "INDEX")):
        kdir = os.path.basename(os.path.dirname(index))
        for line in open(index):
            name, cmd = line.rstrip("\n").split("\t", 1)
            if cmd not in table:
                continue
            path = os.path.join(ROOT, "tests", "data", "golden", kdir, name + ".nl")
            if not os.path.exists(path):
                continue
            body = b""
            for l in open(path):
                if l.startswith("< ") and len(l) > 3:
                    b = bytes.fromhex(l[2:].strip())
                    body += struct.pack("<H", len(b)) + b
            if body:
                write("nl_replies", bytes([table.index(cmd), 3]) + body)
                n += 1
    return n


def captured_mads():
    src = open(os.path.join(ROOT, "lib", "testing", "captured.h")).read()
    out = []
    for m in re.finditer(r'inline constexpr const char\* \w+ =\s*((?:"[^"]*"\s*)+);', src):
        text = "".join(re.findall(r'"([^"]*)"', m.group(1)))
        out.append(text)
    return out


def mads():
    clear("mad_decode")
    clear("mad_attrs")
    texts = captured_mads()
    for t in texts:
        raw = bytes.fromhex(t.replace(" ", ""))
        write("mad_decode", t.encode())
        write("mad_decode", raw)
        # Byte 0 picks the attribute (index into all_attrs()), byte 1 flags.
        for pick in range(48):
            write("mad_attrs", bytes([pick, 7]) + raw)
    return len(texts)


def command_lines():
    lines = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "vm", "corpus*.txt"))):
        for l in open(path):
            l = l.strip()
            if not l or l.startswith("#"):
                continue
            l = re.sub(r"^\[[^\]]*\]\s*", "", l)  # [6.12] kernel limits
            l = re.sub(r"^@\w+\s*", "", l)  # @unpriv
            lines.append(l)
    return lines


def cmdline_and_batch():
    clear("cmdline")
    clear("batch")
    lines = command_lines()
    for l in lines:
        write("cmdline", b"\0".join(w.encode() for w in l.split()))
    for i in range(0, len(lines), 6):
        chunk = lines[i:i + 6]
        text = "# seeds from tests/vm/corpus*.txt\n" + "\n".join(chunk) + "\n"
        write("batch", bytes([i // 6 % 2]) + text.encode())
    write("batch", b"\0dev show 'rxe0' # comment\nlink \\\n show \"rxe1/1\"\n\n-j res\n")
    return len(lines)


def files():
    for name in ("topology", "node_name_map", "thresholds"):
        clear(name)
    n = 0
    for pattern in ("tests/ibsim/net", "tests/ibsim/*.net", "tests/data/*.net", "tests/data/*.topo"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            write("topology", open(path, "rb").read())
            n += 1
    maps = [
        "# the site's names\n0x0002c90300001234 \"leaf \u00e9\u00e9n (rack 1)\"\n\n"
        "0x0002c90300005678   \"h\u00f6st 3\"   # two ports\n1234567 spine 3\n",
        "0002:c903:0000:abcd \"a\"\n0x10 \"dup\"\n0x10 \"dup again\"\n0x20\n",
    ]
    for m in maps:
        write("node_name_map", m.encode())
    # Cable plans: NDT's CSV (the columns in any order, quotes, skipped
    # link types), and the topology files plan.sh reads.
    clear("cable_plan")
    for c in ("StartDevice,StartPort,EndDevice,EndPort,LinkType,Width,Speed\n"
              "leaf1,1,spine1,1,Data,4X,EDR\nleaf1,Port 2,spine2,1,Data,4x,HDR\n"
              "leaf1,3,mgmt,1,Management,,\n",
              "# site plan\n\"End Port\",end_device,start-port,\"Start Device\"\n"
              "1,\"h\"\"1\",7,leaf 2\n2,h2,8,leaf 2\n"):
        write("cable_plan", c.encode())
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "ibsim", "plan*.net"))):
        write("cable_plan", open(path, "rb").read())
    # Counter snapshots (`fabric errors save`): one port of each width.
    clear("counter_snapshot")
    # lib/ib/errors.cc error_counters(): PortCounters' first 12, then two.
    src = open(os.path.join(ROOT, "lib", "mad", "attrs_perf.cc")).read()
    table = src.split("kCounterSelectNames[] = {", 1)[1].split("};", 1)[0]
    counters = re.findall(r'"(\w+)"', table)[:12] + ["PortXmitWait", "QP1Dropped"]
    for bits in (32, 64):
        port = {"node_guid": "0x0002c90300001234", "port": 1, "lid": 4,
                "description": "leaf 1", "bits": bits,
                "counters": {n: i for i, n in enumerate(counters)}}
        if bits == 64:
            port["port_guid"] = "0x0002c90300001235"
        doc = {"rdma_error_counters": 1, "time": 1764000000.5, "ports": [port]}
        write("counter_snapshot", (json.dumps(doc) + "\n").encode())
    for t in ("# ibqueryerrors thresholds\nSymbolErrorCounter=10\nLinkDownedCounter=1\n",
              "PortRcvErrors = 5 # spaces\nPortXmitDiscards=0x10\nNoSuchCounter=3\n"):
        write("thresholds", t.encode())
    return n


if __name__ == "__main__":
    print("nl_replies:", nl_replies(), "recordings")
    print("mads:", mads(), "captured MADs")
    print("command lines:", cmdline_and_batch())
    print("topology files:", files())
