#!/usr/bin/env python3
"""Generate a fat tree in ibsim's topology format (deterministic).

Two levels (leaf and spine switches) when the hosts fit under radix/2
spines, three levels (leaf, aggregation and core, in pods) otherwise. Every
HCA has two ports: port 1 on a leaf; port 2 on the next leaf for the
dual-homed ones (--dual-homed), otherwise down (unconnected). The first
HCA comes first in the file: ibsim attaches its clients there.

  bench/fattree.py --nodes 1000 > fabric.net
  bench/fattree.py --nodes 5000 --ibsim-flags   # the ibsim options it needs

--missing-links K removes K switch-to-switch links (chosen with --seed), so
the tree has holes and down ports on the switches; --down-ports K leaves
out the second link of K dual-homed HCAs. Unused switch ports are down too.
(ibsim's format has no "linked but down" port: a down port is one with no
link.) --link "w=2 s=7" sets every link's width and speed (ibsim's w= and s=,
both ends alike): without it, ibsim's links run below what their ends
support, and every one is a degraded link.
"""

import argparse
import random
import sys


def core_group(pods, radix):
    """Cores per aggregation group: each aggregation switch spreads its
    radix/2 uplinks over all of them, and each core has a port for every
    pod's share. Returns (cores per group, links from one pod to one core)."""
    half = radix // 2
    group = -(-pods * half // radix)
    while pods * -(-half // group) > radix:
        group += 1
    return group, -(-half // group)


def plan(total, radix, dual):
    """Hosts, leaves and the upper levels for about `total` nodes."""
    half = radix // 2
    for hosts in range(total, 0, -1):
        reserve = max(1, round(dual * half)) if dual > 0 else 0
        per_leaf = half - reserve
        leaves = -(-hosts // per_leaf)
        if leaves <= radix:  # two levels: every leaf to each of `half` spines
            upper = half if leaves > 1 else 0
            shape = ("2", leaves, upper, 0)
            nodes = hosts + leaves + upper
        else:
            pods = -(-leaves // half)
            if pods > radix:
                continue
            aggs = pods * half
            cores = half * core_group(pods, radix)[0]
            shape = ("3", leaves, aggs, cores)
            nodes = hosts + leaves + aggs + cores
        if nodes <= total:
            return hosts, per_leaf, reserve, shape
    raise SystemExit("fattree.py: --nodes too small")


def build(args):
    radix = args.radix
    half = radix // 2
    hosts, per_leaf, reserve, (levels, leaves, upper, cores) = plan(
        args.nodes, radix, args.dual_homed)
    rng = random.Random(args.seed)
    links = []  # ((name, port), (name, port))
    free = {}  # switch -> next free down port

    leaf = [f"leaf-{i:03d}" for i in range(leaves)]
    hca = [f"hca-{i:05d}" for i in range(hosts)]
    # Hosts: port 1 on leaf h // per_leaf; the first `reserve` of each leaf
    # dual-homed, port 2 on the next leaf after its own hosts.
    dual_next = {i: per_leaf + 1 for i in range(leaves)}
    for h in range(hosts):
        li, slot = divmod(h, per_leaf)
        links.append(((hca[h], 1), (leaf[li], slot + 1)))
        if reserve and slot < reserve and leaves > 1:
            nl = (li + 1) % leaves
            links.append(((hca[h], 2), (leaf[nl], dual_next[nl])))
            dual_next[nl] += 1
    up = []  # switch-to-switch links
    if levels == "2":
        spine = [f"spine-{i:03d}" for i in range(upper)]
        for li in range(leaves):
            for s in range(upper):
                up.append(((leaf[li], half + 1 + s), (spine[s], li + 1)))
        switches = leaf + spine
    else:
        pods = -(-leaves // half)
        agg = [f"agg-{p:02d}-{a:02d}" for p in range(pods) for a in range(half)]
        core = [f"core-{c:03d}" for c in range(cores)]
        for li in range(leaves):
            p, pos = divmod(li, half)
            for a in range(half):
                up.append(((leaf[li], half + 1 + a), (agg[p * half + a], pos + 1)))
        group, per_pod = core_group(pods, radix)
        for p in range(pods):
            for a in range(half):
                for j in range(half):  # agg a of every pod to every core of group a
                    c, k = j % group, j // group
                    up.append(((agg[p * half + a], half + 1 + j),
                               (core[a * group + c], p * per_pod + k + 1)))
        switches = leaf + agg + core
    for _ in range(min(args.missing_links, len(up))):
        up.pop(rng.randrange(len(up)))
    second = [i for i, ((_, p), _) in enumerate(links) if p == 2]
    for i in sorted(rng.sample(second, min(args.down_ports, len(second))), reverse=True):
        links.pop(i)  # that HCA's port 2 is down; port 1 keeps it reachable
    links += up

    ports = {}
    for (a, ap), (b, bp) in links:
        ports.setdefault(a, {})[ap] = (b, bp)
        ports.setdefault(b, {})[bp] = (a, ap)
    return hca, switches, ports, radix


def emit(out, hca, switches, ports, radix, link=""):
    suffix = " " + link if link else ""

    def node(kind, nports, name):
        out.write(f'{kind}\t{nports} "{name}"\n')
        for p in sorted(ports.get(name, {})):
            peer, pp = ports[name][p]
            out.write(f'[{p}]\t"{peer}"[{pp}]{suffix}\n')
        out.write("\n")

    out.write("# Generated by bench/fattree.py; ibsim's topology format.\n")
    node("Hca", 2, hca[0])
    for s in switches:
        node("Switch", radix, s)
    for h in hca[1:]:
        node("Hca", 2, h)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100, help="about this many nodes (HCAs + switches)")
    ap.add_argument("--radix", type=int, default=36, help="ports per switch (even)")
    ap.add_argument("--dual-homed", type=float, default=0.1,
                    help="share of each leaf's host ports given to dual-homed HCAs' port 2")
    ap.add_argument("--missing-links", type=int, default=0, help="switch links to leave out")
    ap.add_argument("--down-ports", type=int, default=0,
                    help="dual-homed HCAs whose second link is left out (port 2 down)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--link", default="",
                    help="ibsim's width and speed for every link, e.g. \"w=2 s=7\" (4X QDR): "
                         "links that run at what both ends support, not degraded")
    ap.add_argument("--ibsim-flags", action="store_true",
                    help="print the ibsim -N/-S/-P options this fabric needs, not the fabric")
    args = ap.parse_args()
    if args.radix < 4 or args.radix % 2 or args.radix > 254:
        ap.error("--radix must be even, 4..254")
    hca, switches, ports, radix = build(args)
    if args.ibsim_flags:
        nports = len(switches) * (radix + 1) + len(hca) * 2
        # ibsim's defaults: 2048 nodes, 256 switches, 256*36+2048*2 ports.
        print(f"-N {max(2048, len(hca) + len(switches))} -S {max(256, len(switches))} "
              f"-P {max(256 * 36 + 2048 * 2, nports)}")
        return
    emit(sys.stdout, hca, switches, ports, radix, args.link)
    print(f"fattree.py: {len(hca)} HCAs, {len(switches)} switches, "
          f"{sum(len(p) for p in ports.values()) // 2} links", file=sys.stderr)


if __name__ == "__main__":
    main()
