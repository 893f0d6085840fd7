#!/usr/bin/env python3
"""Checks what bw-guest.sh wrote in the VM (the directory given): `rdma bw`
between rxe1 and rxe0 beside perftest's ib_write_bw and ib_send_lat (-R) on
the same pair: bandwidth at least 0.9x ib_write_bw's (the better of two
rounds each, interleaved: the host is shared), latency of the same order as
ib_send_lat's, the text form, and the errors (one line, exit 1, in bounded
time). Prints "ok: ..." / "FAIL: ..." lines."""
import json
import re
import sys

import vmcheck
from vmcheck import ok


def read(name):
    """A file the VM wrote; empty when it did not (a run that stopped early)."""
    try:
        return vmcheck.read(name)
    except OSError:
        return ""


def elapsed(name):
    t = read(name).split()
    return float(t[1]) - float(t[0]) if len(t) == 2 else -1


def perftest_row(name):
    """The numbers of the result row after perftest's "#bytes" header."""
    lines = read(name).splitlines()
    for i, l in enumerate(lines):
        if l.strip().startswith("#bytes") and i + 1 < len(lines):
            return [float(x) for x in lines[i + 1].split()]
    return None


def ours(name):
    rc, err = read(name + ".rc").strip(), read(name + ".err")
    try:
        j = json.loads(read(name + ".out"))
    except ValueError as e:
        ok(False, f"{name}: valid JSON", f"{e}; exit {rc}, stderr {err!r}")
        return None
    ok(rc == "0" and err == "" and len(j) == 1, f"{name}: exit 0, empty stderr, one object",
       f"exit {rc}, stderr {err!r}")
    return j[0] if j else None


if not read("bw-1.cli.rc"):
    ok(False, "bw: the VM ran bw-guest.sh", "no bw-1.cli.rc")
    sys.exit(1)

KEYS = ["dev", "port", "peer", "cm_port", "size", "iterations", "bytes", "time_us", "bw_gbps",
        "bw_mbps", "lat_size", "lat_us_min", "lat_us_median", "lat_us_avg", "lat_us_p99",
        "lat_us_max"]
bws, perf_bws = [], []
for r in (1, 2):
    c, s = ours(f"bw-{r}.cli"), ours(f"bw-{r}.srv")
    if c:
        ok(list(c) == KEYS, f"bw client round {r}: the keys", " ".join(c))
        ok(c.get("dev") == "rxe1" and c.get("port") == 1 and c.get("peer") == "192.0.2.1",
           f"bw client round {r}: rxe1/1 to 192.0.2.1", json.dumps(c))
        ok(c.get("bytes") == c.get("size", 0) * c.get("iterations", 0) == 65536 * 200,
           f"bw client round {r}: 200 x 65536 bytes")
        b = c.get("bw_gbps", 0)
        ok(b > 0 and abs(c.get("bw_mbps", 0) - b * 1000) < 0.01 and
           abs(b - c["bytes"] * 8 / (c["time_us"] * 1000)) < 0.01 * b + 0.001,
           f"bw client round {r}: bw_gbps = bytes / time_us ({b} Gb/s)", json.dumps(c))
        ok(0 < c["lat_us_min"] <= c["lat_us_median"] <= c["lat_us_p99"] <= c["lat_us_max"] and
           c["lat_us_min"] <= c["lat_us_avg"] <= c["lat_us_max"],
           f"bw client round {r}: min <= median <= p99 <= max, min <= avg <= max")
        bws.append(b)
    if s:
        ok(s.get("dev") == "rxe0" and s.get("peer") == "192.0.2.2" and
           s.get("iterations") == 200 and s.get("size") == 65536,
           f"bw server round {r}: rxe0 served 192.0.2.2, 200 x 65536", json.dumps(s))
    p = perftest_row(f"perf-bw-{r}.cli.out")
    if ok(p is not None and read(f"perf-bw-{r}.cli.rc").strip() == "0",
          f"ib_write_bw round {r} ran", read(f"perf-bw-{r}.cli.out")[-400:]):
        perf_bws.append(p[3])  # BW average[Gb/sec]
if bws and perf_bws:
    ok(max(bws) >= 0.9 * max(perf_bws),
       f"bw: rdma bw {max(bws):.4f} Gb/s >= 0.9 x ib_write_bw {max(perf_bws):.4f} Gb/s "
       f"(rounds: ours {bws}, ib_write_bw {perf_bws})")
lat = perftest_row("perf-lat.cli.out")
c = ours("bw-1.cli")
if ok(lat is not None, "ib_send_lat ran", read("perf-lat.cli.out")[-400:]) and c:
    # ib_send_lat: #bytes #iterations t_min t_max t_typical t_avg ...
    ratio = c["lat_us_avg"] / lat[5] if lat[5] else 0
    ok(0.1 <= ratio <= 10,
       f"latency: rdma bw avg {c['lat_us_avg']} us, ib_send_lat avg {lat[5]} us "
       f"(median {c['lat_us_median']} / typical {lat[4]}): the same order")

text = read("bw-text.cli.out")
ok(re.fullmatch(r"rxe1/1 to 192\.0\.2\.1 port 18515\n"
                r"  RDMA write 4096 bytes x 50: [0-9.]+ Gb/s \([0-9.]+ Mb/s\)\n"
                r"  send/recv 2 bytes x 50: latency min [0-9.]+ median [0-9.]+ avg [0-9.]+ "
                r"p99 [0-9.]+ max [0-9.]+ us\n", text) is not None and
   read("bw-text.cli.rc").strip() == "0", "bw client: text form", repr(text))
ok(re.fullmatch(r"rxe0/1 served 192\.0\.2\.2 port 18515: 50 RDMA writes of 4096 bytes, "
                r"50 ping-pongs of 2 bytes\n", read("bw-text.srv.out")) is not None,
   "bw server: text form", repr(read("bw-text.srv.out")))

if read("bw-siw.cli.rc"):
    c, s = ours("bw-siw.cli"), ours("bw-siw.srv")
    ok(c and s and c["dev"] == s["dev"] == "siw0" and c["peer"] == "198.51.100.1" and
       c["bw_gbps"] > 0 and c["lat_us_avg"] > 0,
       "bw on iWARP: siw0 to its own address", json.dumps([c, s]))
else:
    ok(False, "bw on iWARP: siw0 ran", "no siw0 in the VM (tests/vm/setup.sh builds siw)")

ERRORS = [
    ("err-refused", r"192\.0\.2\.1 port 18515 refused the connection", 15),
    ("err-noroute", r"no RDMA device has a route to 198\.51\.100\.77: ", 15),
    ("err-noarp", r"no RDMA device has a route to 192\.0\.2\.77: |resolving 192\.0\.2\.77: no answer", 15),
    ("err-wrongdev", r"192\.0\.2\.1 is reached through rxe1/1, not rxe0 ", 15),
    ("err-wait", r"no client connected in 2 s$", 6),
    # An InfiniBand target on RoCE and iWARP only (rdma/bw.cc; the AF_IB
    # connection itself is the unit tests', on a fake librdmacm).
    ("err-ibtarget", r"^lid 4 is an InfiniBand target: .*(no InfiniBand|not InfiniBand)", 15),
    ("err-ibtarget-dev", r'^name "h4" is an InfiniBand target: .*(not InfiniBand|no RDMA device|umad)', 15),
]
for name, want, bound in ERRORS:
    rc, out, err, t = read(name + ".rc").strip(), read(name + ".out"), read(name + ".err"), elapsed(name + ".time")
    ok(rc == "1" and out == "" and len(err.splitlines()) == 1 and re.search(want, err) and 0 <= t <= bound,
       f"{name}: one line, exit 1, {t:.1f} s (at most {bound}): {err.strip()}",
       f"exit {rc}, out {out!r}, {t:.1f} s")
rc, err, t = read("err-srvdev.cli.rc").strip(), read("err-srvdev.cli.err"), elapsed("err-srvdev.cli.time")
ok(rc == "1" and "refused the connection" in err and len(err.splitlines()) == 1,
   f"a server on rxe1 refuses a client arriving on rxe0: {err.strip()}", f"exit {rc}")
ok(read("err-srvdev.srv.rc").strip() == "1" and
   read("err-srvdev.srv.err") == "no client connected in 8 s\n",
   "... and waits on until its wait ends", read("err-srvdev.srv.err"))
sys.exit(vmcheck.status())
