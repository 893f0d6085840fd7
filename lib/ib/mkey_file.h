// A site's M_Keys by port GUID, as opensm writes them for an M_Key
// protected fabric (its guid2mkey file, m_key_lookup): one "GUID MKEY"
// line a port, numbers as strtoull(s, NULL, 0) reads them, '#' comments
// and blank lines. The keys are secrets: nothing here prints one.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace rdma::ib {

using MkeysByGuid = std::map<uint64_t, uint64_t>;  // port GUID -> M_Key

// The keys of text (the file's contents). Strict: a line that is not two
// numbers, a GUID of 0 or a GUID given twice is an Error naming
// "path:LINE" (a wrong key would be sent silently otherwise, and a port
// with M_Key protection ignores SMPs that carry one).
MkeysByGuid parse_mkey_file(const std::string& text, const std::string& path);

// The keys in the file at path; Error when it cannot be read.
MkeysByGuid read_mkey_file(const std::string& path);

}  // namespace rdma::ib
