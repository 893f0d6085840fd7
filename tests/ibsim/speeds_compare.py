#!/usr/bin/env python3
"""Compares rdma's link speeds with infiniband-diags' on the same fabric.

Usage: speeds_compare.py links IBLINKINFO LINKS_ALL LINKS_DEGRADED
       speeds_compare.py ports SMPQUERY MEPI PORT_SHOW SA_PORTS IBSTAT

links: `iblinkinfo` against `rdma -j fabric links all` (width and per-lane
speed of every link end, none on a down port) and `rdma -j fabric links
degraded` (iblinkinfo's "Could be" width and speed); iblinkinfo's
"10.0 Gbps (FDR10)" is FDR10.
ports: `smpquery portinfo LID PORT` of each port (the raw fields, read here
into the speed iblinkinfo would print and the rate the kernel's sysfs gives)
against `rdma -j port show` (width, speed, rate, generation; FDR10 where
`smpquery mlnxextportinfo` says the port runs it) and `rdma -j sa show
ports` (the same keys and values; the SA's PortInfo never says FDR10); `ibstat` of each CA against its
rate, where umad2sim writes the rate as the kernel would: ibsim 0.10's
umad2sim gives EDR and HDR 26 Gb/s a lane and 2X no lanes, so those rates
are checked against smpquery only.
The per-port files hold sections "== NAME PORT", one output each. Prints
what was compared; exits 1 on any difference.
"""
import json
import re
import sys

# Per-lane signalling rate (iblinkinfo's Gbps) -> generation, and its data
# rate in Gb/s (the kernel's rate_show).
GENERATIONS = {'2.5': ('SDR', 2.5), '5.0': ('DDR', 5), '10.0': ('QDR', 10), '14.0625': ('FDR', 14),
               '25.78125': ('EDR', 25), '53.125': ('HDR', 50)}
FDR10 = ('FDR10', 10)  # iblinkinfo's "10.0 Gbps (FDR10)"
LANES = {'1X': 1, '2X': 2, '4X': 4, '8X': 8, '12X': 12}
failures = []


def fail(msg):
    failures.append(msg)


def number(x):
    return int(x) if float(x) == int(float(x)) else float(x)


def sections(path):
    out, key = {}, None
    for line in open(path):
        m = re.match(r'^== (\S+) (\d+)$', line.rstrip('\n'))
        if m:
            key = (m.group(1), int(m.group(2)))
            out[key] = ''
        elif key:
            out[key] += line
    return out


def iblinkinfo(path):
    """(description, port) -> (width, speed) or None (down), and could-be."""
    ends, could = {}, {}
    name = None
    for line in open(path):
        m = re.match(r'^(?:Switch: 0x[0-9a-f]+|CA:) (.*):$', line.rstrip('\n'))
        if m:
            name = m.group(1)
            continue
        m = re.match(r'^\s+(?:0x[0-9a-f]+\s+)?\d+\s+(\d+)\[\s*\] ==\(\s*(\d+X)\s+([\d.]+) Gbps( \(FDR10\))?',
                     line)
        if m:
            ends[(name, int(m.group(1)))] = (m.group(2), m.group(3), bool(m.group(4)))
            c = re.search(r'"[^"]*" \((.*)\)$', line.rstrip('\n')).group(1)
            w = re.search(r'Could be (\d+X)', c)
            s = re.search(r'Could be ([\d.]+) Gbps', c)
            if w or s:
                could[(name, int(m.group(1)))] = (w.group(1) if w else None, s.group(1) if s else None)
            continue
        m = re.match(r'^\s+(?:0x[0-9a-f]+\s+)?\d+\s+(\d+)\[\s*\] ==\(\s+Down/', line)
        if m:
            ends[(name, int(m.group(1)))] = None
    return ends, could


def links(diags, all_json, degraded_json):
    ends, could = iblinkinfo(diags)
    ours = {}
    for r in json.load(open(all_json)):
        for side in ('', 'peer_'):
            if side + 'description' in r:
                ours[(r[side + 'description'], r[side + 'port'])] = r
    checked = down = fdr10s = 0
    for key, want in sorted(ends.items(), key=str):
        r = ours.get(key)
        if r is None:
            fail(f'{key}: iblinkinfo lists it, rdma does not')
            continue
        checked += 1
        if want is None:
            down += 1
            extra = [k for k in ('width', 'speed', 'rate', 'generation') if k in r]
            if extra:
                fail(f'{key}: down, yet rdma gives {extra}')
            continue
        width, speed, fdr10 = want
        gen, lane_rate = FDR10 if fdr10 else GENERATIONS[speed]
        fdr10s += fdr10
        got = (r.get('width'), r.get('speed'), r.get('rate'), r.get('generation'))
        if got != (width, float(speed), number(lane_rate * LANES[width]), gen):
            fail(f'{key}: iblinkinfo {width} {speed}, rdma {got}')
    # Could be: each degraded link once, from its first end.
    deg = {}
    for r in json.load(open(degraded_json)):
        deg[(r['description'], r['port'])] = r
        deg[(r['peer_description'], r['peer_port'])] = r
    for key in ends:
        if ends[key] is None:
            continue
        r = deg.get(key)
        if key not in could:
            if r is not None:
                fail(f'{key}: iblinkinfo says nothing could be better, rdma: {r}')
            continue
        w, s = could[key]
        if r is None:
            fail(f'{key}: iblinkinfo says could be {could[key]}, rdma lists no degraded link')
            continue
        if w and r.get('could_be_width') != w:
            fail(f'{key}: could be {w}, rdma {r.get("could_be_width")}')
        if s and (r.get('could_be_speed'), r.get('could_be_generation')) != (float(s), GENERATIONS[s][0]):
            fail(f'{key}: could be {s}, rdma {r.get("could_be_speed")} {r.get("could_be_generation")}')
    print(f'{checked} link ends ({down} down, {fdr10s} FDR10), {len(could)} could-be')


def field(text, name):
    m = re.search(r'^' + name + r':\.+(.*)$', text, re.M)
    return m.group(1).strip() if m else None


def ports(smp_path, mepi_path, port_path, sa_path, ibstat_path):
    smp, mepi, port, sa, ibstat = (sections(p) for p in (smp_path, mepi_path, port_path, sa_path,
                                                          ibstat_path))
    gens, by_ibstat = set(), 0
    for key, text in sorted(smp.items()):
        width = field(text, 'LinkWidthActive')
        ext = field(text, 'LinkSpeedExtActive')
        base = field(text, 'LinkSpeedActive')
        speed = (ext if ext and ext != 'No Extended Speed' else base).replace(' Gbps', '')
        gen, lane_rate = GENERATIONS[speed]
        sa_want = {'width': width, 'speed': float(speed), 'rate': number(lane_rate * LANES[width]),
                   'generation': gen}
        active = field(mepi.get(key, ''), 'LinkSpeedActive')
        if gen == 'QDR' and active and int(active, 16) & 1:
            gen, lane_rate = FDR10
        want = dict(sa_want, generation=gen, rate=number(lane_rate * LANES[width]))
        gens.add(f'{width} {gen}')
        for what, docs, expect in (('port show', port, want), ('sa show ports', sa, sa_want)):
            try:
                r = json.loads(docs.get(key, ''))[0]
            except (ValueError, IndexError) as e:
                fail(f'{key}: {what}: no record ({e})')
                continue
            got = {k: r.get(k) for k in expect}
            if got != expect or type(got['rate']) is not type(expect['rate']):
                fail(f'{key}: {what} {got}, smpquery says {expect}')
        if key in ibstat:
            m = re.search(r'Rate: ([\d.]+)', ibstat[key])
            if gen in ('EDR', 'HDR') or width == '2X':
                continue  # umad2sim's own rate, not the kernel's
            by_ibstat += 1
            if not m or number(m.group(1)) != want['rate']:
                fail(f'{key}: ibstat {m.group(1) if m else "no rate"}, want {want["rate"]}')
    print(f'{len(smp)} ports ({len(gens)} width and generation pairs), {by_ibstat} ibstat rates')


def main():
    if len(sys.argv) == 5 and sys.argv[1] == 'links':
        links(*sys.argv[2:])
    elif len(sys.argv) == 7 and sys.argv[1] == 'ports':
        ports(*sys.argv[2:])
    else:
        sys.exit(__doc__)
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
