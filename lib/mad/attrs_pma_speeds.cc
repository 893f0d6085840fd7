// PortExtendedSpeedsCounters in its two layouts (IBA vol 1, 16.1.4.16:
// without and with RS-FEC active on the link), PortSamplesControl (16.1.3.2)
// and the SMP attribute PortInfoExtended (14.2.5.21) whose FECModeActive
// says which layout a port's counters have. Offsets in bits from the start
// of the attribute, as attrs_pma.cc.
#include "lib/mad/attrs_ext.h"
#include "lib/mad/attrs_pma.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kPortExtendedSpeedsCountersFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 64, 64, Fmt::Hex, kDetail},
    {"SyncHeaderErrorCounter", "sync_header_errors", 128, 16},
    {"UnknownBlockCounter", "unknown_blocks", 144, 16},
    {"ErrorDetectionCounterLane0", "error_detection_lane0", 160, 16},
    {"ErrorDetectionCounterLane1", "error_detection_lane1", 176, 16},
    {"ErrorDetectionCounterLane2", "error_detection_lane2", 192, 16},
    {"ErrorDetectionCounterLane3", "error_detection_lane3", 208, 16},
    {"ErrorDetectionCounterLane4", "error_detection_lane4", 224, 16},
    {"ErrorDetectionCounterLane5", "error_detection_lane5", 240, 16},
    {"ErrorDetectionCounterLane6", "error_detection_lane6", 256, 16},
    {"ErrorDetectionCounterLane7", "error_detection_lane7", 272, 16},
    {"ErrorDetectionCounterLane8", "error_detection_lane8", 288, 16},
    {"ErrorDetectionCounterLane9", "error_detection_lane9", 304, 16},
    {"ErrorDetectionCounterLane10", "error_detection_lane10", 320, 16},
    {"ErrorDetectionCounterLane11", "error_detection_lane11", 336, 16},
    {"FECCorrectableBlockCtrLane0", "fec_correctable_blocks_lane0", 352, 32},
    {"FECCorrectableBlockCtrLane1", "fec_correctable_blocks_lane1", 384, 32},
    {"FECCorrectableBlockCtrLane2", "fec_correctable_blocks_lane2", 416, 32},
    {"FECCorrectableBlockCtrLane3", "fec_correctable_blocks_lane3", 448, 32},
    {"FECCorrectableBlockCtrLane4", "fec_correctable_blocks_lane4", 480, 32},
    {"FECCorrectableBlockCtrLane5", "fec_correctable_blocks_lane5", 512, 32},
    {"FECCorrectableBlockCtrLane6", "fec_correctable_blocks_lane6", 544, 32},
    {"FECCorrectableBlockCtrLane7", "fec_correctable_blocks_lane7", 576, 32},
    {"FECCorrectableBlockCtrLane8", "fec_correctable_blocks_lane8", 608, 32},
    {"FECCorrectableBlockCtrLane9", "fec_correctable_blocks_lane9", 640, 32},
    {"FECCorrectableBlockCtrLane10", "fec_correctable_blocks_lane10", 672, 32},
    {"FECCorrectableBlockCtrLane11", "fec_correctable_blocks_lane11", 704, 32},
    {"FECUncorrectableBlockCtrLane0", "fec_uncorrectable_blocks_lane0", 736, 32},
    {"FECUncorrectableBlockCtrLane1", "fec_uncorrectable_blocks_lane1", 768, 32},
    {"FECUncorrectableBlockCtrLane2", "fec_uncorrectable_blocks_lane2", 800, 32},
    {"FECUncorrectableBlockCtrLane3", "fec_uncorrectable_blocks_lane3", 832, 32},
    {"FECUncorrectableBlockCtrLane4", "fec_uncorrectable_blocks_lane4", 864, 32},
    {"FECUncorrectableBlockCtrLane5", "fec_uncorrectable_blocks_lane5", 896, 32},
    {"FECUncorrectableBlockCtrLane6", "fec_uncorrectable_blocks_lane6", 928, 32},
    {"FECUncorrectableBlockCtrLane7", "fec_uncorrectable_blocks_lane7", 960, 32},
    {"FECUncorrectableBlockCtrLane8", "fec_uncorrectable_blocks_lane8", 992, 32},
    {"FECUncorrectableBlockCtrLane9", "fec_uncorrectable_blocks_lane9", 1024, 32},
    {"FECUncorrectableBlockCtrLane10", "fec_uncorrectable_blocks_lane10", 1056, 32},
    {"FECUncorrectableBlockCtrLane11", "fec_uncorrectable_blocks_lane11", 1088, 32},
};

constexpr FieldDef kPortExtendedSpeedsRsFecCountersFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 64, 64, Fmt::Hex, kDetail},
    {"SyncHeaderErrorCounter", "sync_header_errors", 128, 16},
    {"UnknownBlockCounter", "unknown_blocks", 144, 16},
    {"FECCorrectableSymbolCtrLane0", "fec_correctable_symbols_lane0", 352, 32},
    {"FECCorrectableSymbolCtrLane1", "fec_correctable_symbols_lane1", 384, 32},
    {"FECCorrectableSymbolCtrLane2", "fec_correctable_symbols_lane2", 416, 32},
    {"FECCorrectableSymbolCtrLane3", "fec_correctable_symbols_lane3", 448, 32},
    {"FECCorrectableSymbolCtrLane4", "fec_correctable_symbols_lane4", 480, 32},
    {"FECCorrectableSymbolCtrLane5", "fec_correctable_symbols_lane5", 512, 32},
    {"FECCorrectableSymbolCtrLane6", "fec_correctable_symbols_lane6", 544, 32},
    {"FECCorrectableSymbolCtrLane7", "fec_correctable_symbols_lane7", 576, 32},
    {"FECCorrectableSymbolCtrLane8", "fec_correctable_symbols_lane8", 608, 32},
    {"FECCorrectableSymbolCtrLane9", "fec_correctable_symbols_lane9", 640, 32},
    {"FECCorrectableSymbolCtrLane10", "fec_correctable_symbols_lane10", 672, 32},
    {"FECCorrectableSymbolCtrLane11", "fec_correctable_symbols_lane11", 704, 32},
    {"PortFECCorrectableBlockCtr", "fec_correctable_blocks", 1120, 32},
    {"PortFECUncorrectableBlockCtr", "fec_uncorrectable_blocks", 1152, 32},
    {"PortFECCorrectedSymbolCtr", "fec_corrected_symbols", 1184, 32},
};

// A sampling set-up, not counters: masks and selects in hex as perfquery -c
// prints them.
constexpr FieldDef kPortSamplesControlFields[] = {
    {"OpCode", "op_code", 0, 8, Fmt::Hex, kDetail},
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"Tick", "tick", 16, 8, Fmt::Hex},
    {"CounterWidth", "counter_width", 29, 3},
    {"CounterMask0", "counter_mask0", 34, 3, Fmt::Hex},
    {"CounterMasks1to9", "counter_masks1to9", 37, 27, Fmt::Hex},
    {"CounterMasks10to14", "counter_masks10to14", 65, 15, Fmt::Hex},
    {"SampleMechanisms", "sample_mechanisms", 80, 8},
    {"SampleStatus", "sample_status", 94, 2},
    {"OptionMask", "option_mask", 96, 64, Fmt::Hex},
    {"VendorMask", "vendor_mask", 160, 64, Fmt::Hex},
    {"SampleStart", "sample_start", 224, 32},
    {"SampleInterval", "sample_interval", 256, 32},
    {"Tag", "tag", 288, 16, Fmt::Hex},
    {"CounterSelect0", "counter_select0", 304, 16, Fmt::Hex},
    {"CounterSelect1", "counter_select1", 320, 16, Fmt::Hex},
    {"CounterSelect2", "counter_select2", 336, 16, Fmt::Hex},
    {"CounterSelect3", "counter_select3", 352, 16, Fmt::Hex},
    {"CounterSelect4", "counter_select4", 368, 16, Fmt::Hex},
    {"CounterSelect5", "counter_select5", 384, 16, Fmt::Hex},
    {"CounterSelect6", "counter_select6", 400, 16, Fmt::Hex},
    {"CounterSelect7", "counter_select7", 416, 16, Fmt::Hex},
    {"CounterSelect8", "counter_select8", 432, 16, Fmt::Hex},
    {"CounterSelect9", "counter_select9", 448, 16, Fmt::Hex},
    {"CounterSelect10", "counter_select10", 464, 16, Fmt::Hex},
    {"CounterSelect11", "counter_select11", 480, 16, Fmt::Hex},
    {"CounterSelect12", "counter_select12", 496, 16, Fmt::Hex},
    {"CounterSelect13", "counter_select13", 512, 16, Fmt::Hex},
    {"CounterSelect14", "counter_select14", 528, 16, Fmt::Hex},
    {"SamplesOnlyOptionMask", "samples_only_option_mask", 576, 64, Fmt::Hex},
};

}  // namespace

const AttrDef kPortExtendedSpeedsCounters{"PortExtendedSpeedsCounters", 0x001f, kClassPerf, 140,
                                          kPortExtendedSpeedsCountersFields};
const AttrDef kPortExtendedSpeedsRsFecCounters{"PortExtendedSpeedsCounters (RS-FEC)", 0x001f,
                                               kClassPerf, 152,
                                               kPortExtendedSpeedsRsFecCountersFields};
const AttrDef kPortSamplesControl{"PortSamplesControl", 0x0010, kClassPerf, 80,
                                  kPortSamplesControlFields};

bool rs_fec_active(std::span<const uint8_t> port_info_ext) {
  uint64_t caps = get_field(kPortInfoExtended, port_info_ext, "CapabilityMask");
  uint64_t mode = get_field(kPortInfoExtended, port_info_ext, "FECModeActive");
  return (caps & kPortInfoExtCapFecMode) && (mode == kFecModeRs || mode == kFecModeRs2);
}

}  // namespace rdma::mad
