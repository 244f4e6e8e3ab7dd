// A resolved study turned into what the per-system program reads (kernels/bif/study/spec.h), with
// the arrays the StudySpec points to, and the shape of the program's outputs. Shared by every
// backend that runs kernels/bif/study (engine/cpu, engine/cuda).
#pragma once

#include "bif/study/spec.h"
#include "engine/study/resolved_study.h"

#include <string>
#include <vector>

namespace bif::ensemble {

// Owns the arrays; spec() points into them, so a SpecStorage is neither copied nor moved.
class SpecStorage {
  public:
    explicit SpecStorage(const study::ResolvedStudy& study);
    SpecStorage(const SpecStorage&) = delete;
    SpecStorage& operator=(const SpecStorage&) = delete;

    const StudySpec& spec() const { return spec_; }
    int program() const;
    int states() const { return states_; }

    // Output shape per system.
    int point_rows() const { return point_rows_; }
    int point_columns() const { return point_columns_; }
    int scalar_columns() const { return scalar_columns_; }
    const std::vector<double>& times() const { return times_; }

  private:
    void fill_section(const study::ResolvedStudy& r, const study::Section& section, int transient,
                      int recorded);

    StudySpec spec_;
    std::vector<double> rtol_, atol_, parameters_, initial_, times_;
    std::vector<int> record_observable_, record_mode_;
    std::vector<int> accessory_observable_, accessory_reduce_, accessory_over_;
    int states_ = 0;
    int point_rows_ = 0;
    int point_columns_ = 0;
    int scalar_columns_ = 0;
};

// The output times of a trajectory study: its `times`, or output_count evenly spaced from t0 to t_end.
std::vector<double> trajectory_times(const study::Study& s);

// The kernel name of a method ("Rk4", ...): the tag in bif::ensemble::methods.
const char* method_tag(study::Method method);

} // namespace bif::ensemble
