#!/usr/bin/env python3
"""Compares `rdma -j -d` output with infiniband-diags text output.

Usage: compare.py KIND DIAGS_OUTPUT_FILE RDMA_JSON_FILE
KIND: one of KINDS below (attributes: nodeinfo, nodedesc, portinfo,
switchinfo, perf, sminfo; tables: pkeys, guids, sl2vl, vlarb).
Each kind is a pair of readers that turn both outputs into the same flat
form, {name: value}: attributes map each diags field name to its IBA name
(the JSON key) and each printed value to the number the IBA defines; tables
name every entry ("P_Key[3]", "in 2 out 3 SL[5]", "low Weight[0]"). Our
JSON says what our text says ("state": "ACTIVE", "width": "4X"); its keys
and words are turned back into IBA names and values through the field
tables of lib/mad/attrs_*.cc, the same tables the tool prints from. Prints
the mismatches, exits 1 on any.
"""
import json
import os
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
        'ExcessiveBufferOverrunErrors', 'QP1Dropped', 'VL15Dropped', 'PortXmitData', 'PortRcvData',
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


# Our field tables: label -> (IBA name, format), per attribute, read from
# the tool's source so the two can never drift apart.
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
FIELD = re.compile(r'\{"(\w+)", "(\w+)", \d+, \d+(?:, Fmt::(\w+))?')
TABLE = re.compile(r'constexpr FieldDef k(\w+)Fields\[\] = \{(.*?)\n\};', re.S)


def our_tables():
    tables = {}
    for name in ('attrs_smp.cc', 'attrs_perf.cc', 'attrs_pma.cc'):
        text = open(os.path.join(ROOT, 'lib', 'mad', name)).read()
        for attr, body in TABLE.findall(text):
            tables[attr] = {label: (iba, fmt or 'Uint') for iba, label, fmt in FIELD.findall(body)}
    return tables


TABLES = our_tables()
PMA_ATTRS = re.findall(r'constexpr FieldDef k(\w+)Fields\[\]',
                       open(os.path.join(ROOT, 'lib', 'mad', 'attrs_pma.cc')).read())
NAMES['pma'] = {iba: iba for a in PMA_ATTRS for iba, _ in TABLES[a].values()}
# The attributes each kind's record holds (node show prints three).
ATTRS = {
    'nodeinfo': ['NodeInfo', 'SwitchInfo', 'NodeDescription'],
    'nodedesc': ['NodeDescription'], 'switchinfo': ['SwitchInfo'],
    'portinfo': ['PortInfo'], 'perf': ['PortCountersExtended', 'PortCounters'],
    'sminfo': ['SmInfo'],
    # perf show's groups (lib/mad/attrs_pma.cc): perfquery -E, -D,
    # --vlxmitcounters, ... print them under the IBA's names, as ours.
    'pma': [a for a in TABLES if a not in ('PortCounters', 'PortCountersExtended')
            and a in PMA_ATTRS],
}
# Our words for enumerations, as IBA values (lib/mad/format.cc).
OUR_WORDS = {
    'NodeType': {'ca': 1, 'switch': 2, 'router': 3},
    'PortState': {'NOP': 0, 'DOWN': 1, 'INIT': 2, 'ARMED': 3, 'ACTIVE': 4},
    'PhysState': {'NOP': 0, 'SLEEP': 1, 'POLLING': 2, 'DISABLED': 3,
                  'PORT_CONFIGURATION_TRAINING': 4, 'LINK_UP': 5, 'LINK_ERROR_RECOVERY': 6,
                  'PHY_TEST': 7},
    'LinkDownDef': {'NOCHANGE': 0, 'SLEEP': 1, 'POLLING': 2},
    'Width': {'1X': 1, '4X': 2, '8X': 4, '12X': 8, '2X': 16},
    'Speed': {'2.5': 1, '5.0': 2, '10.0': 4},
    # LinkSpeedActive's key is the link's speed (lib/mad/speed.h): the
    # extended speed when one runs, which these fabrics' SDR links lack, so
    # here it must read as LinkSpeedActive (speeds.sh compares the rest).
    'LinkSpeed': {'2.5': 1, '5.0': 2, '10.0': 4},
    'SpeedExt': {'none': 0, '14.0625': 1, '25.78125': 2, '53.125': 4, '106.25': 8},
    'Mtu': {'256': 1, '512': 2, '1024': 3, '2048': 4, '4096': 5},
    'VlCap': {'VL0': 1, 'VL0-1': 2, 'VL0-3': 3, 'VL0-7': 4, 'VL0-14': 5},
    'SmState': {'NOTACTIVE': 0, 'DISCOVERING': 1, 'STANDBY': 2, 'MASTER': 3},
}
MASKS = {'WidthMask': 'Width', 'SpeedMask': 'Speed', 'SpeedExtMask': 'SpeedExt'}
# The data counters (PortXmitData, PortRcvData) count 4-byte words: perfquery
# prints the words, we print bytes (Fmt::DataWords), four times as many.
DATA_WORDS = {iba for t in TABLES.values() for iba, fmt in t.values() if fmt == 'DataWords'}


def ours_value(v, fmt='Uint'):
    """One of our JSON values as the IBA's number (or string)."""
    if fmt == 'Mtu' and isinstance(v, int):  # JSON says 2048: the IBA's 4
        return {256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}.get(v, v)
    if fmt == 'LinkSpeed' and isinstance(v, float):  # the lane's Gb/s, a JSON number
        return {2.5: 1, 5.0: 2, 10.0: 4}.get(v, v)
    if not isinstance(v, str):
        return v
    if fmt == 'Guid':  # as smpquery prints them: 0x and 16 digits, else unequal
        return int(v, 16) if re.fullmatch(r'0x[0-9a-f]{16}', v) else v
    if fmt in OUR_WORDS:
        return OUR_WORDS[fmt].get(v, v)
    if fmt in MASKS:
        words = OUR_WORDS[MASKS[fmt]]
        total = 0
        for part in v.split(','):
            if part == 'none':
                continue
            m = re.fullmatch(r'unknown\((\d+)\)', part)
            if part not in words and not m:
                return v
            total |= words[part] if part in words else int(m.group(1))
        return total
    if fmt == 'Hex' and re.fullmatch(r'0x[0-9a-f]+', v):
        return int(v, 16)
    return v


def iba_record(kind, record):
    """Our record under the IBA's names and values."""
    out = {}
    for attr in reversed(ATTRS.get(kind, [])):
        for label, (iba, fmt) in TABLES[attr].items():
            if label in record:
                out[iba] = ours_value(record[label], fmt)
    return out


def parse_fields(kind, text):
    """Attributes: "Name:.....value" lines."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'^([A-Za-z0-9 ]+?):\.*(.*)$', line)
        if not m or line.startswith('#'):
            continue
        name, value = m.group(1), m.group(2)
        iba = NAMES[kind].get(name)
        if iba:
            out[iba] = value if kind == 'nodedesc' else diags_value(iba, value)
    return out


def parse_sminfo(kind, text):
    m = re.search(r'sm lid (\d+) sm guid (0x[0-9a-f]+), activity count (\d+) '
                  r'priority (\d+) state (\d+)', text)
    if not m:
        raise SystemExit('cannot parse sminfo output: ' + text)
    return {'GUID': int(m.group(2), 16), 'ActCount': int(m.group(3)),
            'Priority': int(m.group(4)), 'SMState': int(m.group(5))}


def parse_rows(kind, text):
    """smpquery pkeys / guidinfo: "  N: v v ..." rows from entry N, then
    "CAP pkeys|guids capacity"; rows are padded past the capacity."""
    entry, cap_name = TABLE_NAMES[kind]
    out, cap = {}, None
    for line in text.splitlines():
        m = re.match(r'^\s*(\d+):((?:\s+0x[0-9a-f]+)+)\s*$', line)
        if m:
            for i, v in enumerate(m.group(2).split()):
                out[f'{entry}[{int(m.group(1)) + i}]'] = int(v, 16)
        m = re.match(r'^(\d+) \w+ capacity', line)
        if m:
            cap = int(m.group(1))
    if cap is None:
        return {}
    out = {k: v for k, v in out.items() if int(k[k.index('[') + 1:-1]) < cap}
    out[cap_name] = cap
    return out


def parse_sl2vl(kind, text):
    """"ports: in  I, out  O: | v| v|...|" rows."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'^ports: in\s+(\d+), out\s+(\d+): \|(.*)\|$', line)
        if m:
            for sl, v in enumerate(m.group(3).split('|')):
                out[f'in {int(m.group(1))} out {int(m.group(2))} SL[{sl}]'] = int(v)
    return out


def parse_vlarb(kind, text):
    """A "LowCap L HighCap H" line, then per priority "VL" and "WEIGHT" rows."""
    out, prio, seen = {}, None, {}
    for line in text.splitlines():
        m = re.search(r'LowCap (\d+) HighCap (\d+)', line)
        if m:
            out['low Cap'], out['high Cap'] = int(m.group(1)), int(m.group(2))
        m = re.match(r'^# (Low|High) priority', line)
        if m:
            prio = m.group(1).lower()
        m = re.match(r'^(VL|WEIGHT)\s*: \|(.*)\|$', line)
        if m and prio:
            name = 'VL' if m.group(1) == 'VL' else 'Weight'
            for v in m.group(2).split('|'):
                i = seen.get((prio, name), 0)
                out[f'{prio} {name}[{i}]'] = int(v.strip(), 16)
                seen[(prio, name)] = i + 1
    return out


def ours_record(kind, records):
    """Attributes: the one record, its values as the diags' numbers."""
    return iba_record(kind, records[0] if records else {})


def ours_rows(kind, records):
    entry, cap_name = TABLE_NAMES[kind]
    r = records[0] if records else {}
    out = {f'{entry}[{i}]': ours_value(v, 'Hex') for i, v in enumerate(r.get(kind, []))}
    out[cap_name] = r.get('capacity')
    return out


def ours_sl2vl(kind, records):
    """A CA's one table is smpquery's "in 0, out 0"; a switch's are per input port."""
    out = {}
    for r in records:
        io = f'in {r["in"]} out {r["port"]}' if 'in' in r else 'in 0 out 0'
        for sl, v in enumerate(r['sl2vl']):
            out[f'{io} SL[{sl}]'] = v
    return out


def ours_vlarb(kind, records):
    out = {}
    for r in records:
        out[f'{r["priority"]} Cap'] = r['capacity']
        for name, ours in (('VL', 'vl'), ('Weight', 'weight')):
            for i, v in enumerate(r[ours]):
                out[f'{r["priority"]} {name}[{i}]'] = v
    return out


TABLE_NAMES = {'pkeys': ('P_Key', 'PartitionCap'), 'guids': ('GUID', 'GUIDCap')}

# KIND: (diags reader, rdma reader, exact). Exact kinds must have the same
# entries on both sides; for the others ours may show more fields.
KINDS = {
    'nodeinfo': (parse_fields, ours_record, False),
    'nodedesc': (parse_fields, ours_record, False),
    'portinfo': (parse_fields, ours_record, False),
    'switchinfo': (parse_fields, ours_record, False),
    'perf': (parse_fields, ours_record, False),
    'pma': (parse_fields, ours_record, False),
    'sminfo': (parse_sminfo, ours_record, False),
    'pkeys': (parse_rows, ours_rows, True),
    'guids': (parse_rows, ours_rows, True),
    'sl2vl': (parse_sl2vl, ours_sl2vl, True),
    'vlarb': (parse_vlarb, ours_vlarb, True),
}


def main():
    kind, diags_file, ours_file = sys.argv[1:4]
    read_diags, read_ours, exact = KINDS[kind]
    diags = read_diags(kind, open(diags_file).read())
    diags = {k: v * 4 if k in DATA_WORDS and isinstance(v, int) else v for k, v in diags.items()}
    records = json.load(open(ours_file))
    ours = read_ours(kind, records if isinstance(records, list) else [records])
    if not diags:
        print(f'{kind}: no fields in the infiniband-diags output')
        return 1
    wrong = []
    for key, want in diags.items():
        got = ours.get(key)
        if key not in ours:
            wrong.append(f'{key} missing from rdma (diags: {want})')
        elif key in GROWING:  # counts on between the two queries (ours runs last)
            if not (isinstance(got, int) and got >= want):
                wrong.append(f'{key}: rdma {got!r}, diags {want!r} (may only grow)')
        elif got != want:
            wrong.append(f'{key}: rdma {got!r}, diags {want!r}')
    extra = sorted(set(ours) - set(diags)) if exact else []
    for line in wrong[:10]:
        print(f'{kind}: {line}')
    if len(wrong) > 10:
        print(f'{kind}: ... and {len(wrong) - 10} more')
    if extra:
        print(f'{kind}: rdma has {len(extra)} entries infiniband-diags lacks: {", ".join(extra[:5])}')
    print(f'{kind}: {len(diags) - len(wrong)} of {len(diags)} fields equal'
          + (f', {len(extra)} extra' if extra else ''))
    return 1 if wrong or extra else 0


if __name__ == '__main__':
    sys.exit(main())
