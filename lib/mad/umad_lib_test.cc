#include "lib/mad/umad_lib.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "lib/error.h"

namespace rdma::mad {
namespace {

TEST(UmadLib, LoadsEveryEntryPointOfTheInstalledLibrary) {
  const UmadLib& l = umad_lib();
  void* const fns[] = {
      reinterpret_cast<void*>(l.init),          reinterpret_cast<void*>(l.done),
      reinterpret_cast<void*>(l.get_cas_names), reinterpret_cast<void*>(l.get_ca),
      reinterpret_cast<void*>(l.release_ca),    reinterpret_cast<void*>(l.open_port),
      reinterpret_cast<void*>(l.close_port),    reinterpret_cast<void*>(l.register_agent),
      reinterpret_cast<void*>(l.unregister),    reinterpret_cast<void*>(l.get_fd),
      reinterpret_cast<void*>(l.size),          reinterpret_cast<void*>(l.get_mad),
      reinterpret_cast<void*>(l.set_addr),      reinterpret_cast<void*>(l.send),
      reinterpret_cast<void*>(l.recv),          reinterpret_cast<void*>(l.status),
      reinterpret_cast<void*>(l.get_mad_addr),  reinterpret_cast<void*>(l.set_pkey),
      reinterpret_cast<void*>(l.register_oui)};
  for (void* f : fns) EXPECT_NE(f, nullptr);
  // Real calls through the loaded library: the MAD starts right after the
  // header whose size umad_size() gives (umad_transport.cc sizes its
  // buffers so).
  alignas(8) uint8_t buf[512] = {};
  EXPECT_EQ(static_cast<uint8_t*>(l.get_mad(buf)), buf + l.size());
  EXPECT_GT(l.size(), 0u);
  // --pkey-idx: umad_set_pkey is there and takes the index (libibumad
  // stores it only once a port is open with the kernel's P_Key index ABI,
  // so where it lands is not seen here).
  EXPECT_EQ(l.set_pkey(buf, 3), 0);
  EXPECT_EQ(&umad_lib(), &l);  // loaded once
}

TEST(UmadLib, AMissingLibraryIsOneClearError) {
  try {
    load_umad_lib("libibumad-missing.so.99");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("cannot load libibumad-missing.so.99"), std::string::npos) << m;
    EXPECT_NE(m.find("libibumad3"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(UmadLib, ALibraryWithoutTheSymbolsIsOneClearError) {
  // libc is loaded and has none of libibumad's symbols.
  try {
    load_umad_lib("libc.so.6");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot use libc.so.6: it has no umad_init");
  }
}

}  // namespace
}  // namespace rdma::mad
