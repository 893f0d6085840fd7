"""One SubnAdmSet to the SA through libibumad (ctypes), for the helpers
that make opensm keep something to list: mcast_join.py (a multicast
member), inform_sub.py (a trap subscription). Run under the umad2sim
preload."""
import ctypes
import struct
import sys

DATA = 56  # the record's bytes follow the MAD and SA headers


def sa_set(sm_lid, attr_id, comp_mask, record, sm_key=0, tid=0x1234):
    """Sends SubnAdmSet(attr_id) with record at DATA; returns the reply's
    256 bytes, or exits with the refusal."""
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
    struct.pack_into(">BBBBHHQHHI", mad, 0, 1, 3, 2, 0x02, 0, 0, tid, attr_id, 0, 0)
    struct.pack_into(">QHHQ", mad, 36, sm_key, 0, 0, comp_mask)
    mad[DATA:DATA + len(record)] = record
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
        sys.exit(f"refused: method 0x{reply[3]:02x} status 0x{status:04x}")
    return reply
