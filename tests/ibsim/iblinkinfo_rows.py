"""The ports iblinkinfo prints, for the fabric suite's comparisons: rows()
those with a peer, (node, port, peer, peer port) under each "Switch: GUID
NAME:" or "CA: NAME:" head, in its order, and the set of heads;
port_lines() every port line, with its node and port, for the parts of a
line a comparison reads itself (-p's HOQ, a Down state)."""
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


def port_lines(path):
    head = None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^(?:Switch: 0x[0-9a-f]+|CA:) (.*):$", line.rstrip("\n"))
        if m:
            head = m.group(1)
            continue
        m = re.search(r"\d+\s+(\d+)\[..\] ==\(", line)
        if m:
            yield head, int(m[1]), line
