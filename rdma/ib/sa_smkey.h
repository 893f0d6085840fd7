// `smkey x`: the SA's SM_Key read from the terminal, not the command line
// (where ps and the shell's history would show it), as saquery --smkey x.
#pragma once

#include <string>
#include <string_view>

namespace rdma {

// Writes prompt to out, reads one line from in and returns it without its
// newline. When in is a terminal its echo is off while the line is typed
// (restored after, and a newline written for the one not echoed). Throws
// Error when nothing can be read (end of file before a line).
std::string read_secret(int in, int out, std::string_view prompt);

// read_secret on the controlling terminal (/dev/tty). Throws Error when
// there is none.
std::string read_secret_from_tty(std::string_view prompt);

}  // namespace rdma
