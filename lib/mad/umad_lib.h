// libibumad, loaded with dlopen the first time a MAD command needs it: the
// netlink commands (rdma dev, rdma link, ...) never map it, which is part of
// their start-up time (bench/startup_results.md). Only umad_transport.cc and
// umad_devices.cc call it.
#pragma once

#include <infiniband/umad.h>

namespace rdma::mad {

// libibumad's entry points that the tool uses, with their own signatures.
struct UmadLib {
  decltype(&::umad_init) init;
  decltype(&::umad_done) done;
  decltype(&::umad_get_cas_names) get_cas_names;
  decltype(&::umad_get_ca) get_ca;
  decltype(&::umad_release_ca) release_ca;
  decltype(&::umad_open_port) open_port;
  decltype(&::umad_close_port) close_port;
  decltype(&::umad_register) register_agent;
  // Vendor classes of range 2 (0x30-0x4f): the kernel takes them only with
  // an OUI, and hands an agent requests only for the methods in its mask.
  decltype(&::umad_register_oui) register_oui;
  decltype(&::umad_unregister) unregister;
  decltype(&::umad_get_fd) get_fd;
  decltype(&::umad_size) size;
  decltype(&::umad_get_mad) get_mad;
  decltype(&::umad_set_addr) set_addr;
  decltype(&::umad_set_pkey) set_pkey;
  decltype(&::umad_send) send;
  decltype(&::umad_recv) recv;
  decltype(&::umad_status) status;
  decltype(&::umad_get_mad_addr) get_mad_addr;
};

// The soname loaded: the ABI the header above describes (package libibumad3).
inline constexpr const char* kUmadSoname = "libibumad.so.3";

// The loaded library; loads it on the first call. Throws Error (naming the
// library and why) when it is missing or lacks a symbol.
const UmadLib& umad_lib();

// Loads `soname` and resolves every entry point (umad_lib() uses kUmadSoname;
// tests pass a missing one). Throws Error.
UmadLib load_umad_lib(const char* soname);

}  // namespace rdma::mad
