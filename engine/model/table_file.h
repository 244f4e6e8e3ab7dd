// XPPAUT's table files (tabular.c, load_table): the number of points, xlo, xhi, then one value a
// line, each line read like C's atof. A first line starting with `i` (step values) or `s` (cubic
// spline) asks for another interpolation, which Bifscope does not have.
#pragma once

#include "engine/symbolic/table.h"

#include <optional>
#include <string>

namespace bif::model::detail {

struct TableFile {
    std::optional<sym::Table> table;
    std::string failure; // why not, when table is empty
};

TableFile read_table_file(const std::string& path);

// The path of a file named in a model: relative names are taken from the model file's folder.
std::string path_beside(const std::string& model_file, const std::string& name);

} // namespace bif::model::detail
