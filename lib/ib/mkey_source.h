// The one place that chooses the M_Key an SMP carries (IBA 14.2.4): the
// key of the port the SMP ends at, by its port GUID (opensm's guid2mkey:
// lib/ib/mkey_file.h), else the single key (-y). A port's GUID is known
// when its NodeInfo answered (heard), for the local port, or from the SA's
// NodeRecords and LinkRecords (learn_lid, learn_link): a port whose
// protection drops every Get without its key (Linux's SMAs drop NodeInfo
// too) can only be keyed by a GUID known before it is asked, as opensm
// keys such ports from its saved neighbors.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "lib/ib/mkey_file.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

class MkeySource {
 public:
  void set_key(uint64_t key) { key_ = key; }
  void set_keys(MkeysByGuid by_guid) { by_guid_ = std::move(by_guid); }
  bool by_guid() const { return !by_guid_.empty(); }
  // Whether an SMP's key depends on where it goes (a key file, or a Set
  // that changed a port's key): when not, every SMP carries key() and
  // its route need not be spelled out (MkeyTransport, per SMP).
  bool per_route() const { return !by_guid_.empty() || !set_at_.empty(); }
  uint64_t key() const { return key_; }
  // The key of the port at where from now on (a Set that changed it).
  void set_key_at(const std::string& where, uint64_t key) { set_at_[where] = key; }
  // The local port: hop 0 of a directed route, and the first link's end.
  void set_local(uint16_t lid, uint8_t port, uint64_t port_guid);
  // What the SA knows: the port GUID of a LID; the LID at the far end of
  // a node's port.
  void learn_lid(uint16_t lid, uint64_t port_guid) { by_lid_[lid] = port_guid; }
  void learn_link(uint16_t from_lid, uint8_t from_port, uint16_t to_lid);
  bool knows_links() const { return !links_.empty(); }

  // Where an SMP goes, as a text key ("lid 4", "dr 1,3", "lid 4 dr 2").
  static std::string where(const mad::Mad& smp, const mad::Address& to);
  // The port GUID at where, when known.
  std::optional<uint64_t> guid_at(const std::string& where) const;
  // The key an SMP to where carries.
  uint64_t key_for(const std::string& where) const;
  // A reply to an SMP sent to where: a NodeInfo answer tells the port
  // GUID there (the port the SMP arrived by; a switch's port 0).
  void heard(const std::string& where, const mad::Mad& request, std::span<const uint8_t> reply);

 private:
  std::optional<uint64_t> guid_of_path(std::span<const uint8_t> path) const;

  uint64_t key_ = 0;
  MkeysByGuid by_guid_;
  std::map<std::string, uint64_t> set_at_;                  // where -> key a Set gave it
  std::map<std::string, uint64_t> learned_;                 // where -> port GUID (NodeInfo)
  std::map<uint16_t, uint64_t> by_lid_;                     // LID -> port GUID (SA)
  std::map<std::pair<uint16_t, uint8_t>, uint16_t> links_;  // (LID, port) -> LID
  uint16_t local_lid_ = 0;
  uint8_t local_port_ = 0;
  uint64_t local_guid_ = 0;
};

}  // namespace rdma::ib
