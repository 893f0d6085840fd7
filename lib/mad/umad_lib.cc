#include "lib/mad/umad_lib.h"

#include <string>

#include "lib/dl/dl.h"
#include "lib/error.h"

namespace rdma::mad {

UmadLib load_umad_lib(const char* soname) {
  std::string why;
  void* h = dl::open(soname, &why);
  if (!h)
    throw Error(std::string("cannot load ") + soname +
                " (InfiniBand management needs libibumad3): " + why);
  UmadLib l{};
  dl::bind(h, soname, "umad_init", l.init);
  dl::bind(h, soname, "umad_done", l.done);
  dl::bind(h, soname, "umad_get_cas_names", l.get_cas_names);
  dl::bind(h, soname, "umad_get_ca", l.get_ca);
  dl::bind(h, soname, "umad_release_ca", l.release_ca);
  dl::bind(h, soname, "umad_open_port", l.open_port);
  dl::bind(h, soname, "umad_close_port", l.close_port);
  dl::bind(h, soname, "umad_register", l.register_agent);
  dl::bind(h, soname, "umad_register_oui", l.register_oui);
  dl::bind(h, soname, "umad_unregister", l.unregister);
  dl::bind(h, soname, "umad_get_fd", l.get_fd);
  dl::bind(h, soname, "umad_size", l.size);
  dl::bind(h, soname, "umad_get_mad", l.get_mad);
  dl::bind(h, soname, "umad_set_addr", l.set_addr);
  dl::bind(h, soname, "umad_set_pkey", l.set_pkey);
  dl::bind(h, soname, "umad_send", l.send);
  dl::bind(h, soname, "umad_recv", l.recv);
  dl::bind(h, soname, "umad_status", l.status);
  dl::bind(h, soname, "umad_get_mad_addr", l.get_mad_addr);
  // Never dlclose'd: the process ends soon after its MAD command.
  return l;
}

const UmadLib& umad_lib() {
  static const UmadLib lib = load_umad_lib(kUmadSoname);
  return lib;
}

}  // namespace rdma::mad
