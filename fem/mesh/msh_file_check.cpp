#include "fem/mesh/msh_file_check.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fem {
namespace {

namespace fs = std::filesystem;

// Tags fem can hold in an int with one past the largest still representable.
constexpr std::int64_t kMaxTag = 2147483646;

// Nodes per element for every Gmsh element type up to order 5 (the MSH format's table).
int gmsh_type_nodes(std::int64_t type) {
  static const int nodes[] = {0,  2,  3,  4,  4,  8,  6,  5,  3,  6,  9,  10, 27, 18, 14, 1,
                              8,  20, 15, 13, 9,  10, 12, 15, 15, 21, 4,  5,  6,  20, 35, 56};
  if (type >= 1 && type < static_cast<std::int64_t>(std::size(nodes))) return nodes[type];
  if (type == 92) return 64;   // hex64
  if (type == 93) return 125;  // hex125
  return 0;
}

// Whitespace-separated tokens with the line each one is on.
class Tokens {
 public:
  Tokens(const fs::path& file, std::string text) : file_(file), text_(std::move(text)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(file_.string() + ":" + std::to_string(line_) + ": " + what);
  }
  bool at_end() {
    skip_space();
    return pos_ >= text_.size();
  }
  std::string_view word(const char* inside) {
    if (at_end()) fail(std::string("the file ends inside ") + inside);
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
    return std::string_view(text_).substr(begin, pos_ - begin);
  }
  std::int64_t integer(const char* what, const char* inside) {
    const auto w = word(inside);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size())
      fail(std::string("expected ") + what + ", found '" + std::string(w.substr(0, 40)) + "'");
    return v;
  }
  // A count announced by a header: not negative.
  std::int64_t count(const char* what, const char* inside) {
    const auto v = integer(what, inside);
    if (v < 0) fail(std::string(what) + " is negative (" + std::to_string(v) + ")");
    return v;
  }
  double real(const char* what, const char* inside) {
    const std::string w(word(inside));
    char* end = nullptr;
    const double v = std::strtod(w.c_str(), &end);
    if (end != w.c_str() + w.size()) fail(std::string("expected ") + what + ", found '" + w.substr(0, 40) + "'");
    if (!std::isfinite(v)) fail(std::string(what) + " is not a finite number ('" + w + "')");
    return v;
  }
  void expect(std::string_view expected) {
    const auto w = word(std::string(expected).c_str());
    if (w != expected)
      fail("expected " + std::string(expected) + ", found '" + std::string(w.substr(0, 40)) +
           "' (the counts in the section header do not match its contents)");
  }
  // The rest of a quoted name that holds spaces: words up to the one that ends with '"'.
  void quoted_rest() {
    std::string_view w;
    do w = word("a quoted name");
    while (w.back() != '"');
  }
  void skip_section(std::string_view name) {
    const std::string end = "$End" + std::string(name.substr(1));
    while (word(std::string(name).c_str()) != end) {
    }
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }
  const fs::path& file_;
  std::string text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

class MshChecker {
 public:
  MshChecker(const fs::path& file, std::string text) : in_(file, std::move(text)) {}

  void run() {
    bool format = false, nodes = false, elements = false;
    while (!in_.at_end()) {
      const std::string section(in_.word("the file"));
      if (section == "$MeshFormat") {
        read_format();
        format = true;
      } else if (!format) {
        in_.fail("a .msh file starts with $MeshFormat, not '" + section.substr(0, 40) + "'");
      } else if (section == "$Nodes") {
        if (nodes) in_.fail("a second $Nodes section");
        version_ >= 4 ? read_nodes4() : read_nodes2();
        nodes = true;
      } else if (section == "$Elements") {
        if (!nodes) in_.fail("$Elements comes before $Nodes");
        if (elements) in_.fail("a second $Elements section");
        version_ >= 4 ? read_elements4() : read_elements2();
        elements = true;
      } else if (section == "$PhysicalNames") {
        read_physical_names();
      } else if (section == "$Entities" && version_ >= 4) {
        read_entities();
      } else if (section.size() > 1 && section[0] == '$') {
        in_.skip_section(section);
      } else {
        in_.fail("expected a section such as $Nodes, found '" + section.substr(0, 40) + "'");
      }
    }
    if (!nodes || !elements) in_.fail(std::string("the file has no ") + (nodes ? "$Elements" : "$Nodes") + " section");
  }

 private:
  void read_format() {
    version_ = in_.real("the format version", "$MeshFormat");
    const auto file_type = in_.integer("the file type (0 ASCII, 1 binary)", "$MeshFormat");
    in_.integer("the data size", "$MeshFormat");
    if (file_type != 0)
      in_.fail("binary .msh files are not read by fem; convert it with: gmsh FILE.msh -save -format msh41 -o ASCII.msh "
               "(ASCII is Gmsh's default)");
    if (!(version_ >= 2 && version_ < 3) && version_ != 4.0 && version_ != 4.1)
      in_.fail("MSH format version " + std::to_string(version_) + " is not read by fem (2.2, 4.0 or 4.1)");
    in_.expect("$EndMeshFormat");
  }

  std::int64_t tag(const char* what, const char* inside) {
    const auto t = in_.integer(what, inside);
    if (t < 1 || t > kMaxTag) in_.fail(std::string(what) + " " + std::to_string(t) + " is outside 1 .. " + std::to_string(kMaxTag));
    return t;
  }
  void coordinates(std::int64_t node) {
    const std::string what = "a coordinate of node " + std::to_string(node);
    for (int k = 0; k < 3; ++k) in_.real(what.c_str(), "$Nodes");
  }
  void end_nodes() {
    in_.expect("$EndNodes");
    std::sort(node_tags_.begin(), node_tags_.end());
    const auto twin = std::adjacent_find(node_tags_.begin(), node_tags_.end());
    if (twin != node_tags_.end()) in_.fail("node tag " + std::to_string(*twin) + " appears twice in $Nodes");
  }

  // MSH 4: "numEntityBlocks numItems" (4.1: then the smallest and largest tag).
  std::pair<std::int64_t, std::int64_t> section_header(const char* inside) {
    const auto blocks = in_.count("the number of entity blocks", inside);
    const auto total = in_.count("the number of items", inside);
    if (version_ == 4.1) in_.integer("the smallest tag", inside), in_.integer("the largest tag", inside);
    return {blocks, total};
  }
  // A block starts with its entity: 4.1 "dim tag", 4.0 "tag dim"; one $Entities declares.
  std::int64_t entity_dimension(const char* inside) {
    const auto first = in_.integer("an entity", inside);
    const auto second = in_.integer("an entity", inside);
    const auto dim = version_ == 4.1 ? first : second;
    const auto tag = version_ == 4.1 ? second : first;
    if (dim < 0 || dim > 3) in_.fail("entity dimension " + std::to_string(dim) + " is not 0 .. 3");
    if (entities_read_ && !std::binary_search(entities_[dim].begin(), entities_[dim].end(), tag))
      in_.fail("a block of entity (dimension " + std::to_string(dim) + ", tag " + std::to_string(tag) +
               "), which $Entities does not declare");
    return dim;
  }

  // "count" then per name: dimension, tag, "quoted name".
  void read_physical_names() {
    const auto n = in_.count("the number of physical names", "$PhysicalNames");
    for (std::int64_t i = 0; i < n; ++i) {
      const auto dim = in_.integer("a physical dimension", "$PhysicalNames");
      if (dim < 0 || dim > 3) in_.fail("physical dimension " + std::to_string(dim) + " is not 0 .. 3");
      tag("physical tag", "$PhysicalNames");
      const auto name = in_.word("$PhysicalNames");
      if (name.empty() || name.front() != '"') in_.fail("expected a quoted physical name, found '" + std::string(name.substr(0, 40)) + "'");
      if (name.size() < 2 || name.back() != '"') in_.quoted_rest();
    }
    in_.expect("$EndPhysicalNames");
  }

  // Points, curves, surfaces, volumes; each bounded by entities of the dimension below.
  void read_entities() {
    if (entities_read_) in_.fail("a second $Entities section");
    std::int64_t counts[4];
    for (auto& c : counts) c = in_.count("the number of entities", "$Entities");
    for (int dim = 0; dim < 4; ++dim) {
      for (std::int64_t i = 0; i < counts[dim]; ++i) {
        entities_[dim].push_back(tag("entity tag", "$Entities"));
        // 4.1 points: x y z; everything else: a bounding box.
        const int reals = dim == 0 && version_ == 4.1 ? 3 : 6;
        for (int k = 0; k < reals; ++k) in_.real("an entity coordinate", "$Entities");
        const auto physicals = in_.count("the number of physical tags", "$Entities");
        if (physicals > 1024) in_.fail(std::to_string(physicals) + " physical tags for one entity");
        for (std::int64_t k = 0; k < physicals; ++k) in_.integer("a physical tag", "$Entities");
        if (dim == 0) continue;
        const auto bounding = in_.count("the number of bounding entities", "$Entities");
        for (std::int64_t k = 0; k < bounding; ++k) {
          const auto b = in_.integer("a bounding entity", "$Entities");
          if (!std::binary_search(entities_[dim - 1].begin(), entities_[dim - 1].end(), b < 0 ? -b : b))
            in_.fail("entity " + std::to_string(entities_[dim].back()) + " is bounded by entity " + std::to_string(b) +
                     ", which is not declared one dimension below");
        }
      }
      std::sort(entities_[dim].begin(), entities_[dim].end());
      const auto twin = std::adjacent_find(entities_[dim].begin(), entities_[dim].end());
      if (twin != entities_[dim].end())
        in_.fail("entity (dimension " + std::to_string(dim) + ", tag " + std::to_string(*twin) + ") is declared twice");
    }
    in_.expect("$EndEntities");
    entities_read_ = true;
  }

  void read_nodes2() {
    const auto n = in_.count("the number of nodes", "$Nodes");
    for (std::int64_t i = 0; i < n; ++i) {
      node_tags_.push_back(tag("node tag", "$Nodes"));
      coordinates(node_tags_.back());
    }
    end_nodes();
  }

  void read_nodes4() {
    const bool v41 = version_ == 4.1;
    const auto [blocks, total] = section_header("$Nodes");
    std::int64_t seen = 0;
    for (std::int64_t b = 0; b < blocks; ++b) {
      const auto dim = entity_dimension("$Nodes");
      const auto parametric = in_.integer("the parametric flag", "$Nodes");
      const auto n = in_.count("the number of nodes in a block", "$Nodes");
      if (parametric != 0 && parametric != 1) in_.fail("the parametric flag is " + std::to_string(parametric) + ", not 0 or 1");
      const auto extra = parametric ? dim : 0;
      const std::size_t begin = node_tags_.size();
      for (std::int64_t i = 0; i < n; ++i) {
        node_tags_.push_back(tag("node tag", "$Nodes"));
        if (!v41) {
          coordinates(node_tags_.back());
          for (std::int64_t k = 0; k < extra; ++k) in_.real("a parametric coordinate", "$Nodes");
        }
      }
      if (v41)
        for (std::int64_t i = 0; i < n; ++i) {
          coordinates(node_tags_[begin + static_cast<std::size_t>(i)]);
          for (std::int64_t k = 0; k < extra; ++k) in_.real("a parametric coordinate", "$Nodes");
        }
      seen += n;
    }
    if (seen != total)
      in_.fail("$Nodes announces " + std::to_string(total) + " nodes but its blocks hold " + std::to_string(seen));
    end_nodes();
  }

  void element_nodes(std::int64_t element, std::int64_t type) {
    const int n = gmsh_type_nodes(type);
    if (n == 0) in_.fail("element " + std::to_string(element) + " has type " + std::to_string(type) + ", which Gmsh does not define");
    for (int i = 0; i < n; ++i) {
      const auto node = in_.integer("a node tag", "$Elements");
      if (!std::binary_search(node_tags_.begin(), node_tags_.end(), node))
        in_.fail("element " + std::to_string(element) + " names node " + std::to_string(node) + ", which is not in $Nodes");
    }
  }

  void read_elements2() {
    const auto n = in_.count("the number of elements", "$Elements");
    for (std::int64_t i = 0; i < n; ++i) {
      const auto element = tag("element tag", "$Elements");
      const auto type = in_.integer("an element type", "$Elements");
      const auto tags = in_.count("the number of element tags", "$Elements");
      if (tags > 64) in_.fail("element " + std::to_string(element) + " claims " + std::to_string(tags) + " tags");
      for (std::int64_t k = 0; k < tags; ++k) in_.integer("an element tag (physical or entity)", "$Elements");
      element_nodes(element, type);
    }
    in_.expect("$EndElements");
  }

  void read_elements4() {
    const auto [blocks, total] = section_header("$Elements");
    std::int64_t seen = 0;
    for (std::int64_t b = 0; b < blocks; ++b) {
      entity_dimension("$Elements");
      const auto type = in_.integer("an element type", "$Elements");
      const auto n = in_.count("the number of elements in a block", "$Elements");
      for (std::int64_t i = 0; i < n; ++i) element_nodes(tag("element tag", "$Elements"), type);
      seen += n;
    }
    if (seen != total)
      in_.fail("$Elements announces " + std::to_string(total) + " elements but its blocks hold " + std::to_string(seen));
    in_.expect("$EndElements");
  }

  Tokens in_;
  double version_ = 0;
  std::vector<std::int64_t> node_tags_;
  std::vector<std::int64_t> entities_[4];  // declared entity tags by dimension, sorted
  bool entities_read_ = false;
};

}  // namespace

void check_msh_file(const fs::path& msh) {
  std::ifstream in(msh, std::ios::binary);
  if (!in) throw std::runtime_error(msh.string() + ": cannot open the file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  MshChecker(msh, std::move(text)).run();
}

}  // namespace fem
