// Help at every level (rdma help OBJECT, rdma OBJECT help, rdma OBJECT
// COMMAND help, -h anywhere): a command's usage is cut from its object's,
// which the object's own "help" entry prints.
#pragma once

#include <string>
#include <vector>

namespace rdma {

// The command names an object's usage text gives, in order: the word after
// the object's name on each usage line ("rdma fabric links ..." gives
// links; "rdma statistic [ show | list ] ..." show and list).
std::vector<std::string> usage_commands(const std::string& usage, const std::string& object);

// The usage of the command word selects (its name, else the first name it
// is a prefix of): the usage lines that name it with the lines that
// continue them, then the object's "where" definitions, with "Usage: "
// before the first. The whole usage when word selects none (an alias the
// usage does not spell, as "list" for "show").
std::string command_usage(const std::string& usage, const std::string& object,
                          const std::string& word);

}  // namespace rdma
