#!/usr/bin/env python3
"""Joins the local port to a multicast group through the SA, as IPoIB does
(SubnAdmSet MCMemberRecord, full member), so opensm programs the switches'
multicast forwarding tables on the simulator. Run under the umad2sim
preload; talks to libibumad through ctypes.

  mcast_join.py SM_LID MGID PORT_GUID [SM_KEY]
exits 0 when the SA answered the join. With the SM_Key (opensm's default
is 1) the request is trusted and may join another port (a proxy join).
"""
import ctypes
import ipaddress
import struct
import sys


def main():
    sm_lid, mgid, port_guid = int(sys.argv[1], 0), sys.argv[2], int(sys.argv[3], 0)
    sm_key = int(sys.argv[4], 0) if len(sys.argv) > 4 else 0
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
    # MAD header, then the SA header (SM_Key, AttributeOffset, ComponentMask).
    mad = bytearray(256)
    struct.pack_into(">BBBBHHQHHI", mad, 0, 1, 3, 2, 0x02, 0, 0, 0x1234, 0x0038, 0, 0)
    comp_mask = 1 << 0 | 1 << 1 | 1 << 16  # MGID, PortGID, JoinState
    struct.pack_into(">QHHQ", mad, 36, sm_key, 0, 0, comp_mask)
    data = 56
    mad[data:data + 16] = ipaddress.IPv6Address(mgid).packed
    struct.pack_into(">QQ", mad, data + 16, 0xfe80000000000000, port_guid)
    mad[data + 48] = 0x21  # Scope 2 (link local), JoinState 1 (full member)
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
        sys.exit(f"join refused: method 0x{reply[3]:02x} status 0x{status:04x}")
    print("joined, mlid 0x%04x" % struct.unpack_from(">H", reply, data + 36)[0])


if __name__ == "__main__":
    main()
