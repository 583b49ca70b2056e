#pragma once
// An enum a user names in a case file or on the command line: its names, read once where the
// user gives them and carried as the enum from there on. An enum becomes one by a specialisation
// of ChoiceNames beside it, listing each value with its name.
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fem {

// Specialise with `static constexpr std::pair<Choice, const char*> names[] = {...};`.
template <class Choice>
struct ChoiceNames;

// The name a user writes for `value` ("block-jacobi").
template <class Choice>
const char* name_of(Choice value) {
  for (const auto& [choice, name] : ChoiceNames<Choice>::names)
    if (choice == value) return name;
  throw std::logic_error("a choice without a name");
}

// Every name of the enum, in its order.
template <class Choice>
std::vector<const char*> choice_names() {
  std::vector<const char*> names;
  for (const auto& entry : ChoiceNames<Choice>::names) names.push_back(entry.second);
  return names;
}

// The value named `name`; nothing for a name the enum does not have.
template <class Choice>
std::optional<Choice> parse_choice(std::string_view name) {
  for (const auto& [choice, choice_name] : ChoiceNames<Choice>::names)
    if (name == choice_name) return choice;
  return std::nullopt;
}

// A choice printed is its name (logs, summaries, messages).
template <class Choice, class = decltype(ChoiceNames<Choice>::names)>
std::ostream& operator<<(std::ostream& out, Choice value) {
  return out << name_of(value);
}

// "none, jacobi, block-jacobi, ssor, amg"
template <class Choice>
std::string choice_list() {
  std::string list;
  for (const auto& entry : ChoiceNames<Choice>::names) list += (list.empty() ? "" : ", ") + std::string(entry.second);
  return list;
}

}  // namespace fem
