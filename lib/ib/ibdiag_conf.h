// infiniband-diags' site settings, /etc/infiniband-diags/ibdiag.conf (read
// by every diags tool before its options: read_ibdiag_config in
// ibdiag_common.c): NAME=VALUE lines, '#' comments. rdma takes the ones it
// has a meaning for, so a site that set them once gets them here too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdma::ib {

inline constexpr const char* kSiteIbdiagConf = "/etc/infiniband-diags/ibdiag.conf";

struct IbdiagConf {
  std::optional<std::string> ca;       // CA=: the local device MADs leave from
  std::optional<uint32_t> port;        // Port=: its port (taken with CA only)
  std::optional<uint32_t> timeout_ms;  // timeout=: per MAD, as --timeout
  std::optional<uint64_t> mkey;        // m_key=: as --mkey
  // The names the diags know and rdma does not use (MLX_EPI, sa_key,
  // nd_format), as "NAME" once each, for -d.
  std::vector<std::string> unused;
  // "FILE:LINE: ..." for a value that is not one (the diags' strtoul took
  // it as 0 or its leading digits; rdma keeps the default and says so).
  std::vector<std::string> warnings;
};

// The settings of path. A file that does not exist gives none, as the diags
// (silently); with must_exist (the file named by --config) it is an Error,
// as is a file that exists and cannot be read.
IbdiagConf read_ibdiag_conf(const std::string& path, bool must_exist = false);

// The settings of text (the file's contents), read as path says.
IbdiagConf parse_ibdiag_conf(const std::string& text, const std::string& path);

}  // namespace rdma::ib
