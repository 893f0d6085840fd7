#include "lib/mad/umad_lib.h"

#include <string>

#include "lib/dl/dl.h"
#include "lib/error.h"

namespace rdma::mad {

namespace {

template <typename F>
void resolve(void* handle, const char* soname, const char* symbol, F& out) {
  void* p = dl::sym(handle, symbol);
  if (!p) throw Error(std::string("cannot use ") + soname + ": it has no " + symbol);
  out = reinterpret_cast<F>(p);
}

}  // namespace

UmadLib load_umad_lib(const char* soname) {
  std::string why;
  void* h = dl::open(soname, &why);
  if (!h)
    throw Error(std::string("cannot load ") + soname +
                " (InfiniBand management needs libibumad3): " + why);
  UmadLib l{};
  resolve(h, soname, "umad_init", l.init);
  resolve(h, soname, "umad_done", l.done);
  resolve(h, soname, "umad_get_cas_names", l.get_cas_names);
  resolve(h, soname, "umad_get_ca", l.get_ca);
  resolve(h, soname, "umad_release_ca", l.release_ca);
  resolve(h, soname, "umad_open_port", l.open_port);
  resolve(h, soname, "umad_close_port", l.close_port);
  resolve(h, soname, "umad_register", l.register_agent);
  resolve(h, soname, "umad_unregister", l.unregister);
  resolve(h, soname, "umad_get_fd", l.get_fd);
  resolve(h, soname, "umad_size", l.size);
  resolve(h, soname, "umad_get_mad", l.get_mad);
  resolve(h, soname, "umad_set_addr", l.set_addr);
  resolve(h, soname, "umad_set_pkey", l.set_pkey);
  resolve(h, soname, "umad_send", l.send);
  resolve(h, soname, "umad_recv", l.recv);
  resolve(h, soname, "umad_status", l.status);
  resolve(h, soname, "umad_get_mad_addr", l.get_mad_addr);
  // Never dlclose'd: the process ends soon after its MAD command.
  return l;
}

const UmadLib& umad_lib() {
  static const UmadLib lib = load_umad_lib(kUmadSoname);
  return lib;
}

}  // namespace rdma::mad
