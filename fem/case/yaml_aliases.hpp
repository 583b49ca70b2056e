#pragma once
// YAML anchors and aliases (&name, *name) as fem's readers accept them. yaml-cpp builds an
// alias as the very node it names, so an alias inside its own anchor (`title: &a [*a]`) is a
// cycle that any walk of the tree follows until the stack runs out; these checks read the
// text's events (no tree) and refuse such a thing before the tree is walked.
#include <string>

namespace fem {

// Throws CaseError "<where>:line: ..." at an alias that names a mapping or list still open
// around it (a cycle). Aliases to finished nodes are plain shared values and pass.
void refuse_alias_cycles(const std::string& text, const std::string& where);

// Throws CaseError "<where>: ..." at any alias: a value given on the command line is copied
// node by node, and copying shared nodes multiplies them (a few lines of aliases to aliases
// make 2^30 copies).
void refuse_aliases(const std::string& text, const std::string& where);

}  // namespace fem
