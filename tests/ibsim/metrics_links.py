#!/usr/bin/env python3
"""The cable labels of rdma's metrics read by the real parsers
(prometheus_client) and compared with `ibnetdiscover -p`, which lists every
connected port with the port at its other end:

  SW     2    3 0x0002c90000000002 4x SDR - CA     4    1 0x0002c90000000005 ( 's1' - 'h1' )

Each sample of FAMILY that has a remote end names both ends as the report
does: the end's GUID (local_port_guid, or local_guid for a switch, whose
ports have the node's GUID), port, node type and name. With -each-once
(fabric links) each cable is one sample, from one end or the other; with
-subset (perf show of one port) the samples are some of the report's ports;
without either (fabric errors) each connected port is one sample. Also checks the run's
PREFIX_up is 1 when -up PREFIX is given.

Usage: metrics_links.py openmetrics|prometheus METRICS PORTS FAMILY
           [-each-once | -subset] [-up PREFIX]
Prints "N cables checked"; exits non-zero with the difference."""
import re
import sys

from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import \
    text_string_to_metric_families as prometheus_families

TYPES = {"SW": "switch", "CA": "ca", "RT": "router"}
LINE = re.compile(r"^\s*(SW|CA|RT)\s+\d+\s+(\d+)\s+(0x[0-9a-fA-F]+)\s.*?-\s+(SW|CA|RT)\s+\d+"
                  r"\s+(\d+)\s+(0x[0-9a-fA-F]+)\s.*\(\s*'(.*)'\s+-\s+'(.*)'\s*\)\s*$")


def guid(text):
    return "0x%016x" % int(text, 16)


def main():
    fmt, metrics, ports, family = sys.argv[1:5]
    rest = sys.argv[5:]
    each_once = "-each-once" in rest
    subset = "-subset" in rest
    up = rest[rest.index("-up") + 1] if "-up" in rest else None
    report = set()
    for line in open(ports):
        m = LINE.match(line)
        if m:
            lt, lp, lg, rt, rp, rg, ln, rn = m.groups()
            report.add(((TYPES[lt], guid(lg), int(lp), ln), (TYPES[rt], guid(rg), int(rp), rn)))
    if not report:
        sys.exit("no connected port in " + ports)
    parse = openmetrics_families if fmt == "openmetrics" else prometheus_families
    got, ups = [], {}
    for fam in parse(open(metrics).read()):
        if up and fam.name in (up + "up", up + "duration_seconds"):
            if fam.type != "gauge":
                sys.exit(f"{fam.name}: type {fam.type}")
            ups[fam.name] = fam.samples[0].value
        if fam.name != family:
            continue
        for s in fam.samples:
            lab = s.labels
            if "remote_guid" not in lab:
                continue

            def end(side, comp):
                g = lab.get(side + "port_guid") or lab[side + "guid"]
                return (lab[comp], guid(g), int(lab[side + "port"]), lab[side + "name"])
            got.append((end("local_", "component"), end("remote_", "remote_component")))
    if up and ups.get(up + "up") != 1:
        sys.exit(f"{up}up is {ups.get(up + 'up')}, not 1")
    if up and not ups.get(up + "duration_seconds", -1) >= 0:
        sys.exit(f"no {up}duration_seconds")
    if len(set(got)) != len(got):
        sys.exit("a cable twice: %s" % [g for g in got if got.count(g) > 1][:3])
    if each_once:
        cables = {frozenset(c) for c in report}
        mine = [frozenset(c) for c in got]
        if len(set(mine)) != len(mine) or set(mine) != cables:
            sys.exit("links differ: report only %s, metrics only %s" % (
                sorted(map(sorted, cables - set(mine)))[:3], sorted(map(sorted, set(mine) - cables))[:3]))
    elif subset:
        if not got or not set(got) <= report:
            sys.exit("not in the report: %s" % sorted(set(got) - report)[:3])
    elif set(got) != report:
        sys.exit("ports differ: report only %s, metrics only %s" % (
            sorted(report - set(got))[:3], sorted(set(got) - report)[:3]))
    print(f"{len(got)} cables checked")


main()
