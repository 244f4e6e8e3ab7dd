#include "engine/study/result_hdf5.h"

#include <algorithm>
#include <hdf5.h>
#include <stdexcept>
#include <vector>

namespace bif::study {

namespace {

// Elements per chunk along the systems: 2^18 doubles (2 MiB), big enough for fast hyperslab writes
// of large blocks, small enough that a reader slicing a few systems reads little.
constexpr hsize_t chunk_elements = hsize_t{1} << 18;

// An HDF5 identifier closed by its own close function when it goes out of scope.
class Handle {
  public:
    Handle() = default;
    Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(id), close_(close) {
        if (id < 0) throw std::runtime_error(std::string("HDF5: cannot ") + what);
    }
    Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
    Handle& operator=(Handle&& other) noexcept {
        std::swap(id_, other.id_);
        std::swap(close_, other.close_);
        return *this;
    }
    ~Handle() {
        if (id_ >= 0) close_(id_);
    }
    hid_t get() const { return id_; }

  private:
    hid_t id_ = -1;
    herr_t (*close_)(hid_t) = nullptr;
};

void check(herr_t status, const char* what) {
    if (status < 0) throw std::runtime_error(std::string("HDF5: cannot ") + what);
}

std::string link_name(const std::string& column) {
    std::string name = column;
    std::replace(name.begin(), name.end(), '/', '_');
    return name.empty() || name == "." ? "_" + name : name;
}

std::string joined_lines(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines) {
        if (!text.empty()) text += '\n';
        text += line;
    }
    return text;
}

void write_string_attribute(hid_t object, const char* name, std::string_view value) {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "copy the string type");
    check(H5Tset_size(type.get(), std::max<std::size_t>(value.size(), 1)), "size a string type");
    check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set a string's character set");
    Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create a scalar space");
    Handle attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                     "create an attribute");
    const std::string text = value.empty() ? std::string(1, '\0') : std::string(value);
    check(H5Awrite(attribute.get(), type.get(), text.data()), "write an attribute");
}

template <typename T>
void write_number_attribute(hid_t object, const char* name, hid_t type, T value) {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create a scalar space");
    Handle attribute(H5Acreate2(object, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                     "create an attribute");
    check(H5Awrite(attribute.get(), type, &value), "write an attribute");
}

std::string status_codes() {
    std::string codes;
    for (int code = 0; code <= static_cast<int>(SystemStatus::EventsAccumulate); ++code) {
        if (code > 0) codes += '\n';
        codes += std::to_string(code);
        codes += ' ';
        codes += name_of(static_cast<SystemStatus>(code));
    }
    return codes;
}

} // namespace

// One dataset of the file: its HDF5 handle, its element type and its row width (1 for a column,
// rows_per_system for a point column).
struct Dataset {
    std::string column;
    Handle id;
    hid_t type = -1;
    hsize_t width = 1;
};

struct Hdf5ResultWriter::File {
    Handle file;
    std::size_t systems = 0;
    Hdf5Options options;
    bool created = false;
    std::vector<Dataset> axes, scalars, points;
    Dataset status, rows_filled;

    Handle group(const char* name) {
        Handle order(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "create group properties");
        check(H5Pset_link_creation_order(order.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
              "track link order");
        return Handle(H5Gcreate2(file.get(), name, H5P_DEFAULT, order.get(), H5P_DEFAULT), H5Gclose,
                      "create a group");
    }

    Dataset dataset(hid_t parent, const std::string& column, hid_t type, hsize_t width) {
        const hsize_t dims[2] = {systems, width};
        const int rank = width == 1 ? 1 : 2;
        Handle space(H5Screate_simple(rank, dims, nullptr), H5Sclose, "create a data space");
        Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create dataset properties");
        if (type == H5T_NATIVE_DOUBLE) {
            const double nan = missing_value;
            check(H5Pset_fill_value(properties.get(), type, &nan), "set the fill value");
        }
        if (systems > 0) {
            const hsize_t chunk[2] = {std::clamp<hsize_t>(chunk_elements / width, 1, systems),
                                      std::min<hsize_t>(width, chunk_elements)};
            check(H5Pset_chunk(properties.get(), rank, chunk), "chunk a dataset");
            if (options.deflate_level > 0) {
                check(H5Pset_shuffle(properties.get()), "set the shuffle filter");
                check(H5Pset_deflate(properties.get(), static_cast<unsigned>(options.deflate_level)),
                      "set deflate");
            }
        }
        Dataset d{column,
                  Handle(H5Dcreate2(parent, link_name(column).c_str(), type, space.get(), H5P_DEFAULT,
                                    properties.get(), H5P_DEFAULT),
                         H5Dclose, ("create the dataset of column '" + column + "'").c_str()),
                  type, width};
        write_string_attribute(d.id.get(), "column", column);
        return d;
    }

    std::vector<Dataset> column_group(const char* name, const std::vector<std::string>& columns,
                                      hsize_t width) {
        Handle g = group(name);
        write_string_attribute(g.get(), "columns", joined_lines(columns));
        std::vector<Dataset> datasets;
        for (const auto& column : columns)
            datasets.push_back(dataset(g.get(), column, H5T_NATIVE_DOUBLE, width));
        return datasets;
    }

    void create(const Result& layout) {
        std::vector<std::string> names;
        for (const auto& a : layout.axes)
            names.push_back(a.name);
        axes = column_group("axes", names, 1);
        status = dataset(file.get(), "status", H5T_NATIVE_UINT8, 1);
        write_string_attribute(status.id.get(), "codes", status_codes());
        names.clear();
        for (const auto& s : layout.scalars)
            names.push_back(s.name);
        scalars = column_group("scalars", names, 1);
        if (layout.points.width() > 0 && layout.points.rows_per_system > 0) {
            points = column_group("points", layout.points.columns, layout.points.rows_per_system);
            rows_filled = dataset(file.get(), "rows_filled", H5T_NATIVE_UINT32, 1);
        }
        created = true;
    }

    // Writes `count` rows of `width` values from `data` at system `first`.
    void write(const Dataset& d, std::size_t first, std::size_t count, const void* data) {
        if (count == 0) return;
        const int rank = d.width == 1 ? 1 : 2;
        const hsize_t start[2] = {first, 0}, size[2] = {count, d.width};
        Handle file_space(H5Dget_space(d.id.get()), H5Sclose, "get a data space");
        check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, size, nullptr),
              "select systems");
        Handle memory(H5Screate_simple(rank, size, nullptr), H5Sclose, "create a memory space");
        check(H5Dwrite(d.id.get(), d.type, memory.get(), file_space.get(), H5P_DEFAULT, data),
              ("write column '" + d.column + "'").c_str());
    }
};

bool hdf5_output_available() {
    return true;
}

Hdf5ResultWriter::Hdf5ResultWriter(const std::string& path, std::size_t system_count, Hdf5Options options)
    : file_(std::make_unique<File>()) {
    // The library reports through exceptions; HDF5's own error stack printing would go to stderr.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    file_->systems = system_count;
    file_->options = options;
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "create file properties");
    file_->file = Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose,
                         ("create " + path).c_str());
}

Hdf5ResultWriter::~Hdf5ResultWriter() = default;

namespace {

void require_columns(const std::vector<Dataset>& datasets, const std::vector<NumberColumn>& columns) {
    bool same = datasets.size() == columns.size();
    for (std::size_t i = 0; same && i < columns.size(); ++i)
        same = datasets[i].column == columns[i].name;
    if (!same) throw std::logic_error("HDF5 result: a block's columns differ from the first block's");
}

} // namespace

void Hdf5ResultWriter::write_block(const Result& block, std::size_t first_system) {
    File& f = *file_;
    if (!f.file.get() || f.file.get() < 0) throw std::logic_error("HDF5 result: written after finish()");
    if (first_system + block.system_count > f.systems)
        throw std::logic_error("HDF5 result: a block beyond the run's systems");
    if (!f.created) f.create(block);
    require_columns(f.axes, block.axes);
    require_columns(f.scalars, block.scalars);
    const std::size_t n = block.system_count;
    for (std::size_t i = 0; i < f.axes.size(); ++i)
        f.write(f.axes[i], first_system, n, block.axes[i].values.data());
    f.write(f.status, first_system, n, block.status.data());
    for (std::size_t i = 0; i < f.scalars.size(); ++i)
        f.write(f.scalars[i], first_system, n, block.scalars[i].values.data());
    if (f.points.empty()) return;
    const PointBlock& p = block.points;
    if (p.columns.size() != f.points.size() || p.rows_per_system != f.points[0].width)
        throw std::logic_error("HDF5 result: a block's point layout differs from the first block's");
    f.write(f.rows_filled, first_system, n, p.rows_filled.data());
    // The block stores a system's rows column-interleaved; each dataset takes one column.
    std::vector<double> column(n * p.rows_per_system);
    for (std::size_t c = 0; c < p.width(); ++c) {
        for (std::size_t i = 0; i < column.size(); ++i)
            column[i] = p.values[i * p.width() + c];
        f.write(f.points[c], first_system, n, column.data());
    }
}

void Hdf5ResultWriter::finish(const ResultSummary& summary, std::string_view study_json) {
    File& f = *file_;
    if (!f.created) f.create(Result{});
    const hid_t root = f.file.get();
    const RunInfo& info = summary.info;
    write_string_attribute(root, "format", "bifscope result 1");
    write_string_attribute(root, "study", study_json);
    write_string_attribute(root, "analysis", name_of(summary.analysis));
    write_string_attribute(root, "backend", info.backend);
    write_string_attribute(root, "device", info.device);
    write_string_attribute(root, "precision",
                           info.precision == codegen::Precision::Float ? "float" : "double");
    write_string_attribute(root, "code_path", name_of(info.code_path));
    write_string_attribute(root, "code_note", info.code_note);
    write_string_attribute(root, "notes", joined_lines(info.notes));
    write_string_attribute(root, "warnings", joined_lines(info.warnings));
    write_number_attribute(root, "complete", H5T_NATIVE_UINT8, std::uint8_t{info.complete});
    write_number_attribute(root, "systems", H5T_NATIVE_UINT64, std::uint64_t{summary.system_count});
    write_number_attribute(root, "ok", H5T_NATIVE_UINT64, std::uint64_t{summary.ok});
    write_number_attribute(root, "failed", H5T_NATIVE_UINT64, std::uint64_t{summary.failed});
    write_number_attribute(root, "escaped", H5T_NATIVE_UINT64, std::uint64_t{summary.escaped});
    write_number_attribute(root, "not_run", H5T_NATIVE_UINT64, std::uint64_t{summary.not_run});
    write_number_attribute(root, "compile_seconds", H5T_NATIVE_DOUBLE, info.compile_seconds);
    write_number_attribute(root, "run_seconds", H5T_NATIVE_DOUBLE, info.run_seconds);
    write_number_attribute(root, "total_seconds", H5T_NATIVE_DOUBLE, info.total_seconds);
    // Datasets first: the file closes for good only once nothing in it is open.
    f.axes.clear();
    f.scalars.clear();
    f.points.clear();
    f.status = {};
    f.rows_filled = {};
    check(H5Fflush(root, H5F_SCOPE_GLOBAL), "flush the file");
    f.file = Handle();
}

void write_result_hdf5(const std::string& path, const Result& result, std::string_view study_json,
                       Hdf5Options options) {
    Hdf5ResultWriter writer(path, result.system_count, options);
    writer.write_block(result, 0);
    writer.finish(summarize(result), study_json);
}

} // namespace bif::study
