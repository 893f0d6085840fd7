#!/usr/bin/env python3
"""Compares `rdma -j fabric ...` with infiniband-diags' view of the same fabric.

Usage: fabric_compare.py nodes DIAGS OURS   (DIAGS: ibswitches and ibhosts output)
       fabric_compare.py links DIAGS OURS   (DIAGS: ibnetdiscover -p; OURS: fabric links all)
       fabric_compare.py same  OURS1 OURS2  (two `rdma -j fabric show` outputs: same nodes)
       fabric_compare.py full  DIAGS OURS   (ibnetdiscover -f; OURS: fabric topology full)

Nodes are (type, node GUID, ports, description, switch LID); links are
unordered pairs of ends (description, port, LID, GUID: a CA's port GUID, a
switch's node GUID), and ports with no peer (description, port, GUID). Prints the differences; exits 1 on any.
"""
import json
import re
import sys


def guid(text):
    """Our GUIDs as ibnetdiscover prints them: 0x and 16 digits."""
    if not re.fullmatch(r'0x[0-9a-f]{16}', text):
        raise SystemExit(f'GUID {text!r} is not 0x and 16 hex digits')
    return int(text, 16)


def diags_nodes(text):
    out = set()
    for line in text.splitlines():
        m = re.match(r'^(Switch|Ca|Router)\s*: (0x[0-9a-f]+) ports (\d+) "(.*?)"(?: .* lid (\d+) lmc)?',
                     line)
        if m:
            kind = {'Switch': 'switch', 'Ca': 'ca', 'Router': 'router'}[m.group(1)]
            lid = int(m.group(5)) if m.group(5) else None
            out.add((kind, int(m.group(2), 16), int(m.group(3)), m.group(4), lid))
    return out


def ours_nodes(records):
    return {(n['type'], guid(n['node_guid']), n['ports'], n['description'],
             n['lids'][0] if n['type'] == 'switch' and n['lids'] else None) for n in records}


def diags_links(text):
    links, lone = set(), set()
    for line in text.splitlines():
        m = re.match(r"^(SW|CA|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-f]+) \S+ \S+ - (SW|CA|RT)\s+(\d+)"
                     r"\s+(\d+)\s+(0x[0-9a-f]+) \( '(.*)' - '(.*)' \)", line)
        if m:
            a = (m.group(9), int(m.group(3)), int(m.group(2)), int(m.group(4), 16))
            b = (m.group(10), int(m.group(7)), int(m.group(6)), int(m.group(8), 16))
            links.add(frozenset((a, b)))
            continue
        m = re.match(r"^(SW|CA|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-f]+) \S+ \S+\s+'(.*)'$", line)
        if m:
            lone.add((m.group(5), int(m.group(3)), int(m.group(4), 16)))
    return links, lone


def ours_links(records):
    """ibnetdiscover -p prints a CA's port GUID, a switch's node GUID."""
    links, lone = set(), set()
    for r in records:
        a = (r['description'], r['port'], r['lid'], guid(r.get('port_guid', r['node_guid'])))
        if 'peer_node_guid' in r:
            links.add(frozenset((a, (r['peer_description'], r['peer_port'], r['peer_lid'],
                                     guid(r.get('peer_port_guid', r['peer_node_guid']))))))
        else:
            lone.add((r['description'], r['port'], a[3]))
    return links, lone


def report(name, diags, ours):
    missing, extra = diags - ours, ours - diags
    for x in sorted(map(str, missing))[:10]:
        print(f'{name}: only infiniband-diags has {x}')
    for x in sorted(map(str, extra))[:10]:
        print(f'{name}: only rdma has {x}')
    print(f'{name}: {len(diags & ours)} of {len(diags)} equal')
    return not missing and not extra


def topology_full(text):
    """Each link line's (node GUID, port) -> its s=, w=, v= codes, under the
    switchguid=/caguid=/rtguid= line that heads its node; a link line
    without them is (node GUID, port) -> None."""
    out, node = {}, None
    for line in text.splitlines():
        m = re.match(r'^(?:switch|ca|rt)guid=0x([0-9a-f]+)', line)
        if m:
            node = int(m.group(1), 16)
            continue
        m = re.match(r'^\[(\d+)\]', line)
        if m and node is not None:
            f = re.search(r' s=(\d+) w=(\d+) v=(\d+)$', line)
            out[(node, int(m.group(1)))] = f.groups() if f else None
    return out


def topology_grouped(text):
    """ibnetdiscover -g's grouping as facts to compare as sets: each chassis
    (number and GUID), each listing of a node (by GUID) with the chassis
    and section it is listed under, its mark's chassis number, its
    switch line's note, and each link line's [ext N] marks."""
    out, chassis, section, node = set(), None, 'none', None
    facts = {}
    for line in text.splitlines():
        m = re.match(r'^Chassis (\d+)(?: \(guid 0x([0-9a-f]+)\))?$', line)
        if m:
            chassis = int(m.group(2) or '0', 16)
            out.add(('chassis', int(m.group(1)), chassis))
            continue
        if line == 'Non-Chassis Nodes':
            chassis, section = None, 'none'
            continue
        m = re.match(r'^# (Spine Nodes|Line Nodes|Chassis Switches|Chassis CAs)$', line)
        if m:
            section = m.group(1)
            continue
        if line.startswith('vendid='):
            facts = {'mark': None, 'note': None, 'section': (chassis, section)}
            continue
        # A node with no SystemImageGUID (ibsim's routers) has its mark alone.
        m = re.match(r'^(?=.)(?:sysimgguid=0x[0-9a-f]+)?(?:\t\t# Chassis (\d+))?$', line)
        if m:
            # By number: a node listed twice carries the later chassis' mark.
            facts['mark'] = int(m.group(1)) if m.group(1) else None
            continue
        m = re.match(r'^switchguid=0x([0-9a-f]+)\([0-9a-f]+\)(?:\t#(.*))?$', line)
        if m:
            node = int(m.group(1), 16)
            facts['note'] = (m.group(2) or '').strip()
            out.add(('node', node, facts['section'], facts['mark'], facts['note']))
            continue
        m = re.match(r'^(?:ca|rt)guid=0x([0-9a-f]+)$', line)
        if m:
            node = int(m.group(1), 16)
            out.add(('node', node, facts['section'], facts['mark'], None))
            continue
        m = re.match(r'^\[(\d+)\](\[ext \d+\])?[^"]*"[^"]*"\[(\d+)\](\[ext \d+\])?', line)
        if m and node is not None:
            out.add(('link', node, int(m.group(1)), m.group(2), m.group(4)))
    return out


def main():
    kind, first, second = sys.argv[1:4]
    if kind == 'grouped':
        d = topology_grouped(open(first).read())
        o = topology_grouped(open(second).read())
        chassis = {x for x in d if x[0] == 'chassis'}
        ext = {x for x in d if x[0] == 'link' and (x[3] or x[4])}
        good = report('grouping facts', d, o)
        print(f'{len(chassis)} chassis, {len(ext)} link lines with [ext N]')
        return 0 if good and len(chassis) > 1 and ext else 1
    if kind == 'full':
        d = topology_full(open(first).read())
        o = topology_full(open(second).read())
        items = lambda m: {(k, v) for k, v in m.items()}
        good = report('link lines with s= w= v=', items(d), items(o))
        return 0 if good and d and None not in d.values() else 1
    if kind == 'same':
        a = ours_nodes(json.load(open(first)))
        b = ours_nodes(json.load(open(second)))
        # The second fabric is a copy: same GUIDs, ports and descriptions.
        strip = lambda s: {n[:4] for n in s}
        return 0 if report('nodes', strip(a), strip(b)) and a else 1
    ours = json.load(open(second))
    if kind == 'nodes':
        good = report('nodes', diags_nodes(open(first).read()), ours_nodes(ours))
        return 0 if good and ours else 1
    d_links, d_lone = diags_links(open(first).read())
    o_links, o_lone = ours_links(ours)
    good = report('links', d_links, o_links) & report('unconnected ports', d_lone, o_lone)
    return 0 if good and d_links else 1


if __name__ == '__main__':
    sys.exit(main())
