#!/usr/bin/env python3
"""Compares `rdma -j -d` output with infiniband-diags text output.

Usage: compare.py KIND DIAGS_OUTPUT_FILE RDMA_JSON_FILE
KIND: nodeinfo, nodedesc, portinfo, switchinfo, perf, sminfo.
Maps each diags field name to its IBA name (the JSON key) and each printed
value to the number the IBA defines; prints the mismatches, exits 1 on any.
"""
import json
import re
import sys

NAMES = {
    'nodeinfo': {
        'BaseVers': 'BaseVersion', 'ClassVers': 'ClassVersion', 'NodeType': 'NodeType',
        'NumPorts': 'NumPorts', 'SystemGuid': 'SystemImageGUID', 'Guid': 'NodeGUID',
        'PortGuid': 'PortGUID', 'PartCap': 'PartitionCap', 'DevId': 'DeviceID',
        'Revision': 'Revision', 'LocalPort': 'LocalPortNum', 'VendorId': 'VendorID',
    },
    'nodedesc': {'Node Description': 'NodeString'},
    'portinfo': {
        'GidPrefix': 'GIDPrefix', 'Lid': 'LID', 'SMLid': 'MasterSMLID',
        'CapMask': 'CapabilityMask', 'DiagCode': 'DiagCode',
        'MkeyLeasePeriod': 'M_KeyLeasePeriod', 'LocalPort': 'LocalPortNum',
        'LinkWidthEnabled': 'LinkWidthEnabled', 'LinkWidthSupported': 'LinkWidthSupported',
        'LinkWidthActive': 'LinkWidthActive', 'LinkSpeedSupported': 'LinkSpeedSupported',
        'LinkState': 'PortState', 'PhysLinkState': 'PortPhysicalState',
        'LinkDownDefState': 'LinkDownDefaultState', 'ProtectBits': 'M_KeyProtectBits',
        'LMC': 'LMC', 'LinkSpeedActive': 'LinkSpeedActive',
        'LinkSpeedEnabled': 'LinkSpeedEnabled', 'NeighborMTU': 'NeighborMTU',
        'SMSL': 'MasterSMSL', 'VLCap': 'VLCap', 'InitType': 'InitType',
        'VLHighLimit': 'VLHighLimit', 'VLArbHighCap': 'VLArbitrationHighCap',
        'VLArbLowCap': 'VLArbitrationLowCap', 'InitReply': 'InitTypeReply',
        'MtuCap': 'MTUCap', 'VLStallCount': 'VLStallCount', 'HoqLife': 'HOQLife',
        'OperVLs': 'OperationalVLs', 'PartEnforceInb': 'PartitionEnforcementInbound',
        'PartEnforceOutb': 'PartitionEnforcementOutbound', 'FilterRawInb': 'FilterRawInbound',
        'FilterRawOutb': 'FilterRawOutbound', 'MkeyViolations': 'M_KeyViolations',
        'PkeyViolations': 'P_KeyViolations', 'QkeyViolations': 'Q_KeyViolations',
        'GuidCap': 'GUIDCap', 'ClientReregister': 'ClientReregister',
        'McastPkeyTrapSuppressionEnabled': 'MulticastPKeyTrapSuppressionEnabled',
        'SubnetTimeout': 'SubnetTimeOut', 'RespTimeVal': 'RespTimeValue',
        'LocalPhysErr': 'LocalPhyErrors', 'OverrunErr': 'OverrunErrors',
        'MaxCreditHint': 'MaxCreditHint', 'RoundTrip': 'LinkRoundTripLatency',
        'CapabilityMask2': 'CapabilityMask2', 'LinkSpeedExtActive': 'LinkSpeedExtActive',
        'LinkSpeedExtSupported': 'LinkSpeedExtSupported',
        'LinkSpeedExtEnabled': 'LinkSpeedExtEnabled',
    },
    'switchinfo': {
        'LinearFdbCap': 'LinearFDBCap', 'RandomFdbCap': 'RandomFDBCap',
        'McastFdbCap': 'MulticastFDBCap', 'LinearFdbTop': 'LinearFDBTop',
        'DefPort': 'DefaultPort', 'DefMcastPrimPort': 'DefaultMulticastPrimaryPort',
        'DefMcastNotPrimPort': 'DefaultMulticastNotPrimaryPort', 'LifeTime': 'LifeTimeValue',
        'StateChange': 'PortStateChange', 'OptSLtoVLMapping': 'OptimizedSLtoVLMappingProgramming',
        'LidsPerPort': 'LIDsPerPort', 'PartEnforceCap': 'PartitionEnforcementCap',
        'InboundPartEnf': 'InboundEnforcementCap', 'OutboundPartEnf': 'OutboundEnforcementCap',
        'FilterRawInbound': 'FilterRawInboundCap', 'FilterRawOutbound': 'FilterRawOutboundCap',
        'EnhancedPort0': 'EnhancedPort0', 'MulticastFDBTop': 'MulticastFDBTop',
    },
}
PERF = ['PortSelect', 'CounterSelect', 'SymbolErrorCounter', 'LinkErrorRecoveryCounter',
        'LinkDownedCounter', 'PortRcvErrors', 'PortRcvRemotePhysicalErrors',
        'PortRcvSwitchRelayErrors', 'PortXmitDiscards', 'PortXmitConstraintErrors',
        'PortRcvConstraintErrors', 'CounterSelect2', 'LocalLinkIntegrityErrors',
        'ExcessiveBufferOverrunErrors', 'VL15Dropped', 'PortXmitData', 'PortRcvData',
        'PortXmitPkts', 'PortRcvPkts', 'PortXmitWait', 'PortUnicastXmitPkts',
        'PortUnicastRcvPkts', 'PortMulticastXmitPkts', 'PortMulticastRcvPkts']
NAMES['perf'] = {n: n for n in PERF}

# Counters that move between the diags' query and ours: the SM's activity,
# and the traffic of a port our own MADs cross. Ours must not be lower.
GROWING = {'ActCount', 'PortXmitData', 'PortRcvData', 'PortXmitPkts', 'PortRcvPkts',
           'PortUnicastXmitPkts', 'PortUnicastRcvPkts', 'PortMulticastXmitPkts',
           'PortMulticastRcvPkts'}

# Words infiniband-diags prints for enumerations and masks, as IBA values.
WORDS = {
    'NodeType': {'Channel Adapter': 1, 'Switch': 2, 'Router': 3},
    'PortState': {'NoChange': 0, 'Down': 1, 'Initialize': 2, 'Armed': 3, 'Active': 4},
    'PortPhysicalState': {'NoChange': 0, 'Sleep': 1, 'Polling': 2, 'Disabled': 3,
                          'PortConfigurationTraining': 4, 'LinkUp': 5,
                          'LinkErrorRecovery': 6, 'PhyTest': 7},
    'LinkDownDefaultState': {'NoChange': 0, 'Sleep': 1, 'Polling': 2},
    'width': {'1X': 1, '4X': 2, '8X': 4, '12X': 8, '2X': 16},
    'speed': {'2.5 Gbps': 1, '5.0 Gbps': 2, '10.0 Gbps': 4},
    'speedext': {'No Extended Speed': 0, '14.0625 Gbps': 1, '25.78125 Gbps': 2,
                 '53.125 Gbps': 4, '106.25 Gbps': 8},
    'mtu': {'256': 1, '512': 2, '1024': 3, '2048': 4, '4096': 5},
    'vl': {'VL0': 1, 'VL0-1': 2, 'VL0-3': 3, 'VL0-7': 4, 'VL0-14': 5},
}
KIND_OF = {
    'NodeType': 'NodeType', 'PortState': 'PortState', 'PortPhysicalState': 'PortPhysicalState',
    'LinkDownDefaultState': 'LinkDownDefaultState', 'LinkWidthEnabled': 'width',
    'LinkWidthSupported': 'width', 'LinkWidthActive': 'width',
    'LinkSpeedSupported': 'speed', 'LinkSpeedActive': 'speed', 'LinkSpeedEnabled': 'speed',
    'LinkSpeedExtActive': 'speedext', 'LinkSpeedExtSupported': 'speedext',
    'LinkSpeedExtEnabled': 'speedext', 'NeighborMTU': 'mtu', 'MTUCap': 'mtu',
    'VLCap': 'vl', 'OperationalVLs': 'vl',
}


def diags_value(key, text):
    """The IBA value of a field as infiniband-diags prints it."""
    text = text.strip()
    words = WORDS.get(KIND_OF.get(key, ''), {})
    if text in words:  # before numbers: an MTU of "2048" is 4
        return words[text]
    try:
        return int(text, 0)
    except ValueError:
        pass
    total = 0
    for part in text.split(' or '):  # masks: "1X or 4X"
        part = part.strip()
        if part in words:
            total |= words[part]
        elif re.fullmatch(r'undefined \((\d+)\)', part):
            total |= int(re.fullmatch(r'undefined \((\d+)\)', part).group(1))
        else:
            return text  # compared as a string
    return total


def ours_value(v):
    if isinstance(v, str) and re.fullmatch(r'[0-9a-f]{4}(:[0-9a-f]{4}){3}', v):
        return int(v.replace(':', ''), 16)  # GUIDs
    return v


def parse_diags(kind, text):
    out = {}
    if kind == 'sminfo':
        m = re.search(r'sm lid (\d+) sm guid (0x[0-9a-f]+), activity count (\d+) '
                      r'priority (\d+) state (\d+)', text)
        if not m:
            raise SystemExit('cannot parse sminfo output: ' + text)
        return {'GUID': int(m.group(2), 16), 'ActCount': int(m.group(3)),
                'Priority': int(m.group(4)), 'SMState': int(m.group(5))}
    for line in text.splitlines():
        m = re.match(r'^([A-Za-z0-9 ]+?):\.*(.*)$', line)
        if not m or line.startswith('#'):
            continue
        name, value = m.group(1), m.group(2)
        iba = NAMES[kind].get(name)
        if iba:
            out[iba] = value if kind == 'nodedesc' else diags_value(iba, value)
    return out


def main():
    kind, diags_file, ours_file = sys.argv[1:4]
    diags = parse_diags(kind, open(diags_file).read())
    ours = json.load(open(ours_file))
    if isinstance(ours, list):
        ours = ours[0] if ours else {}
    if not diags:
        print(f'{kind}: no fields in the infiniband-diags output')
        return 1
    bad = 0
    for key, want in diags.items():
        if key not in ours:
            print(f'{kind}: {key} missing from rdma (diags: {want})')
            bad += 1
            continue
        got = ours_value(ours[key])
        if key in GROWING:  # counts on between the two queries (ours runs last)
            ok = isinstance(got, int) and got >= want
        else:
            ok = got == want
        if not ok:
            print(f'{kind}: {key}: rdma {ours[key]!r}, diags {want!r}')
            bad += 1
    print(f'{kind}: {len(diags) - bad} of {len(diags)} fields equal')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
