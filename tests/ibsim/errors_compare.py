#!/usr/bin/env python3
"""Compares the ports ibqueryerrors lists with those `rdma -j fabric errors` lists.

  errors_compare.py IBQUERYERRORS_OUTPUT RDMA_JSON
Prints what both list; exits 1 when the sets of (description, port) differ,
when a port's GUID differs from the one ibqueryerrors prints (a CA port's
own port_guid, else the node's; 0x and 16 hex digits), when a port's
counters over threshold differ from ibqueryerrors' (names or values: both
list only those), or when the summaries differ (nodes and ports checked,
nodes and ports over threshold). With ibqueryerrors -r (its "Link info"
lines) against `fabric errors peer`: each port's far end (GUID, LID, port,
description) equal too.
"""
import json
import re
import sys

# rdma's JSON keys for ibqueryerrors' counter names.
KEYS = {
    "SymbolErrorCounter": "symbol_errors",
    "LinkErrorRecoveryCounter": "link_error_recovery",
    "LinkDownedCounter": "link_downed",
    "PortRcvErrors": "rcv_errors",
    "PortRcvRemotePhysicalErrors": "rcv_remote_physical_errors",
    "PortRcvSwitchRelayErrors": "rcv_switch_relay_errors",
    "PortXmitDiscards": "xmit_discards",
    "PortXmitConstraintErrors": "xmit_constraint_errors",
    "PortRcvConstraintErrors": "rcv_constraint_errors",
    "LocalLinkIntegrityErrors": "local_link_integrity_errors",
    "ExcessiveBufferOverrunErrors": "excessive_buffer_overrun_errors",
    "VL15Dropped": "vl15_dropped",
    "PortXmitWait": "xmit_wait",
}
# Where a listed port is, and its far end (peer), not a counter.
WHERE = {"node_guid", "port_guid", "description", "port", "lid"}
PEER = {"peer_node_guid", "peer_port_guid", "peer_description", "peer_port", "peer_lid"}

peers = {}

diags = {}
summary = {}
node = None
for line in open(sys.argv[1]):
    m = re.match(r'^Errors for (?:0x[0-9a-f]+ )?"(.*)"$', line.rstrip("\n"))
    if m:
        node = m.group(1)
        continue
    m = re.match(r"^\s+GUID (0x[0-9a-f]+) port (\d+):(.*)$", line)
    if m:
        counters = {KEYS.get(k, k): int(v) for k, v in re.findall(r"\[(\w+) == (\d+)", m.group(3))}
        diags[(node, int(m.group(2)))] = (int(m.group(1), 16), counters)
        last = (node, int(m.group(2)))
    # -r: "Link info:  LID PORT[  ] ==( ... )==>  GUID LID PORT[  ] "DESC" (...)"
    m = re.match(r'^\s+Link info:\s+\d+\s+\d+\[.*?\]\s+==\(.*?\)==>\s+0x([0-9a-f]+)\s+(\d+)\s+'
                 r'(\d+)\[.*?\]\s+"(.*)" \(', line)
    if m:
        peers[last] = (int(m.group(1), 16), int(m.group(2)), int(m.group(3)), m.group(4))
    m = re.match(r"^## Summary: (\d+) nodes checked, (\d+) bad nodes found", line)
    if m:
        summary["nodes_checked"], summary["nodes_over_threshold"] = map(int, m.groups())
    m = re.match(r"^##\s+(\d+) ports checked, (\d+) ports have errors beyond threshold", line)
    if m:
        summary["ports_checked"], summary["ports_over_threshold"] = map(int, m.groups())

# rdma's shape: one object, the port records in "ports" (nothing else in
# that array), the counts in "summary".
doc = json.load(open(sys.argv[2]))
if len(doc) != 1 or set(doc[0]) != {"ports", "summary"}:
    print(f"rdma's document is not [{{ports, summary}}]: {doc}")
    sys.exit(1)
ours_summary = doc[0]["summary"]
if any("summary" in p for p in doc[0]["ports"]):
    print(f"a summary among rdma's ports: {doc[0]['ports']}")
    sys.exit(1)
ours = {(p["description"], p["port"]): p for p in doc[0]["ports"]}
if set(diags) != set(ours):
    print(f"ibqueryerrors lists {sorted(diags)}, rdma {sorted(ours)}")
    sys.exit(1)
for port, (guid, counters) in diags.items():
    ours_guid = ours[port].get("port_guid", ours[port]["node_guid"])
    if not re.fullmatch(r"0x[0-9a-f]{16}", ours_guid) or int(ours_guid, 16) != guid:
        print(f"{port}: GUID {guid:#018x} in ibqueryerrors, {ours_guid} in rdma")
        sys.exit(1)
    got = {k: v for k, v in ours[port].items() if k not in WHERE | PEER}
    if peers:
        p = ours[port]
        have = (int(p.get("peer_port_guid", p.get("peer_node_guid", "0x0")), 16),
                p.get("peer_lid"), p.get("peer_port"), p.get("peer_description"))
        if peers.get(port) != have:
            print(f"{port}: ibqueryerrors -r's far end {peers.get(port)}, rdma's {have}")
            sys.exit(1)
    if got != counters:
        print(f"{port}: ibqueryerrors {counters}, rdma {got}")
        sys.exit(1)
if len(summary) != 4:
    print(f"no summary in ibqueryerrors' output ({summary})")
    sys.exit(1)
for k, v in summary.items():
    if ours_summary.get(k) != v:
        print(f"summary {k}: ibqueryerrors {v}, rdma {ours_summary.get(k)}")
        sys.exit(1)
print(f"{len(diags)} ports" + (f" ({len(peers)} far ends)" if peers else "") + ": "
      + ", ".join(f"{d}/{p}" for d, p in sorted(diags))
      + "; summary " + ", ".join(f"{k} {v}" for k, v in summary.items()))
