// A result as HDF5, one dataset per column, for h5py, Julia (HDF5.jl) and MATLAB (h5read):
//
//   /axes/<name>      float64 [systems]             the swept values
//   /status           uint8   [systems]             SystemStatus codes; attribute "codes" names them
//   /scalars/<name>   float64 [systems]             one per scalar column
//   /points/<name>    float64 [systems, rows]       one per point column: row r of system s at [s, r]
//                                                   (h5py: f["points/x"][s, :rows_filled[s]])
//   /rows_filled      uint32  [systems]             the valid rows of each system (points only)
//
// Missing values are NaN (also the fill value, so systems a cancelled run never wrote read as NaN,
// status 0 = not_run). Datasets are chunked along the systems; deflate (with the shuffle filter) is
// optional. A column name that HDF5 cannot hold as a link name ('/' or '.' alone) has '/' written
// as '_'; every dataset of a column also carries its exact name in the attribute "column", and each
// group the column order in the attribute "columns" (one name per line).
// Root attributes (strings unless noted): "format" ("bifscope result 1"), "study" (the study file),
// "analysis", "backend", "device", "precision", "code_path", "code_note", "notes" and "warnings"
// (one per line), "complete" (uint8 0/1), "systems", "ok", "failed", "not_run" (uint64),
// "compile_seconds", "run_seconds", "total_seconds" (float64).
//
// Optional at build time (Debian: libhdf5-dev): without it, hdf5_output_available() is false and
// the writer throws std::runtime_error.
#pragma once

#include "engine/study/result.h"
#include "engine/study/result_summary.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace bif::study {

struct Hdf5Options {
    int deflate_level = 0; // 0: no compression; 1..9: deflate with shuffle
};

// Whether this build writes HDF5.
bool hdf5_output_available();

// Writes a run block by block, each finished block of systems as hyperslabs of the datasets, so
// that a run need not hold every system at once. Not thread-safe (neither is a serial HDF5).
class Hdf5ResultWriter {
  public:
    // Creates (or truncates) `path` for a run of `system_count` systems. Throws std::runtime_error.
    Hdf5ResultWriter(const std::string& path, std::size_t system_count, Hdf5Options options = {});
    ~Hdf5ResultWriter();
    Hdf5ResultWriter(const Hdf5ResultWriter&) = delete;
    Hdf5ResultWriter& operator=(const Hdf5ResultWriter&) = delete;

    // Writes block's systems as the run's systems first_system, first_system + 1, ... The first
    // block creates the datasets from its columns; every later block must have the same columns
    // (std::logic_error otherwise).
    void write_block(const Result& block, std::size_t first_system);

    // Writes the root attributes and closes the file; nothing may be written after.
    void finish(const ResultSummary& summary, std::string_view study_json);

    struct File; // the open file and datasets

  private:
    std::unique_ptr<File> file_;
};

// The whole result in one go: a writer, one block, finish.
void write_result_hdf5(const std::string& path, const Result& result, std::string_view study_json,
                       Hdf5Options options = {});

} // namespace bif::study
