#!/usr/bin/env python3
"""rdma's --openmetrics / --prometheus output read by the real parsers
(Debian's python3-prometheus-client) and compared with the -j output of the
same command: every numeric JSON member but the ignored ones is one sample
of the family PREFIX + key, labelled by the JSON keys given, with the same
value, and there is no other sample.

Usage: metrics_compare.py openmetrics|prometheus METRICS JSON PREFIX
           KEY=LABEL... [-ignore KEY...] [-const LABEL...] [-rising KEY...]
           [-skip KEY...] [-run RUNPREFIX] [-more]
-rising names counters that move on their own (the traffic counters count
the MADs of the commands themselves): read after the JSON, their samples
must be at least the JSON values. -skip: JSON objects with that key are
not samples (fabric errors' summary). -run: the gauges RUNPREFIX_up
(which must be 1) and RUNPREFIX_duration_seconds are there too. -more: the
metrics may have ports the JSON has not (fabric errors' metrics have every
port, -j the ports over a threshold); the ports both have must agree.
Prints "N samples in F families"; exits non-zero with the difference."""
import json
import sys

from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as openmetrics_families
from prometheus_client.parser import \
    text_string_to_metric_families as prometheus_families


def main():
    fmt, metrics, doc, prefix = sys.argv[1:5]
    labels, ignore, const, rising, skip, mode = {}, set(), [], set(), set(), None
    run, more, ups = None, False, {}
    for a in sys.argv[5:]:
        if a == "-more":
            more = True
        elif a in ("-ignore", "-const", "-rising", "-skip", "-run"):
            mode = a
        elif mode == "-run":
            run = a
        elif mode == "-ignore":
            ignore.add(a)
        elif mode == "-skip":
            skip.add(a)
        elif mode == "-rising":
            rising.add(a)
        elif mode == "-const":
            const.append(a)
        else:
            k, v = a.split("=")
            labels[k] = v
    parse = openmetrics_families if fmt == "openmetrics" else prometheus_families
    text = open(metrics).read()
    if fmt == "prometheus" and "# EOF" in text:
        sys.exit("the Prometheus format has no # EOF")
    got = {}
    families = 0
    for fam in parse(text):
        families += 1
        if run and fam.name in (run + "up", run + "duration_seconds"):
            if fam.type != "gauge" or len(fam.samples) != 1 or fam.samples[0].labels:
                sys.exit(f"family {fam.name}: {fam.type} {fam.samples}")
            ups[fam.name] = fam.samples[0].value
            continue
        if fam.type != "counter" or not fam.name.startswith(prefix):
            sys.exit(f"family {fam.name}: type {fam.type}")
        for s in fam.samples:
            if s.name != fam.name + "_total":
                sys.exit(f"sample {s.name} in family {fam.name}")
            for c in const:
                if not s.labels.get(c):
                    sys.exit(f"sample {s.name} {s.labels} without {c}")
            key = (fam.name[len(prefix):], tuple(s.labels[l] for l in labels.values()))
            if key in got:
                sys.exit(f"sample {key} twice")
            got[key] = s.value
    want = {}
    for obj in json.load(open(doc)):
        if skip & set(obj):
            continue
        where = tuple(str(obj[k]) for k in labels)
        for k, v in obj.items():
            if k in labels or k in ignore or isinstance(v, bool) or not isinstance(v, int):
                continue
            want[(k, where)] = v
    if not want:
        sys.exit("nothing to compare: the JSON has no counters")
    if run and (ups.get(run + "up") != 1 or ups.get(run + "duration_seconds", -1) < 0):
        sys.exit(f"run gauges: {ups}")
    if more:
        ports = {k[1] for k in want}
        got = {k: v for k, v in got.items() if k[1] in ports}
    def same(k):
        if k not in got or k not in want:
            return False
        return got[k] >= want[k] if k[0] in rising else got[k] == want[k]
    diff = {k: (want.get(k), got.get(k)) for k in set(want) | set(got) if not same(k)}
    if diff:
        sys.exit("JSON vs %s differ: %s" % (fmt, sorted(diff.items())[:10]))
    print(f"{len(got)} samples in {families} families")


main()
