#include "engine/model/table_file.h"

#include "engine/model/text.h"

#include <filesystem>
#include <fstream>

namespace bif::model::detail {

namespace {

constexpr long kMaxTableFilePoints = 1000000;

// C's atof on a line: the leading number, 0 when there is none.
double atof_line(const std::string& line) {
    const std::string_view text = trim(line);
    const LeadingNumber v = read_leading_number(text);
    return v.kind == LeadingNumber::Kind::None ? 0.0 : v.value;
}

} // namespace

std::string path_beside(const std::string& model_file, const std::string& name) {
    const std::filesystem::path p(name);
    if (p.is_absolute() || model_file.empty()) return name;
    return (std::filesystem::path(model_file).parent_path() / p).string();
}

TableFile read_table_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {std::nullopt, "cannot open the table file " + detail::quoted(path)};
    std::string line;
    std::getline(in, line);
    const std::string_view first = trim(line);
    if (!first.empty() && (first[0] == 'i' || first[0] == 's')) {
        return {std::nullopt, std::string("the table file asks for ") +
                                  (first[0] == 'i' ? "step values (`i`)" : "cubic splines (`s`)") +
                                  "; Bifscope has only linear interpolation"};
    }
    const double n = atof_line(line);
    if (!(n >= 2) || n > double(kMaxTableFilePoints)) {
        return {std::nullopt, "the first line of a table file is its number of points (2 to " +
                                  std::to_string(kMaxTableFilePoints) + ")"};
    }
    sym::Table table;
    std::getline(in, line);
    table.xlo = atof_line(line);
    std::getline(in, line);
    table.xhi = atof_line(line);
    if (!(table.xlo < table.xhi))
        return {std::nullopt, "the table file's xlo (line 2) is not below xhi (line 3)"};
    const auto points = static_cast<long>(n);
    for (long k = 0; k < points; ++k) {
        if (!std::getline(in, line)) {
            return {std::nullopt, "the table file ends after " + std::to_string(k) + " of its " +
                                      std::to_string(points) + " values"};
        }
        table.y.push_back(atof_line(line));
    }
    return {std::move(table), {}};
}

} // namespace bif::model::detail
