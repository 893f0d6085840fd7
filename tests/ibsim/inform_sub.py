#!/usr/bin/env python3
"""Subscribes the local port to the SA's traps (SubnAdmSet InformInfo,
IBA 13.4.8.3: every generic trap number NUMBER from any LID), so that
opensm keeps an InformInfoRecord to list (saquery IIR, rdma sa show
inform). Run under the umad2sim preload; talks to libibumad through
ctypes, as mcast_join.py does.

  inform_sub.py SM_LID [NUMBER]
exits 0 when the SA answered the subscription.
"""
import ctypes
import struct
import sys


def main():
    sm_lid = int(sys.argv[1], 0)
    number = int(sys.argv[2], 0) if len(sys.argv) > 2 else 64  # GID in service
    umad = ctypes.CDLL("libibumad.so.3")
    umad.umad_get_mad.restype = ctypes.c_void_p
    if umad.umad_init() < 0:
        sys.exit("umad_init failed")
    fd = umad.umad_open_port(None, 0)
    if fd < 0:
        sys.exit("umad_open_port failed")
    agent = umad.umad_register(fd, 3, 2, 0, None)  # SA class, version 2, no RMPP
    if agent < 0:
        sys.exit("umad_register failed")
    # MAD header (SubnAdmSet InformInfo), then the SA header.
    mad = bytearray(256)
    struct.pack_into(">BBBBHHQHHI", mad, 0, 1, 3, 2, 0x02, 0, 0, 0x4321, 0x0003, 0, 0)
    data = 56
    # InformInfo: GID 0 and LIDRangeBegin 0xffff (any source), IsGeneric,
    # Subscribe, Type 0xffff (any), TrapNumber, QPN 1, RespTimeValue 18,
    # ProducerType 0xffffff (any).
    struct.pack_into(">HHHBBHHI", mad, data + 16, 0xffff, 0, 0, 1, 1, 0xffff, number, 1 << 8 | 18)
    struct.pack_into(">I", mad, data + 32, 0xffffff)
    size = umad.umad_size()
    buf = ctypes.create_string_buffer(size + 256)
    umad.umad_set_addr(buf, sm_lid, 1, 0, ctypes.c_uint32(0x80010000))
    ctypes.memmove(umad.umad_get_mad(buf), bytes(mad), 256)
    if umad.umad_send(fd, agent, buf, 256, 1000, 3) < 0:
        sys.exit("umad_send failed")
    rbuf = ctypes.create_string_buffer(size + 256)
    length = ctypes.c_int(256)
    if umad.umad_recv(fd, rbuf, ctypes.byref(length), 5000) < 0:
        sys.exit("no answer from the SA")
    reply = ctypes.string_at(umad.umad_get_mad(rbuf), 256)
    status = struct.unpack_from(">H", reply, 4)[0]
    umad.umad_close_port(fd)
    if reply[3] != 0x81 or status:
        sys.exit(f"subscription refused: method 0x{reply[3]:02x} status 0x{status:04x}")
    print("subscribed to trap %d" % number)


if __name__ == "__main__":
    main()
