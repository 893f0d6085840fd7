"""The ports iblinkinfo prints with a peer, for the fabric suite's
comparisons: (node, port, peer, peer port) under each "Switch: GUID NAME:"
or "CA: NAME:" head, in its order, and the set of heads."""
import re


def rows(path):
    heads, out, head = set(), [], None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^(?:Switch: 0x[0-9a-f]+|CA:) (.*):$", line.rstrip("\n"))
        if m:
            head = m.group(1)
            heads.add(head)
            continue
        m = re.search(r"(\d+)\s+(\d+)\[..\] ==\(.*\)==>\s+(\d+)\s+(\d+)\[..\] \"(.*?)\"", line)
        if m:
            out.append((head, int(m[2]), m[5], int(m[4])))
    return heads, out
