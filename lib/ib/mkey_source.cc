#include "lib/ib/mkey_source.h"

#include <vector>

#include "lib/mad/attrs.h"

namespace rdma::ib {

void MkeySource::set_local(uint16_t lid, uint8_t port, uint64_t port_guid) {
  local_lid_ = lid;
  local_port_ = port;
  local_guid_ = port_guid;
  if (lid && port_guid) by_lid_.emplace(lid, port_guid);
}

void MkeySource::learn_link(uint16_t from_lid, uint8_t from_port, uint16_t to_lid) {
  links_[{from_lid, from_port}] = to_lid;
}

std::string MkeySource::where(const mad::Mad& smp, const mad::Address& to) {
  if (smp.mgmt_class() != mad::kClassSmiDr) return "lid " + std::to_string(to.lid);
  std::span<const uint8_t> path = smp.dr_path();
  std::string s;
  // A combined route (its DrSLID not permissive) goes by LID first.
  if (smp.get(mad::hdr::kDrSlid) != mad::kPermissiveLid) s = "lid " + std::to_string(to.lid) + " ";
  s += "dr ";
  for (size_t i = 0; i < path.size(); ++i) s += (i ? "," : "") + std::to_string(path[i]);
  if (path.empty()) s += "0";
  return s;
}

std::optional<uint64_t> MkeySource::guid_of_path(std::span<const uint8_t> path) const {
  if (path.empty()) return local_guid_ ? std::optional(local_guid_) : std::nullopt;
  uint16_t at = local_lid_;
  for (uint8_t port : path) {
    auto next = links_.find({at, port});
    if (next == links_.end()) return std::nullopt;
    at = next->second;
  }
  auto guid = by_lid_.find(at);
  if (guid == by_lid_.end()) return std::nullopt;
  return guid->second;
}

std::optional<uint64_t> MkeySource::guid_at(const std::string& where) const {
  if (auto it = learned_.find(where); it != learned_.end()) return it->second;
  if (where.rfind("lid ", 0) == 0) {
    if (where.find(" dr ") != std::string::npos) return std::nullopt;  // combined: heard only
    auto it = by_lid_.find(static_cast<uint16_t>(std::stoul(where.substr(4))));
    if (it == by_lid_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<uint8_t> path;
  if (where != "dr 0") {
    size_t i = 3;
    while (i < where.size()) {
      size_t comma = where.find(',', i);
      if (comma == std::string::npos) comma = where.size();
      path.push_back(static_cast<uint8_t>(std::stoul(where.substr(i, comma - i))));
      i = comma + 1;
    }
  }
  return guid_of_path(path);
}

uint64_t MkeySource::key_for(const std::string& where) const {
  if (auto it = set_at_.find(where); it != set_at_.end()) return it->second;
  if (by_guid_.empty()) return key_;
  std::optional<uint64_t> guid = guid_at(where);
  if (!guid) return key_;
  auto key = by_guid_.find(*guid);
  return key == by_guid_.end() ? key_ : key->second;
}

void MkeySource::heard(const std::string& where, const mad::Mad& request,
                       std::span<const uint8_t> reply) {
  if (request.get(mad::hdr::kAttrId) != mad::kNodeInfo.id ||
      request.get(mad::hdr::kMethod) != mad::kGet)
    return;
  mad::Mad answer;
  if (mad::verify_reply(request, reply, "NodeInfo", answer)) return;
  uint64_t guid = mad::get_field(mad::kNodeInfo, answer.data(), "PortGUID");
  if (guid) learned_[where] = guid;
}

}  // namespace rdma::ib
