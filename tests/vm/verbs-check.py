#!/usr/bin/env python3
"""Checks what verbs-guest.sh wrote in the VM (the directory given): every
value of `rdma -j dev limits` and `rdma -j -d link status` against
`ibv_devinfo -v` (the rate and port GUID against ibstat), `rdma -j gid show` against the non-zero GIDs of sysfs
(before, with and after an extra address on veth0), which commands load
libibverbs, and the errors of devices whose verbs cannot be opened.
Prints "ok: ..." / "FAIL: ..." lines."""
import ipaddress
import json
import re
import sys

import vmcheck
from vmcheck import D, KV, ok, read


def load(name):
    """Our -j output: status 0, nothing on stderr, valid JSON."""
    rc, err = read(name + ".rc").strip(), read(name + ".err")
    try:
        j = json.loads(read(name + ".out"))
    except ValueError as e:
        ok(False, f"{name}: valid JSON", str(e))
        return None
    ok(rc == "0" and err == "", f"{name}: exit 0, empty stderr", f"exit {rc}, stderr {err!r}")
    return j


# ------------------------------------------------------------ ibv_devinfo
def strip_num(v):
    """'ATOMIC_HCA (1)' -> 'ATOMIC_HCA'"""
    return re.sub(r" \(-?\d+\)$", "", v)


def flag_line(v):
    v = v.strip()
    m = re.match(r"Unknown flags: (0x[0-9A-Fa-f]+)$", v)
    return m.group(1) if m else v


def value(v):
    v = v.strip()
    if re.fullmatch(r"-?\d+", v):
        return int(v)
    return v


def parse_devinfo(text):
    """ibv_devinfo -v -> {dev: (attrs, {port: attrs})}, values as our JSON
    has them: numbers as numbers, words without the number in
    parentheses, flag lines as lists, groups as objects."""
    devs = {}
    for block in re.split(r"^hca_id:\t", text, flags=re.M)[1:]:
        lines = block.split("\n")
        name = lines[0].strip()
        top, ports = {}, {}
        cur = top          # where key: value lines go
        group = None       # the open group object (tso_caps, rss_caps, ...)
        flags = None       # the list flag lines are appended to
        port = None
        for line in lines[1:]:
            if not line.strip():
                continue
            tabs = len(line) - len(line.lstrip("\t"))
            s = line.strip()
            if tabs >= 5:  # a flag under the last key
                if flags is not None and s != "NO SUPPORT":
                    flags.append(flag_line(s))
                continue
            m = re.match(r"port:\t(\d+)$", s)
            if m:
                port = int(m.group(1))
                ports[port] = cur = {}
                group = flags = None
                continue
            if port is not None:
                if s.startswith("GID["):
                    continue
                k, _, v = s.partition(":")
                cur[k] = v.strip()
                continue
            if s in ("completion_timestamp_mask not supported", "core clock not supported",
                     "tag matching not supported"):
                group = flags = None
                continue
            k, _, v = s.partition(":")
            k, v = k.strip(), v.strip()
            if k == "completion timestamp_mask":
                k = "completion_timestamp_mask"
            if k in ("tso_caps", "rss_caps", "packet_pacing_caps") and v == "":
                group = top[k] = {}
                flags = None
                continue
            if k == "cq moderation caps":
                group = top["cq_moderation_caps"] = {}
                continue
            if k == "supported_qp" and group is not None:
                flags = group[k] = []
                continue
            # tso_caps' max_tso is printed at the top level's indent
            into = group if group is not None and (tabs == 2 or k == "max_tso") else top
            if into is top:
                group = None
            if k in ("device_cap_flags", "device_cap_flags_ex", "general_odp_caps",
                     "rc_odp_caps", "uc_odp_caps", "ud_odp_caps", "xrc_odp_caps",
                     "raw packet caps", "flags"):
                flags = into["raw_packet_caps" if k == "raw packet caps" else k] = []
                continue
            flags = None
            if k in ("qp_rate_limit_min", "qp_rate_limit_max"):
                v = v.removesuffix("kbps")
            if k == "hca_core_clock":
                v = v.removesuffix("kHZ")
            if k == "max_cq_period":
                v = v.removesuffix(" us")
            if k == "maximum available device memory":
                k, v = "max_dm_size", v.removesuffix("Bytes")
            into[k] = value(strip_num(v))
        devs[name] = (top, ports)
    return devs


def check_limits(ref, ours):
    ok(set(ours) == set(ref), "dev limits: the devices of ibv_devinfo",
       f"ours {sorted(ours)}, ibv_devinfo {sorted(ref)}")
    for name in sorted(set(ref) & set(ours)):
        want, got = ref[name][0], dict(ours[name])
        got.pop("dev")
        missing = [k for k in want if k not in got]
        extra = [k for k in got if k not in want]
        ok(not missing and not extra, f"dev limits {name}: the keys of ibv_devinfo -v ({len(want)})",
           f"missing {missing}, not in ibv_devinfo {extra}")
        bad = [(k, got.get(k), want[k]) for k in want if k in got and got[k] != want[k]]
        ok(not bad, f"dev limits {name}: every value equals ibv_devinfo -v",
           "; ".join(f"{k}: ours {g!r}, ibv_devinfo {w!r}" for k, g, w in bad))


PORT_KEYS = {  # ours -> ibv_devinfo, where the name differs
    "width": "active_width", "speed": "active_speed", "physical_state": "phys_state",
}


def port_value(k, v):
    if k == "state":
        return v.removeprefix("PORT_")
    if k == "active_width":
        return v
    if k == "active_speed":
        return v.removesuffix(" Gbps")
    if k == "max_vl_num" and v.startswith("invalid"):
        return "invalid"
    return value(v)


def parse_ibstat(text):
    """ibstat -> {(dev, port): {"rate": ..., "port_guid": ...}}, the rate a
    number as our JSON has it ("2.5" for 1X SDR)."""
    ports, dev, port = {}, None, None
    for line in text.splitlines():
        m = re.match(r"CA '(\S+)'$", line)
        if m:
            dev, port = m.group(1), None
            continue
        m = re.match(r"\tPort (\d+):$", line)
        if m and dev:
            port = int(m.group(1))
            ports[(dev, port)] = {}
            continue
        m = re.match(r"\t\t(Rate|Port GUID): (\S+)", line)
        if m and port is not None:
            if m.group(1) == "Rate":
                v = m.group(2)
                ports[(dev, port)]["rate"] = float(v) if "." in v else int(v)
            else:
                ports[(dev, port)]["port_guid"] = m.group(2)
    return ports


IBSTAT_KEYS = ("rate", "port_guid")  # compared with ibstat, not ibv_devinfo


def check_ibstat(ibstat, ours):
    """rate and port_guid of every port ibstat shows (those with a umad
    device: not siw's) equal ibstat's Rate and Port GUID."""
    by = {(p["ifname"], p["port"]): p for p in ours}
    ok(bool(ibstat), "ibstat shows ports", "no port in ibstat.txt")
    for (dev, port), want in sorted(ibstat.items()):
        got = {k: by.get((dev, port), {}).get(k) for k in IBSTAT_KEYS}
        ok(got == want, f"link status {dev}/{port}: rate and port_guid = ibstat's Rate and Port GUID",
           f"ours {got}, ibstat {want}")


def check_status(ref, ours):
    seen = set()
    for p in ours:
        name, port = p["ifname"], p["port"]
        seen.add((name, port))
        want = ref.get(name, ({}, {}))[1].get(port)
        if not ok(want is not None, f"link status {name}/{port}: a port of ibv_devinfo"):
            continue
        bad = []
        for k, v in p.items():
            if k in ("ifname", "port") + IBSTAT_KEYS:
                continue
            rk = PORT_KEYS.get(k, k)
            if rk == "phys_state" and rk not in want:
                continue  # ibv_devinfo prints it for InfiniBand transport only
            if rk not in want:
                bad.append(f"{k}: not in ibv_devinfo")
                continue
            w = port_value(rk, strip_num(want[rk]))
            if v != w:
                bad.append(f"{k}: ours {v!r}, ibv_devinfo {w!r}")
        left = [k for k in want if k not in [PORT_KEYS.get(x, x) for x in p]]
        ok(not bad and not left, f"link status -d {name}/{port}: every value equals ibv_devinfo -v",
           "; ".join(bad) + (f"; missing {left}" if left else ""))
    all_ports = {(n, pn) for n, (_, ps) in ref.items() for pn in ps}
    ok(seen == all_ports, "link status: every port of ibv_devinfo", f"{sorted(seen)} vs {sorted(all_ports)}")


# ------------------------------------------------------------ GIDs
def sysfs_gids(phase):
    rows = set()
    for line in read(f"sysfs-{phase}.tsv").splitlines():
        dev, port, idx, gid, typ, ndev, ll, node = line.split("\t")
        if typ == "RoCE v2":
            t = "roce-v2"
        elif ll == "InfiniBand" or "RNIC" in node:
            t = "ib"  # sysfs says "IB/RoCE v1" for both; iWARP GIDs are IB's type
        else:
            t = "roce-v1"
        rows.add((dev, int(port), int(idx), gid, t, ndev))
    return rows


def ours_gids(j):
    rows = set()
    bad = []
    for g in j:
        rows.add((g["dev"], g["port"], g["index"], g["gid"], g["type"], g.get("netdev", "")))
        addr = ipaddress.IPv6Address(bytes.fromhex(g["gid"].replace(":", "")))
        v4 = str(addr.ipv4_mapped) if addr.ipv4_mapped else None
        if g.get("ipv4") != v4:
            bad.append(f"{g['gid']}: ipv4 {g.get('ipv4')!r}, expected {v4!r}")
        if set(g) - {"dev", "port", "index", "gid", "ipv4", "type", "netdev"}:
            bad.append(f"unexpected keys {sorted(g)}")
    return rows, bad


def check_gids(phase, what):
    j = load(f"gid-{phase}")
    if j is None:
        return set()
    want = sysfs_gids(phase)
    got, bad = ours_gids(j)
    ok(not bad, f"gid show ({what}): ipv4 exactly for IPv4-mapped GIDs", "; ".join(bad))
    ok(got == want and len(got) == len(j),
       f"gid show ({what}): exactly the {len(want)} non-zero GIDs of sysfs",
       f"only ours {sorted(got - want)}, only sysfs {sorted(want - got)}")
    return got


def v4s(rows):
    return {r[3] for r in rows if r[3].endswith("ffff:cb00:7107")}


# ------------------------------------------------------------ main
devs = read("devices").split()
ok({"rxe0", "rxe1"} <= set(devs), "fixture: rxe0 and rxe1", " ".join(devs))
has_siw = "siw0" in devs
ok(has_siw, "fixture: siw0 (iWARP)", "no siw module in the image (tests/vm/setup.sh builds it)")

ref = parse_devinfo(read("devinfo.txt"))
ok(set(ref) == set(devs), "ibv_devinfo -v lists every device", f"{sorted(ref)}")
lim = load("limits")
if lim is not None:
    check_limits(ref, {d["dev"]: d for d in lim})
    txt = read("limits-text.out")
    ok(all(f"dev {d['dev']}\n" in txt for d in lim) and f"    max_qp {lim[0]['max_qp']}\n" in txt,
       "dev limits text: a dev line and a key value line per attribute")
st = load("status")
if st is not None:
    check_status(ref, st)
    check_ibstat(parse_ibstat(read("ibstat.txt")), st)
    txt = read("status-text.out").splitlines()
    ok(len(txt) == len(st) and all(l.startswith("link ") and " link_layer " in l for l in txt),
       "link status text: one line per port")
    ok(all(re.search(r" width \S+ rate [0-9.]+( port_guid 0x[0-9a-f]{16})?($| )", l) for l in txt),
       "link status text: the rate after the width, then the port GUID", "\n".join(txt))

g0 = check_gids(0, "fixture")
g1 = check_gids(1, "address added to veth0")
g2 = check_gids(2, "address removed again")
ok(not v4s(g0) and v4s(g1) and not v4s(g2), "gid show: the added address's GID comes and goes",
   f"{v4s(g0)} {v4s(g1)} {v4s(g2)}")
ok(g0 == g2, "gid show: the table after removal is the one before")
f = load("gid-filter")
if f is not None:
    ok(f and all(g["dev"] == "rxe0" and g["port"] == 1 and g["type"] == "roce-v2"
                 and g["netdev"] == "veth0" for g in f)
       and len(f) == sum(1 for r in g0 if r[0] == "rxe0" and r[4] == "roce-v2" and r[5] == "veth0"),
       "gid show rxe0/1 type roce-v2 netdev veth0: exactly those", json.dumps(f))
f = load("gid-filter-none")
if f is not None:
    want = [r for r in g0 if r[4] == "roce-v1" and r[5] == "veth1"]
    ok(len(f) == len(want), "gid show type roce-v1 netdev veth1: as many as sysfs", json.dumps(f))
if has_siw:
    f = load("gid-siw")
    if f is not None:
        ok(f and all(g["dev"] == "siw0" for g in f), "gid show siw0: siw0's GIDs", json.dumps(f))

for line in read("ld-libs.tsv").splitlines():
    cmd, n = line.split("\t")
    verbs = cmd.startswith(("dev limits", "gid", "link status"))
    ok((int(n) > 0) == verbs,
       f"rdma {cmd}: {'loads' if verbs else 'does not load'} libibverbs", f"{n} LD_DEBUG lines")

for name, want in (("noperm", r'^cannot open verbs device "rxe0" \(/dev/infiniband/uverbs\d+\): Permission denied$'),
                   ("noprov", r'^device "rxe1" has no verbs interface: ')):
    rc, out, err = read(name + ".rc").strip(), read(name + ".out"), read(name + ".err")
    ok(rc == "1" and out == "" and len(err.splitlines()) == 1 and re.match(want, err),
       f"{name}: exit 1, one line on stderr, nothing on stdout", f"exit {rc}, out {out!r}, err {err!r}")
rc, out, err = read("noperm-gid.rc").strip(), read("noperm-gid.out"), read("noperm-gid.err")
ok(rc == "1" and json.loads(out) == [] and len(err.splitlines()) == len(devs)
   and all("Permission denied" in l for l in err.splitlines()),
   "noperm -j gid show: [] and one line per device", f"exit {rc}, out {out!r}, err {err!r}")
rc, out, err = read("noprov-all.rc").strip(), read("noprov-all.out"), read("noprov-all.err")
ok(rc == "1" and [p["ifname"] for p in json.loads(out)] == (["siw0"] if has_siw else [])
   and len(err.splitlines()) == 2,
   "no rxe provider: link status shows siw0, one line for each rxe", f"exit {rc}, out {out!r}, err {err!r}")

# ------------------------------------------------------------ dev chardev
# Every record names a node of /dev/infiniband with the same major:minor,
# and sysfs ties that node to the record's device and port; every uverbs,
# umad and issm node sysfs lists is in the records (none missing).
cd = load("chardev")
if cd is not None:
    nodes = {}
    for line in read("devnodes.tsv").splitlines():
        name, mm = line.split("\t")
        ma, mi = mm.split()
        nodes[name] = f"{int(ma, 16)}:{int(mi, 16)}"
    sysfs = {}
    for line in read("chardev-sysfs.tsv").splitlines():
        name, ib, port, dv = line.split("\t")
        sysfs[name] = (ib, int(port), dv)
    ok(len(cd) >= len(devs), f"dev chardev: {len(cd)} character devices for {len(devs)} RDMA devices",
       json.dumps(cd))
    for r in cd:
        n = r["name"]
        ok(nodes.get(n) == r["chardev"], f"dev chardev {n}: /dev/infiniband/{n} is {r['chardev']}",
           f"node {nodes.get(n)}")
        ok(sysfs.get(n) == (r["ifname"], r.get("port", 0), r["chardev"]),
           f"dev chardev {n}: sysfs ties it to {r['ifname']} port {r.get('port', 0)}", f"sysfs {sysfs.get(n)}")
        # uverbs: the driver's ABI (ops.uverbs_abi_ver: rxe 2, siw 1); umad
        # and issm: IB_USER_MAD_ABI_VERSION 5.
        want_abi = {"rxe": 2, "siw": 1}.get(r["ifname"][:3]) if r["type"] == "uverbs" else 5
        ok(n.startswith(r["type"]) and r["abi"] == want_abi,
           f"dev chardev {n}: type {r['type']}, abi {r['abi']}", f"expected abi {want_abi}")
    shown = {r["name"] for r in cd}
    # 6.1 makes issm nodes for rxe's ports but answers GET_CHARDEV "issm"
    # with EOPNOTSUPP (seen in the VM); 6.12 makes none for rxe.
    want = {n for n in sysfs if not (KV == "6.1" and n.startswith("issm"))}
    ok(want == shown, "dev chardev: every uverbs/umad/issm node of sysfs the kernel reports is shown",
       f"sysfs {sorted(sysfs)}, shown {sorted(shown)}")
    text = read("chardev-text.out").splitlines()
    ok(len(text) == len(cd) and all(f" name {r['name']} chardev {r['chardev']} " in l for r, l in zip(cd, text)),
       "dev chardev: text lines match -j", "\n".join(text))
    rc, out, err = read("chardev-nobody.rc").strip(), read("chardev-nobody.out"), read("chardev-nobody.err")
    ok(rc == "0" and err == "" and json.loads(out) == cd, "dev chardev as nobody: the same records",
       f"exit {rc}, err {err!r}")
sys.exit(vmcheck.status())
