// The HDF5 writer of a build without HDF5: every entry point says so.
#include "engine/study/result_hdf5.h"

#include <stdexcept>

namespace bif::study {

namespace {

[[noreturn]] void no_hdf5() {
    throw std::runtime_error("this build has no HDF5 output (install libhdf5-dev and configure again)");
}

} // namespace

struct Hdf5ResultWriter::File {};

bool hdf5_output_available() {
    return false;
}

Hdf5ResultWriter::Hdf5ResultWriter(const std::string&, std::size_t, Hdf5Options) {
    no_hdf5();
}
Hdf5ResultWriter::~Hdf5ResultWriter() = default;
void Hdf5ResultWriter::write_block(const Result&, std::size_t) {
    no_hdf5();
}
void Hdf5ResultWriter::finish(const ResultSummary&, std::string_view) {
    no_hdf5();
}

void write_result_hdf5(const std::string&, const Result&, std::string_view, Hdf5Options) {
    no_hdf5();
}

} // namespace bif::study
