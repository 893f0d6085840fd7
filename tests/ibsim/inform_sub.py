#!/usr/bin/env python3
"""Subscribes the local port to the SA's traps (SubnAdmSet InformInfo,
IBA 13.4.8.3: generic trap NUMBER from any LID), so that opensm keeps an
InformInfoRecord to list (saquery IIR, rdma sa show inform). Run under the
umad2sim preload.

  inform_sub.py SM_LID [NUMBER]
exits 0 when the SA answered the subscription (NUMBER 64, GID in service,
when not given).
"""
import struct
import sys

from sa_mad import sa_set


def main():
    sm_lid = int(sys.argv[1], 0)
    number = int(sys.argv[2], 0) if len(sys.argv) > 2 else 64
    # InformInfo: GID 0 and LIDRangeBegin 0xffff (any source), IsGeneric,
    # Subscribe, Type 0xffff (any), TrapNumber, QPN 1, RespTimeValue 18,
    # ProducerType 0xffffff (any).
    info = bytearray(36)
    struct.pack_into(">HHHBBHHI", info, 16, 0xffff, 0, 0, 1, 1, 0xffff, number, 1 << 8 | 18)
    struct.pack_into(">I", info, 32, 0xffffff)
    sa_set(sm_lid, 0x0003, 0, info, tid=0x4321)
    print("subscribed to trap %d" % number)


if __name__ == "__main__":
    main()
