#!/usr/bin/env python3
"""Joins the local port to a multicast group through the SA, as IPoIB does
(SubnAdmSet MCMemberRecord, full member), so opensm programs the switches'
multicast forwarding tables on the simulator. Run under the umad2sim
preload; sends through sa_mad.py.

  mcast_join.py SM_LID MGID PORT_GUID [SM_KEY]
exits 0 when the SA answered the join. With the SM_Key (opensm's default
is 1) the request is trusted and may join another port (a proxy join).
"""
import ipaddress
import struct
import sys

from sa_mad import DATA, sa_set


def main():
    sm_lid, mgid, port_guid = int(sys.argv[1], 0), sys.argv[2], int(sys.argv[3], 0)
    sm_key = int(sys.argv[4], 0) if len(sys.argv) > 4 else 0
    comp_mask = 1 << 0 | 1 << 1 | 1 << 16  # MGID, PortGID, JoinState
    rec = bytearray(52)
    rec[0:16] = ipaddress.IPv6Address(mgid).packed
    struct.pack_into(">QQ", rec, 16, 0xfe80000000000000, port_guid)
    rec[48] = 0x21  # Scope 2 (link local), JoinState 1 (full member)
    reply = sa_set(sm_lid, 0x0038, comp_mask, rec, sm_key)
    print("joined, mlid 0x%04x" % struct.unpack_from(">H", reply, DATA + 36)[0])


if __name__ == "__main__":
    main()
