// A full-screen view's terminal (fabric top): its size, keys as they are
// typed, and frames drawn over the last one. A seam: the real one puts the
// controlling terminal in raw mode on the alternate screen; tests give
// keys and read frames.
#pragma once

#include <string>
#include <string_view>

namespace rdma {

class Terminal {
 public:
  virtual ~Terminal() = default;
  // Rows and columns now (a resize shows on the next call).
  virtual void size(int& rows, int& cols) = 0;
  // The next key typed within timeout_ms, or -1 when none was.
  virtual int key(int timeout_ms) = 0;
  // Draws a frame: lines from the top left, the rest of the screen cleared.
  virtual void draw(std::string_view frame) = 0;
};

// The terminal on standard input and output: raw mode (no echo, keys one
// at a time, Ctrl-C a key rather than a signal, so the screen is always
// restored), the alternate screen and no cursor until destroyed. Error when
// they are not a terminal.
class TtyTerminal : public Terminal {
 public:
  TtyTerminal();
  ~TtyTerminal() override;
  TtyTerminal(const TtyTerminal&) = delete;
  TtyTerminal& operator=(const TtyTerminal&) = delete;
  void size(int& rows, int& cols) override;
  int key(int timeout_ms) override;
  void draw(std::string_view frame) override;

 private:
  struct Saved;
  Saved* saved_;
};

}  // namespace rdma
