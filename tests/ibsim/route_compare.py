#!/usr/bin/env python3
"""Compares rdma route output (JSON) with infiniband-diags' text.

  route_compare.py show IBROUTE.txt OURS.json    every LID: out port, port GUID, description
                                                 (-a: the out port alone where it is 255)
  route_compare.py trace IBTRACERT.txt OURS.json every hop: GUID, in and out port, description
  route_compare.py mcast IBROUTE-M.txt OURS.json every MLID: the ports ibroute -M marks
  route_compare.py mfts DUMP_MFTS.txt OURS.json  every switch's MLIDs: the ports dump_mfts marks
  route_compare.py KIND SAQUERY.txt OURS.json    sa show KIND (nodes, ports, links, paths, sm,
                                                 switches, mcast_records, guids, pkeys, sl2vl,
                                                 vlarb, services, cpi): every record's fields
                                                 saquery prints

Prints what was compared; exits 1 with the differences.
"""
import json
import re
import sys


def guid(text):
    """Our GUIDs as ibroute and ibtracert print them, 0x and 16 digits -> int."""
    if not re.fullmatch(r"0x[0-9a-f]{16}", text):
        raise SystemExit(f"GUID {text!r} is not 0x and 16 hex digits")
    return int(text, 16)


def show(diags, ours):
    want = {}
    for line in diags.splitlines():
        m = re.match(r"^0x([0-9a-f]{4}) (\d{3}) : \((.*) portguid 0x([0-9a-f]+): '(.*)'\)$", line)
        if m:
            want[int(m.group(1), 16)] = (int(m.group(2)), int(m.group(4), 16), m.group(5))
        # ibroute -a: an entry sending the LID nowhere names no destination.
        m = re.match(r"^0x([0-9a-f]{4}) (\d{3}) : \(path #\d+ - illegal port\)$", line)
        if m:
            want[int(m.group(1), 16)] = (int(m.group(2)), None, None)
    have = {e["lid"]: (e["port"], guid(e["port_guid"]), e["description"]) if e["port"] != 255
            else (255, None, None) for e in ours}
    if not want:
        return ["ibroute printed no LIDs"]
    errors = [f"lid {l}: ibroute {want.get(l)}, rdma {have.get(l)}"
              for l in sorted(set(want) | set(have)) if want.get(l) != have.get(l)]
    return errors or f"{len(want)} lids equal"


def mcast(diags, ours):
    """ibroute -M: "0xc000        x x x   x" -- port i's mark at column 12 + 2i."""
    want = {}
    dumped = False
    for line in diags.splitlines():
        m = re.match(r"^0x([0-9a-f]{4})      (.*)$", line)
        if m:
            marks = line[12:]
            want[int(m.group(1), 16)] = [i // 2 for i in range(0, len(marks), 2) if marks[i] == "x"]
        dumped |= bool(re.match(r"^\d+ valid mlids dumped", line))
    if not dumped:
        return ["ibroute -M printed no summary"]
    have = {int(e["mlid"], 16): e["ports"] for e in ours}
    errors = [f"mlid 0x{l:04x}: ibroute {want.get(l)}, rdma {have.get(l)}"
              for l in sorted(set(want) | set(have)) if want.get(l) != have.get(l)]
    return errors or f"{len(want)} mlids equal"


def mfts(diags, ours):
    """dump_mfts: a "... guid 0x... (NAME):" head per switch, then its
    MLIDs as ibroute -M prints them."""
    want, switch, heads = {}, None, 0
    for line in diags.splitlines():
        m = re.match(r"^Multicast mlids .* guid 0x([0-9a-f]+) ", line)
        if m:
            switch, heads = int(m.group(1), 16), heads + 1
            continue
        m = re.match(r"^0x([0-9a-f]{4})      (.*)$", line)
        if m and switch is not None:
            marks = line[12:]
            want[(switch, int(m.group(1), 16))] = [
                i // 2 for i in range(0, len(marks), 2) if marks[i] == "x"]
    if not heads:
        return ["dump_mfts printed no switch"]
    have = {(guid(e["switch_guid"]), int(e["mlid"], 16)): e["ports"] for e in ours}
    errors = [f"switch {s:#x} mlid 0x{l:04x}: dump_mfts {want.get((s, l))}, "
              f"rdma {have.get((s, l))}"
              for s, l in sorted(set(want) | set(have)) if want.get((s, l)) != have.get((s, l))]
    return errors or f"{len(want)} mlids of {heads} switches equal"


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
            continue
        # ibtracert -m names every node by its node GUID, unpadded, no braces.
        m = re.match(r'^From \S+ 0x([0-9a-f]+) port (\d+) lid \S+ "(.*)"$', line)
        if m:
            hops.append({"node_guid": int(m.group(1), 16), "in": 0, "desc": m.group(3)})
            continue
        m = re.match(r'^\[(\d+)\] -> \S+ 0x([0-9a-f]+)\[(\d+)\] lid \S+ "(.*)"$', line)
        if m:
            hops[-1]["out"] = int(m.group(1))
            hops.append({"node_guid": int(m.group(2), 16), "in": int(m.group(3)),
                         "desc": m.group(4)})
            continue
        m = re.match(r'^To \S+ 0x([0-9a-f]+) ', line)
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
    "paths": {"dlid": "dlid", "slid": "slid", "pkey": "pkey", "sl": "sl", "mtu": "mtu"},
    "smports": {"EndPortLid": "lid", "PortNum": "port", "master_sm_base_lid": "sm_lid",
                "capability_mask": "caps"},
    "mft": {"LID": "lid", "Position": "position", "Block": "block", "Port Mask": "port_mask"},
    "inform": {"SubscriberGID": "subscriber_gid", "SubscriberEnum": "enum", "gid": "gid",
               "lid_range_begin": "lid_range_begin", "lid_range_end": "lid_range_end",
               "is_generic": "is_generic", "subscribe": "subscribe", "trap_type": "trap_type",
               "trap_num": "trap_number", "resp_time_val": "resp_time",
               "node_type": "producer_type"},
    "sm": {"LID": "lid", "GUID": "guid", "Priority": "priority", "SMState": "state"},
    "switches": {"LID": "lid", "LinearFDBCap": "linear_fdb_cap", "LinearFDBTop": "linear_fdb_top"},
    "mcast_records": {"MGID": "mgid", "PortGid": "port_gid", "qkey": "qkey", "mlid": "mlid",
                      "mtu": "mtu", "pkey": "pkey", "rate": "rate", "SL": "sl", "Scope": "scope",
                      "JoinState": "join_state"},
    "guids": {"LID": "lid", "Block": "block", "GUID": "guids"},
    "pkeys": {"LID": "lid", "Port": "port", "Block": "block", "PKey Table": "pkeys"},
    "sl2vl": {"LID": "lid", "InPort": "in_port", "OutPort": "out_port", "VL": "sl2vl"},
    "vlarb": {"LID": "lid", "Port": "port", "Block": "block", "VL": "vl", "Weight": "weight"},
    "services": {"ServiceID": "service_id", "ServiceGID": "service_gid",
                 "ServiceP_Key": "service_pkey", "ServiceName": "service_name"},
    "cpi": {"Base version": "base_version", "Class version": "class_version",
            "Capability mask": "caps", "Capability mask 2": "caps2",
            "Response time value": "resp_time"},
}
# Kinds an SA may rightly answer with no record at all.
MAY_BE_EMPTY = {"services"}
MTUS = {1: "256", 2: "512", 3: "1024", 4: "2048", 5: "4096"}
SM_STATES = {"0": "NOTACTIVE", "1": "DISCOVERING", "2": "STANDBY", "3": "MASTER"}


def norm(v):
    """One form for both tools' values: numbers, GUIDs and hex as ints."""
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, int):
        return v
    v = str(v).strip()
    if re.fullmatch(r"0x[0-9a-fA-F]+", v):
        return int(v, 16)
    if re.fullmatch(r"\d+", v):
        return int(v)
    return v.upper()


def saquery_records(text):
    """saquery's dumps: a "... dump:" (or "SA ClassPortInfo:") line starts a
    record; "Name.....value" lines are fields; "GUID n" lines, the P_Key
    table's rows, the "SL:"/"VL:"/"Weight:" rows of the SLtoVL and VLArb
    tables and the "MLID<tab>mask" rows of an MFT record collect into
    arrays."""
    records = []
    for line in text.splitlines():
        if re.match(r"^\S.*(dump|ClassPortInfo):$", line):
            records.append({})
            continue
        if not records:
            continue
        r = records[-1]
        m = re.match(r"^\s+GUID \d\.+(.*)$", line)
        if m:
            r.setdefault("GUID", []).append(m.group(1))
            continue
        m = re.match(r"^\s+0x[0-9a-f]{4}\t(0x[0-9a-f]{4})$", line)
        if m:
            r.setdefault("Port Mask", []).append(m.group(1))
            continue
        m = re.match(r"^\s+((?:0x[0-9a-f]{4} ?){8})$", line)
        if m:
            r.setdefault("PKey Table", []).extend(m.group(1).split())
            continue
        m = re.match(r"^\s+(SL|VL|Weight)\s*:(.*)$", line)
        if m:
            r.setdefault(m.group(1), []).extend(x for x in m.group(2).split("|") if x.strip())
            continue
        m = re.match(r"^\s+([A-Za-z_][A-Za-z_ 0-9]*?):?\.{2,}(.*)$", line)
        if m:
            r.setdefault(m.group(1), m.group(2))
    return records


def sa(kind, diags, ours):
    keys = SA_KEYS[kind]
    want = []
    for r in saquery_records(diags):
        if kind == "sm" and "SMState" in r:
            r["SMState"] = SM_STATES.get(r["SMState"], r["SMState"])
        if kind in ("mcast_records", "paths") and "mtu" in r:
            # saquery prints the selector with the value (0x84: exactly 2048).
            r["mtu"] = MTUS.get(int(r["mtu"], 16) & 0x3f, r["mtu"])
            if kind == "mcast_records":
                r["rate"] = str(int(r["rate"], 16) & 0x3f)
        if kind == "sl2vl":
            r.pop("SL", None)  # the header row: 0| 1| ... 15|
        want.append({ours_key: norm(r[k]) for k, ours_key in keys.items() if k in r})
    have = [{k: norm(o[k]) for k in keys.values() if k in o} for o in ours]
    note = ""
    if (len(want) == len(have) + 1 and "lid" in want[-1]
            and want[-1]["lid"] not in {h.get("lid") for h in have}):
        # saquery prints one record more than the cut MAD holds (SLtoVL
        # records under the simulator: the last is memory past the reply,
        # its LID nonsense); rdma stops at the bytes it received.
        note = f", saquery's extra record of lid {want[-1]['lid']} left out"
        want.pop()
    if not want and not (kind in MAY_BE_EMPTY and not have):
        return ["saquery printed no records"]
    errors = []
    if len(want) != len(have):
        errors.append(f"saquery {len(want)} records, rdma {len(have)}")
    for i, (w, h) in enumerate(zip(want, have)):
        if any(h.get(k) != v for k, v in w.items()):
            errors.append(f"record {i}: saquery {w}, rdma {h}")
    if not want:
        return "no records from either tool"
    return errors or f"{len(want)} records equal ({', '.join(sorted(want[0]))}){note}"


def main():
    kind, diags, ours = sys.argv[1:4]
    with open(diags) as f:
        d = f.read()
    with open(ours) as f:
        o = json.load(f)
    if kind in SA_KEYS:
        result = sa(kind, d, o)
    else:
        result = {"show": show, "trace": trace, "mcast": mcast, "mfts": mfts}[kind](d, o)
    if isinstance(result, list):
        print("\n".join(result))
        sys.exit(1)
    print(result)


if __name__ == "__main__":
    main()
