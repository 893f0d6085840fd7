// Offsets in bits from the start of the attribute's data, as IBA annex A10
// (and libibmad's fields.c) give them.
#include "lib/mad/attrs_cc.h"

#include <strings.h>

#include "lib/mad/attrs.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kCongestionInfoFields[] = {
    {"CongestionInfo", "congestion_info", 0, 16, Fmt::Hex},
    {"ControlTableCap", "control_table_cap", 16, 8},
};

constexpr FieldDef kCongestionKeyInfoFields[] = {
    {"CC_Key", "cc_key", 0, 64, Fmt::Key},
    {"CC_KeyProtectBit", "cc_key_protect", 64, 1},
    {"CC_KeyLeasePeriod", "cc_key_lease_period", 80, 16},
    {"CC_KeyViolations", "cc_key_violations", 96, 16},
};

// From byte 32 of the MAD: 15 events of 12 bytes at byte 40.
constexpr FieldDef kCongestionLogSwitchFields[] = {
    {"LogType", "log_type", 0, 8},
    {"CongestionFlags", "congestion_flags", 8, 8, Fmt::Hex},
    {"LogEventsCounter", "log_events", 16, 16},
    {"CurrentTimeStamp", "current_timestamp", 32, 32},
    {"PortMap", "port_map", 64, 32, Fmt::Hex, kShow, 8},
    {"SLID", "event_slid", 320, 16, Fmt::Uint, kShow, 15, 96},
    {"DLID", "event_dlid", 336, 16, Fmt::Uint, kShow, 15, 96},
    {"SL", "event_sl", 352, 4, Fmt::Uint, kShow, 15, 96},
    {"Timestamp", "event_timestamp", 384, 32, Fmt::Uint, kShow, 15, 96},
};

// From byte 32 of the MAD: 13 events of 16 bytes at byte 12 (ibccquery's
// reading of the errata).
constexpr FieldDef kCongestionLogCaFields[] = {
    {"LogType", "log_type", 0, 8},
    {"CongestionFlags", "congestion_flags", 8, 8, Fmt::Hex},
    {"ThresholdEventCounter", "threshold_events", 16, 16},
    {"ThresholdCongestionEventMap", "threshold_event_map", 32, 16, Fmt::Hex},
    {"CurrentTimeStamp", "current_timestamp", 64, 32},
    {"Local_QP_CN_Entry", "event_local_qp", 96, 24, Fmt::Uint, kShow, 13, 128},
    {"SL_CN_Entry", "event_sl", 120, 4, Fmt::Uint, kShow, 13, 128},
    {"Service_Type_CN_Entry", "event_service_type", 124, 4, Fmt::Hex, kShow, 13, 128},
    {"Remote_QP_Number_CN_Entry", "event_remote_qp", 128, 24, Fmt::Uint, kShow, 13, 128},
    {"Local_LID_CN", "event_local_lid", 160, 16, Fmt::Uint, kShow, 13, 128},
    {"Remote_LID_CN_Entry", "event_remote_lid", 176, 16, Fmt::Uint, kShow, 13, 128},
    {"Timestamp_CN_Entry", "event_timestamp", 192, 32, Fmt::Uint, kShow, 13, 128},
};

constexpr FieldDef kSwitchCongestionSettingFields[] = {
    {"Control_Map", "control_map", 0, 32, Fmt::Hex},
    {"Victim_Mask", "victim_mask", 32, 32, Fmt::Hex, kShow, 8},
    {"Credit_Mask", "credit_mask", 288, 32, Fmt::Hex, kShow, 8},
    {"Threshold", "threshold", 544, 4, Fmt::Hex},
    {"Packet_Size", "packet_size", 552, 8},
    {"CS_Threshold", "cs_threshold", 560, 4, Fmt::Hex},
    {"CS_ReturnDelay", "cs_return_delay", 576, 16, Fmt::Hex},
    {"Marking_Rate", "marking_rate", 592, 16},
};

constexpr FieldDef kSwitchPortCongestionSettingFields[] = {
    {"Valid", "valid", 0, 1, Fmt::Uint, kShow, 48, 32},
    {"Control_Type", "control_type", 1, 1, Fmt::Uint, kShow, 48, 32},
    {"Threshold", "threshold", 4, 4, Fmt::Hex, kShow, 48, 32},
    {"Packet_Size", "packet_size", 8, 8, Fmt::Uint, kShow, 48, 32},
    {"Cong_Parm_Marking_Rate", "marking_rate", 16, 16, Fmt::Uint, kShow, 48, 32},
};

constexpr FieldDef kCACongestionSettingFields[] = {
    {"Port_Control", "port_control", 0, 16, Fmt::Hex},
    {"Control_Map", "control_map", 16, 16, Fmt::Hex},
    {"CCTI_Timer", "ccti_timer", 32, 16, Fmt::Uint, kShow, 16, 64},
    {"CCTI_Increase", "ccti_increase", 48, 8, Fmt::Uint, kShow, 16, 64},
    {"Trigger_Threshold", "trigger_threshold", 56, 8, Fmt::Uint, kShow, 16, 64},
    {"CCTI_Min", "ccti_min", 64, 8, Fmt::Uint, kShow, 16, 64},
};

constexpr FieldDef kCongestionControlTableFields[] = {
    {"CCTI_Limit", "ccti_limit", 0, 16},
    {"CCT_Shift", "cct_shift", 32, 2, Fmt::Uint, kShow, 64, 16},
    {"CCT_Multiplier", "cct_multiplier", 34, 14, Fmt::Uint, kShow, 64, 16},
};

constexpr FieldDef kTimestampFields[] = {{"Timestamp", "timestamp", 0, 32}};

}  // namespace

const AttrDef kCongestionInfo{"CongestionInfo", 0x0011, kClassCc, 4, kCongestionInfoFields};
const AttrDef kCongestionKeyInfo{"CongestionKeyInfo", 0x0012, kClassCc, 16,
                                 kCongestionKeyInfoFields};
const AttrDef kCongestionLogSwitch{"CongestionLog", 0x0013, kClassCc, 220,
                                   kCongestionLogSwitchFields};
const AttrDef kCongestionLogCa{"CongestionLog", 0x0013, kClassCc, 220, kCongestionLogCaFields};
const AttrDef kSwitchCongestionSetting{"SwitchCongestionSetting", 0x0014, kClassCc, 76,
                                       kSwitchCongestionSettingFields};
const AttrDef kSwitchPortCongestionSetting{"SwitchPortCongestionSetting", 0x0015, kClassCc, 192,
                                           kSwitchPortCongestionSettingFields};
const AttrDef kCACongestionSetting{"CACongestionSetting", 0x0016, kClassCc, 132,
                                   kCACongestionSettingFields};
const AttrDef kCongestionControlTable{"CongestionControlTable", 0x0017, kClassCc, 132,
                                      kCongestionControlTableFields};
const AttrDef kTimestamp{"Timestamp", 0x0018, kClassCc, 4, kTimestampFields};

size_t cc_data_offset(uint16_t attr_id) {
  return attr_id == kCongestionLogSwitch.id ? 32 : 64;
}

std::span<const AttrDef* const> cc_attrs() {
  static constexpr const AttrDef* kAll[] = {
      &kCongestionInfo, &kCongestionKeyInfo, &kCongestionLogSwitch, &kSwitchCongestionSetting,
      &kSwitchPortCongestionSetting, &kCACongestionSetting, &kCongestionControlTable, &kTimestamp,
      // The class's own, at the data's
      // place in a CC MAD (byte 64).
      &kClassPortInfo};
  return kAll;
}

const AttrDef* find_cc_attr(std::string_view word) {
  static constexpr const char* kCodes[] = {"CI", "CK", "CL", "SS", "SP", "CS", "CT", "TI", "CP"};
  auto blind = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
  };
  std::span<const AttrDef* const> all = cc_attrs();
  for (size_t i = 0; i < all.size(); ++i)
    if (blind(word, kCodes[i]) || blind(word, all[i]->name)) return all[i];
  if (word.empty()) return nullptr;
  for (const AttrDef* a : all)
    if (word.size() <= std::string_view(a->name).size() &&
        blind(word, std::string_view(a->name).substr(0, word.size())))
      return a;
  return nullptr;
}

}  // namespace rdma::mad
