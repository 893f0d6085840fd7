#include "rdma/help.h"

#include <algorithm>
#include <sstream>

namespace rdma {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> t;
  std::istringstream in(line);
  for (std::string w; in >> w;) t.push_back(w);
  return t;
}

bool indented(const std::string& line) {
  return !line.empty() && (line[0] == ' ' || line[0] == '\t');
}

// The commands a usage line names after the object ("links"; "[ show |
// list ]" both), and where the line's "rdma" (or the object) starts; empty
// when it is no usage line of the object.
std::vector<std::string> names_on(const std::string& line, const std::string& object) {
  // Usage lines are the first or indented; a note's "fabric errors takes
  // -w" is none.
  if (!line.starts_with("Usage:") && !indented(line)) return {};
  std::vector<std::string> t = tokens_of(line);
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] != object) continue;
    if (t[i + 1] != "[" && t[i + 1] != "{") return {t[i + 1]};
    std::vector<std::string> names;
    for (size_t j = i + 2; j < t.size() && t[j] != "]" && t[j] != "}"; ++j)
      if (t[j] != "|") names.push_back(t[j]);
    return names;
  }
  return {};
}

bool definition(const std::string& line) {
  return line.starts_with("where") || line.find(":=") != std::string::npos;
}

}  // namespace

std::vector<std::string> usage_commands(const std::string& usage, const std::string& object) {
  std::vector<std::string> names;
  for (const std::string& l : lines_of(usage)) {
    if (definition(l)) continue;
    for (std::string& n : names_on(l, object))
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
  }
  return names;
}

std::string command_usage(const std::string& usage, const std::string& object,
                          const std::string& word) {
  std::vector<std::string> names = usage_commands(usage, object);
  std::string name;
  if (std::find(names.begin(), names.end(), word) != names.end()) {
    name = word;
  } else {
    for (const std::string& n : names)
      if (!word.empty() && n.starts_with(word)) {
        name = n;
        break;
      }
  }
  if (name.empty()) return usage;
  const std::vector<std::string> lines = lines_of(usage);
  std::string out;
  bool in_block = false;
  for (const std::string& l : lines) {
    if (definition(l)) {
      in_block = false;
      continue;
    }
    std::vector<std::string> on = names_on(l, object);
    if (!on.empty()) {
      in_block = std::find(on.begin(), on.end(), name) != on.end();
    } else if (!indented(l)) {
      in_block = false;  // a note after the usage lines
      continue;
    }
    if (!in_block) continue;
    // Every usage line as the first would be: "Usage: " then the line from
    // its first word, the others indented as far.
    if (!on.empty()) {
      size_t start =
          l.starts_with("Usage:") ? l.find_first_not_of(' ', 6) : l.find_first_not_of(' ');
      out += (out.empty() ? "Usage: " : "       ") + l.substr(start) + "\n";
    } else {
      out += l + "\n";
    }
  }
  // The definitions of the words those lines use (LIST := ...), each with
  // the lines that continue it (a sentence that goes on past its line).
  std::string defs;
  bool in_def = false;
  for (const std::string& l : lines) {
    if (definition(l)) {
      std::vector<std::string> t = tokens_of(l);
      auto eq = std::find(t.begin(), t.end(), ":=");
      in_def = eq != t.begin() && eq != t.end() && out.find(*(eq - 1)) != std::string::npos;
      if (!in_def) continue;
      std::string def = l.substr(l.find(*(eq - 1)));
      defs += (defs.empty() ? "where  " : "       ") + def + "\n";
      continue;
    }
    const bool ends =
        defs.empty() || defs.ends_with(".\n") || defs.ends_with(")\n") || defs.ends_with("}\n");
    if (in_def && !l.empty() && names_on(l, object).empty() && (indented(l) || !ends)) {
      defs += l + "\n";
      continue;
    }
    in_def = false;
  }
  return out + defs;
}

}  // namespace rdma
