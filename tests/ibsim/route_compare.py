#!/usr/bin/env python3
"""Compares rdma route output (JSON) with infiniband-diags' text.

  route_compare.py show IBROUTE.txt OURS.json    every LID: out port, port GUID, description
  route_compare.py trace IBTRACERT.txt OURS.json every hop: GUID, in and out port, description
  route_compare.py KIND SAQUERY.txt OURS.json    sa show KIND (nodes, ports, links, paths, sm,
                                                 switches): every record's fields saquery prints

Prints what was compared; exits 1 with the differences.
"""
import json
import re
import sys


def guid(text):
    """0x0000000000100001 or 0000:0000:0010:0001 -> int."""
    return int(text.replace(":", ""), 16)


def show(diags, ours):
    want = {}
    for line in diags.splitlines():
        m = re.match(r"^0x([0-9a-f]{4}) (\d{3}) : \((.*) portguid 0x([0-9a-f]+): '(.*)'\)$", line)
        if m:
            want[int(m.group(1), 16)] = (int(m.group(2)), int(m.group(4), 16), m.group(5))
    have = {e["lid"]: (e["port"], guid(e["port_guid"]), e["description"]) for e in ours}
    if not want:
        return ["ibroute printed no LIDs"]
    errors = [f"lid {l}: ibroute {want.get(l)}, rdma {have.get(l)}"
              for l in sorted(set(want) | set(have)) if want.get(l) != have.get(l)]
    return errors or f"{len(want)} lids equal"


def trace(diags, ours):
    hops = []
    last = None
    for line in diags.splitlines():
        m = re.match(r'^From \S+ \{0x([0-9a-f]+)\} portnum (\d+) lid \S+ "(.*)"$', line)
        if m:
            hops.append({"node_guid": int(m.group(1), 16), "in": 0, "desc": m.group(3)})
            continue
        m = re.match(r'^\[(\d+)\] -> \S+ port \{0x([0-9a-f]+)\}\[(\d+)\] lid \S+ "(.*)"$', line)
        if m:
            hops[-1]["out"] = int(m.group(1))
            hops.append({"port_guid": int(m.group(2), 16), "in": int(m.group(3)),
                         "desc": m.group(4)})
            continue
        m = re.match(r'^To \S+ \{0x([0-9a-f]+)\}', line)
        if m:
            last = int(m.group(1), 16)
    if not hops or last is None:
        return ["ibtracert printed no path"]
    hops[-1]["out"] = 0
    hops[-1]["node_guid"] = last
    errors = []
    if len(hops) != len(ours):
        errors.append(f"ibtracert {len(hops)} hops, rdma {len(ours)}")
    for i, (w, h) in enumerate(zip(hops, ours)):
        got = {"in": h["in_port"], "out": h["out_port"], "desc": h["description"]}
        for key in ("node_guid", "port_guid"):
            if key in w:
                got[key] = guid(h[key])
        if got != w:
            errors.append(f"hop {i}: ibtracert {w}, rdma {got}")
    return errors or f"{len(hops)} hops equal"


# saquery's name of a field -> rdma's key, per record type.
SA_KEYS = {
    "nodes": {"lid": "lid", "node_guid": "node_guid", "port_guid": "port_guid",
              "num_ports": "ports", "NodeDescription": "description"},
    "ports": {"EndPortLid": "lid", "PortNum": "port", "LinkState": "state",
              "LinkWidthActive": "width", "SMLid": "sm_lid"},
    "links": {"FromLID": "from_lid", "FromPort": "from_port", "ToPort": "to_port",
              "ToLID": "to_lid"},
    "paths": {"dlid": "dlid", "slid": "slid", "pkey": "pkey", "sl": "sl"},
    "sm": {"LID": "lid", "GUID": "guid", "Priority": "priority", "SMState": "state"},
    "switches": {"LID": "lid", "LinearFDBCap": "linear_fdb_cap", "LinearFDBTop": "linear_fdb_top"},
}
SM_STATES = {"0": "NOTACTIVE", "1": "DISCOVERING", "2": "STANDBY", "3": "MASTER"}


def norm(v):
    """One form for both tools' values: numbers, GUIDs and hex as ints."""
    if isinstance(v, int):
        return v
    v = str(v).strip()
    if re.fullmatch(r"[0-9a-f]{4}(:[0-9a-f]{4}){3}", v):
        return int(v.replace(":", ""), 16)
    if re.fullmatch(r"0x[0-9a-fA-F]+", v):
        return int(v, 16)
    if re.fullmatch(r"\d+", v):
        return int(v)
    return v.upper()


def saquery_records(text):
    records = []
    for line in text.splitlines():
        if re.match(r"^\S+Record dump:$", line):
            records.append({})
            continue
        m = re.match(r"^\s+([A-Za-z_]+):?\.{2,}(.*)$", line)
        if m and records:
            records[-1].setdefault(m.group(1), m.group(2))
    return records


def sa(kind, diags, ours):
    keys = SA_KEYS[kind]
    want = []
    for r in saquery_records(diags):
        if kind == "sm" and "SMState" in r:
            r["SMState"] = SM_STATES.get(r["SMState"], r["SMState"])
        want.append({ours_key: norm(r[k]) for k, ours_key in keys.items() if k in r})
    have = [{k: norm(o[k]) for k in keys.values() if k in o} for o in ours]
    if not want:
        return ["saquery printed no records"]
    errors = []
    if len(want) != len(have):
        errors.append(f"saquery {len(want)} records, rdma {len(have)}")
    for i, (w, h) in enumerate(zip(want, have)):
        if any(h.get(k) != v for k, v in w.items()):
            errors.append(f"record {i}: saquery {w}, rdma {h}")
    return errors or f"{len(want)} records equal ({', '.join(sorted(want[0]))})"


def main():
    kind, diags, ours = sys.argv[1:4]
    with open(diags) as f:
        d = f.read()
    with open(ours) as f:
        o = json.load(f)
    if kind in SA_KEYS:
        result = sa(kind, d, o)
    else:
        result = {"show": show, "trace": trace}[kind](d, o)
    if isinstance(result, list):
        print("\n".join(result))
        sys.exit(1)
    print(result)


if __name__ == "__main__":
    main()
