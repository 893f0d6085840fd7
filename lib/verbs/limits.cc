#include "lib/verbs/limits.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "lib/verbs/names.h"
#include "lib/view/fields.h"

namespace rdma::verbs {

namespace {

std::string hex(const char* fmt, uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The text of a JSON value: numbers and strings as they are, flag lists as
// "<A, B>", groups as "key value ..." pairs.
std::string text_of(const view::Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) return flag_text(v);
  if (v.is_object()) {
    std::string s;
    for (const auto& [k, x] : v.items()) s += (s.empty() ? "" : " ") + k + " " + text_of(x);
    return s;
  }
  return v.dump();
}

class Builder {
 public:
  explicit Builder(view::Record& r) : r_(r) {}
  void add(const char* key, view::Json v) {
    std::string text = std::string("\n    ") + key + " " + text_of(v);
    r_.add(key, text, std::move(v));
  }

 private:
  view::Record& r_;
};

view::Json qpts(uint32_t v) {
  return flag_names(v, kSupportedQpts);
}

}  // namespace

void limits_record(const std::string& dev, Device& d, view::Record& out) {
  ibv_device_attr_ex x = d.query_device();
  const ibv_device_attr& a = x.orig_attr;
  out.clear();
  out.add("dev", "dev " + dev, dev);
  Builder b(out);
  b.add("transport", transport_name(d.transport()));
  if (a.fw_ver[0]) b.add("fw_ver", std::string(a.fw_ver, strnlen(a.fw_ver, sizeof a.fw_ver)));
  b.add("node_guid", view::guid_colons(be64toh(a.node_guid)));
  b.add("sys_image_guid", view::guid_colons(be64toh(a.sys_image_guid)));
  b.add("vendor_id", hex("0x%04" PRIx64, a.vendor_id));
  b.add("vendor_part_id", a.vendor_part_id);
  b.add("hw_ver", hex("0x%" PRIX64, a.hw_ver));
  if (std::string id = d.board_id(); !id.empty()) b.add("board_id", id);
  b.add("phys_port_cnt", a.phys_port_cnt);
  b.add("max_mr_size", hex("0x%" PRIx64, a.max_mr_size));
  b.add("page_size_cap", hex("0x%" PRIx64, a.page_size_cap));
  b.add("max_qp", a.max_qp);
  b.add("max_qp_wr", a.max_qp_wr);
  b.add("device_cap_flags", flag_names(a.device_cap_flags, kDeviceCapFlags));
  b.add("max_sge", a.max_sge);
  b.add("max_sge_rd", a.max_sge_rd);
  b.add("max_cq", a.max_cq);
  b.add("max_cqe", a.max_cqe);
  b.add("max_mr", a.max_mr);
  b.add("max_pd", a.max_pd);
  b.add("max_qp_rd_atom", a.max_qp_rd_atom);
  b.add("max_ee_rd_atom", a.max_ee_rd_atom);
  b.add("max_res_rd_atom", a.max_res_rd_atom);
  b.add("max_qp_init_rd_atom", a.max_qp_init_rd_atom);
  b.add("max_ee_init_rd_atom", a.max_ee_init_rd_atom);
  b.add("atomic_cap", atomic_cap_name(a.atomic_cap));
  b.add("max_ee", a.max_ee);
  b.add("max_rdd", a.max_rdd);
  b.add("max_mw", a.max_mw);
  b.add("max_raw_ipv6_qp", a.max_raw_ipv6_qp);
  b.add("max_raw_ethy_qp", a.max_raw_ethy_qp);
  b.add("max_mcast_grp", a.max_mcast_grp);
  b.add("max_mcast_qp_attach", a.max_mcast_qp_attach);
  b.add("max_total_mcast_qp_attach", a.max_total_mcast_qp_attach);
  b.add("max_ah", a.max_ah);
  b.add("max_fmr", a.max_fmr);
  if (a.max_fmr) b.add("max_map_per_fmr", a.max_map_per_fmr);
  b.add("max_srq", a.max_srq);
  if (a.max_srq) {
    b.add("max_srq_wr", a.max_srq_wr);
    b.add("max_srq_sge", a.max_srq_sge);
  }
  b.add("max_pkeys", a.max_pkeys);
  b.add("local_ca_ack_delay", a.local_ca_ack_delay);
  // Extended attributes (ibv_query_device_ex): zero when the provider has
  // only the plain query. Absent where ibv_devinfo says "not supported".
  b.add("general_odp_caps", flag_names(x.odp_caps.general_caps, kOdpGeneralCaps));
  b.add("rc_odp_caps", flag_names(x.odp_caps.per_transport_caps.rc_odp_caps, kOdpTransportCaps));
  b.add("uc_odp_caps", flag_names(x.odp_caps.per_transport_caps.uc_odp_caps, kOdpTransportCaps));
  b.add("ud_odp_caps", flag_names(x.odp_caps.per_transport_caps.ud_odp_caps, kOdpTransportCaps));
  b.add("xrc_odp_caps", flag_names(x.xrc_odp_caps, kOdpTransportCaps));
  if (x.completion_timestamp_mask)
    b.add("completion_timestamp_mask", hex("0x%016" PRIx64, x.completion_timestamp_mask));
  if (x.hca_core_clock) b.add("hca_core_clock", x.hca_core_clock);  // kHz
  if (x.raw_packet_caps) b.add("raw_packet_caps", flag_names(x.raw_packet_caps, kRawPacketCaps));
  // The low 32 bits are device_cap_flags again.
  b.add("device_cap_flags_ex",
        flag_names(x.device_cap_flags_ex & 0xffffffff00000000ULL, kDeviceCapFlagsEx));
  view::Json tso = {{"max_tso", x.tso_caps.max_tso}};
  if (x.tso_caps.max_tso) tso["supported_qp"] = qpts(x.tso_caps.supported_qpts);
  b.add("tso_caps", std::move(tso));
  view::Json rss = {
      {"max_rwq_indirection_tables", x.rss_caps.max_rwq_indirection_tables},
      {"max_rwq_indirection_table_size", x.rss_caps.max_rwq_indirection_table_size},
      {"rx_hash_function", hex("0x%" PRIx64, x.rss_caps.rx_hash_function)},
      {"rx_hash_fields_mask", hex("0x%" PRIX64, x.rss_caps.rx_hash_fields_mask)},
  };
  if (x.rss_caps.supported_qpts) rss["supported_qp"] = qpts(x.rss_caps.supported_qpts);
  b.add("rss_caps", std::move(rss));
  b.add("max_wq_type_rq", x.max_wq_type_rq);
  view::Json pp = {{"qp_rate_limit_min", x.packet_pacing_caps.qp_rate_limit_min},
                   {"qp_rate_limit_max", x.packet_pacing_caps.qp_rate_limit_max}};
  if (x.packet_pacing_caps.qp_rate_limit_max)
    pp["supported_qp"] = qpts(x.packet_pacing_caps.supported_qpts);
  b.add("packet_pacing_caps", std::move(pp));  // kbps
  if (x.tm_caps.max_num_tags)
    b.add("tm_caps", {{"max_rndv_hdr_size", x.tm_caps.max_rndv_hdr_size},
                      {"max_num_tags", x.tm_caps.max_num_tags},
                      {"max_ops", x.tm_caps.max_ops},
                      {"max_sge", x.tm_caps.max_sge},
                      {"flags", flag_names(x.tm_caps.flags, kTmCaps)}});
  if (x.cq_mod_caps.max_cq_count && x.cq_mod_caps.max_cq_period)
    b.add("cq_moderation_caps", {{"max_cq_count", x.cq_mod_caps.max_cq_count},
                                 {"max_cq_period", x.cq_mod_caps.max_cq_period}});  // us
  if (x.max_dm_size) b.add("max_dm_size", x.max_dm_size);                           // bytes
  b.add("num_comp_vectors", d.num_comp_vectors());
}

}  // namespace rdma::verbs
