#!/usr/bin/env python3
"""Turn an strace log into a netlink exchange file.

The log must come from
  strace -f -xx -s 65536 -e trace=socket,close,sendto,sendmsg,recvmsg,recvfrom \
         -e read=all -e write=all -o LOG CMD
Output: one line per datagram on NETLINK_RDMA sockets, in order:
  "> HEX" for what the program sent, "< HEX" for each datagram received
(lowercase hex, no spaces).  Calls with MSG_PEEK are skipped (the data is
read again by the following call), and so are failed calls.

usage: strace2nl.py LOG [OUT]  |  strace2nl.py LOG1 OUT1 LOG2 OUT2 ...
(OUT '-' or missing: stdout)
"""
import re
import sys

CALL = re.compile(r'^(?:(\d+) +)?(?:<\.\.\. (\w+) resumed>|(\w+)\()(.*)$')
RESULT = re.compile(r'\) += (-?\d+)(?:<[^>]*>)?(?: .*)?$')
DUMP = re.compile(r'^ \| ([0-9a-f]{5,})  ')
SENDS = {'sendto', 'sendmsg', 'write', 'writev'}
RECVS = {'recvmsg', 'recvfrom', 'read', 'readv'}


def convert(lines):
    rdma_fds = {}        # (pid, fd) -> True for NETLINK_RDMA sockets
    pending = {}         # pid -> (name, text of unfinished call)
    out = []
    cur = None           # [direction, expected_len, bytearray] being dumped
    last_pid = None

    def flush():
        nonlocal cur
        if cur is not None:
            d, n, data = cur
            if n is not None and len(data) != n:
                sys.stderr.write('strace2nl: dump length %d != result %d\n' % (len(data), n))
            out.append('%s %s' % (d, data.hex()))
            cur = None

    for raw in lines:
        line = raw.rstrip('\n')
        m = DUMP.match(line)
        if m:
            if cur is not None:
                start = m.end()
                part = line[start:start + 49]
                cur[2].extend(bytes.fromhex(''.join(part.split())))
            continue
        if line.startswith(' * '):          # " * N bytes in buffer K"
            continue
        flush()
        m = CALL.match(line)
        if not m:
            continue
        pid = m.group(1) or '0'
        last_pid = pid
        if m.group(2):                        # resumed
            name = m.group(2)
            prev = pending.pop(pid, (name, ''))
            text = prev[1] + m.group(4)
        else:
            name = m.group(3)
            text = m.group(4)
        if text.endswith('<unfinished ...>'):
            pending[pid] = (name, text[:-len('<unfinished ...>')])
            continue
        r = RESULT.search(text)
        if not r:
            continue
        ret = int(r.group(1))
        if name == 'socket':
            if 'NETLINK_RDMA' in text and ret >= 0:
                rdma_fds[(pid, ret)] = True
            elif ret >= 0:
                rdma_fds.pop((pid, ret), None)
            continue
        fdm = re.match(r'\s*(\d+)', text)
        if not fdm:
            continue
        fd = int(fdm.group(1))
        if name == 'close':
            if ret == 0:
                rdma_fds.pop((pid, fd), None)
            continue
        if (pid, fd) not in rdma_fds and not any(k[1] == fd for k in rdma_fds if k[0] != pid):
            continue
        if ret < 0:
            continue
        if name in SENDS:
            cur = ['>', ret, bytearray()]
        elif name in RECVS:
            if 'MSG_PEEK' in text:
                continue
            cur = ['<', ret, bytearray()]
    flush()
    return out


def main():
    args = sys.argv[1:]
    if not args:
        sys.stderr.write(__doc__)
        return 2
    if len(args) == 1:
        args.append('-')
    if len(args) % 2:
        sys.stderr.write('strace2nl: need LOG OUT pairs\n')
        return 2
    for log, dst in zip(args[0::2], args[1::2]):
        with open(log, errors='replace') as f:
            res = convert(f)
        text = ''.join(l + '\n' for l in res)
        if dst == '-':
            sys.stdout.write(text)
        else:
            with open(dst, 'w') as f:
                f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
