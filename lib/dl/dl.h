// Loading the libraries only some commands use (libibumad for the MAD
// commands, libibverbs for the verbs views), so that the others never map
// them. Two builds of this seam, chosen when linking:
//   dlopen.cc  the dynamically linked rdma: dlopen, as usual.
//   reexec.cc  the statically linked front end (RDMA_STATIC_FRONTEND): a
//              static program cannot load shared libraries (nor be
//              LD_PRELOADed), so it replaces itself with the dynamic build
//              of the same tool (rdma-dynamic), same arguments, same
//              environment, which then loads the library. A static start is
//              what makes `rdma dev` fast under emulation (issue 16,
//              bench/startup_results.md).
// No command prints before it loads its library, so the exec loses nothing.
#pragma once

#include <string>
#include <vector>

namespace rdma::dl {

// The command line, for reexec.cc's exec (main sets it; dlopen.cc ignores it).
void set_argv(std::vector<char*> argv);

// A handle for soname, or nullptr with *why set.
void* open(const char* soname, std::string* why);
void* sym(void* handle, const char* name);

// Batch files: the static front end becomes the dynamic build before the
// first line, because a later line may need a library and the output of
// the earlier ones cannot be taken back. Returns at once in the dynamic
// build; in the static one only when the dynamic build cannot be run (the
// lines that need a library then fail on their own, saying why).
void become_dynamic();

}  // namespace rdma::dl
