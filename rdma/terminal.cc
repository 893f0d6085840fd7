#include "rdma/terminal.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"

namespace rdma {

struct TtyTerminal::Saved {
  termios mode;
};

namespace {

void write_all(std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(STDOUT_FILENO, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the terminal went away: nothing left to show
    s.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

TtyTerminal::TtyTerminal() : saved_(new Saved) {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || tcgetattr(STDIN_FILENO, &saved_->mode)) {
    delete saved_;
    throw Error("a full-screen view needs a terminal on standard input and output");
  }
  termios raw = saved_->mode;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO | ISIG | IEXTEN);
  raw.c_iflag &= ~static_cast<tcflag_t>(IXON | ICRNL);
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
  // The alternate screen (the shell's screen comes back at the end), no cursor.
  write_all("\x1b[?1049h\x1b[?25l");
}

TtyTerminal::~TtyTerminal() {
  write_all("\x1b[?25h\x1b[?1049l");
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_->mode);
  delete saved_;
}

void TtyTerminal::size(int& rows, int& cols) {
  winsize w{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_row && w.ws_col) {
    rows = w.ws_row;
    cols = w.ws_col;
  } else {
    rows = 24;
    cols = 80;
  }
}

int TtyTerminal::key(int timeout_ms) {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return -1;
  unsigned char ch;
  if (::read(STDIN_FILENO, &ch, 1) != 1) return -1;
  return ch;
}

void TtyTerminal::draw(std::string_view frame) {
  // One write: the cursor home, each line cleared to its end, the rest of
  // the screen cleared, so the old frame never shows through (no flicker).
  std::string out = "\x1b[H";
  size_t at = 0;
  while (at < frame.size()) {
    size_t nl = frame.find('\n', at);
    if (nl == std::string_view::npos) nl = frame.size();
    out.append(frame.substr(at, nl - at));
    out += "\x1b[K";
    if (nl < frame.size()) out += "\r\n";
    at = nl + 1;
  }
  out += "\x1b[J";
  write_all(out);
}

}  // namespace rdma
