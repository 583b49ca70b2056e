#pragma once
// Results of a run on several MPI ranks as one parallel VTU: each rank writes its piece (its own
// cells, with every point they use) and rank 0 the .pvtu index that ParaView opens as one dataset.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "fem/output/vtu_writer.hpp"

namespace fem {

// Writes the piece of `mesh` made of `cells` to `path` (as write_vtu does, and returns its size
// in bytes): the points those cells use, with the point arrays' values there (arrays sized for
// the whole mesh) and the cell arrays' values of those cells. Points whose `owned` entry is 0 are
// marked as duplicates of another piece's.
std::uintmax_t write_vtu_piece(const std::filesystem::path& path, const Mesh& mesh, const std::vector<std::size_t>& cells,
                               const std::vector<PointArray>& points, const std::vector<CellArray>& cell_arrays,
                               const std::vector<char>& owned, VtuCompression compression = kDefaultVtuCompression);

// Writes the .pvtu index naming `pieces` (file names relative to it) with the arrays every piece
// holds (as write_vtu_piece writes them); returns its size in bytes. Throws std::runtime_error
// when it cannot write.
std::uintmax_t write_pvtu(const std::filesystem::path& path, const std::vector<std::string>& pieces,
                          const std::vector<PointArray>& points, const std::vector<CellArray>& cell_arrays);

}  // namespace fem
