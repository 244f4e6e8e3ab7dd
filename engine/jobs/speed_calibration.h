// Once per machine: how fast each backend runs, in evaluator-seconds (backend_speed.h), measured on
// a reference study (the Ueda oscillator x'=y, y'=-k*y-x^3+B*cos(t), RKCK45 1e-6, stroboscopic
// section, B swept) and kept as JSON in $XDG_CACHE_HOME/bifscope/backend-speeds.json (else
// ~/.cache/bifscope). A file that cannot be read, or was written on another host or for another
// thread count, is ignored and rewritten; a backend the file lacks is measured and added.
//
// Measuring a backend, after the evaluator's cost per reference section:
//   compile  prepare() of a reference model no cache can hold (a random constant in it);
//   fixed    a run of one system over one section;
//   single   one system, the sections doubled until the run is long enough to time;
//   full     4 x max(parallel_systems, threads) systems, likewise.
// Every run goes through Backend::run, so a fake backend (tests) is measured the same way.
#pragma once

#include "engine/jobs/backend_speed.h"
#include "engine/jobs/work_probe.h"

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace bif::jobs {

// model_speed.h's factors of one model, by Backend::name().
struct ModelFactors {
    std::string key; // model_speed_key
    std::map<std::string, double> factors;
};

struct MachineSpeeds {
    std::string host;
    unsigned hardware_threads = 0;
    double reference_work = 0;                    // evaluator-seconds of one reference system, one section
    std::size_t reference_code_size = 0;          // generated source of the reference model, in bytes
    std::map<std::string, BackendSpeed> backends; // by Backend::name()
    std::vector<ModelFactors> models;             // the oldest first
    // The factor kept for a model on a backend; 0 where none is.
    double model_factor(const std::string& key, const std::string& backend) const;
};

std::string to_json(const MachineSpeeds& speeds);
// nullopt when the text is not a complete, plausible calibration of this format.
std::optional<MachineSpeeds> machine_speeds_from_json(const std::string& text);
// $XDG_CACHE_HOME/bifscope/backend-speeds.json, else $HOME/.cache/...; empty: keep nothing.
std::filesystem::path default_speeds_path();
std::string this_host();

// The reference study: `systems` values of B in [5, 12], `sections` sections (the last recorded).
// A non-zero salt adds a negligible term whose constant no earlier compile can have cached.
std::shared_ptr<const study::ResolvedStudy> reference_study(std::size_t systems, int sections,
                                                            std::uint32_t salt = 0);
// The size of the generated source of a study's model (what a compile's length follows).
std::size_t code_size(const study::ResolvedStudy& study);

// The calibration of one machine, shared by copies of a registry; thread-safe.
class SpeedCalibration {
  public:
    SpeedCalibration(std::filesystem::path file, SecondsClock clock);

    // Speeds for each of `backends`, read from the file or measured now (and the file rewritten).
    // nullopt when cancelled, or when a backend or the probe fails on the reference (then every later
    // call too, at once).
    std::optional<MachineSpeeds> speeds_for(const std::vector<study::Backend*>& backends,
                                            study::Backend& probe, const std::atomic<bool>& cancel);
    // Keeps a model's factor on a backend (model_speed.h) with the speeds, file included; the
    // oldest models go beyond max_model_factors.
    void keep_model_factor(const std::string& key, const std::string& backend, double factor);
    static constexpr std::size_t max_model_factors = 512;
    // How many backends were measured (rather than read) so far.
    int measured() const;
    const std::filesystem::path& file() const { return file_; }

  private:
    std::optional<MachineSpeeds> read_file() const;
    void write_file(const MachineSpeeds& speeds) const;

    std::filesystem::path file_;
    SecondsClock clock_;
    mutable std::mutex mutex_;
    std::optional<MachineSpeeds> known_;
    int measured_ = 0;
    bool broken_ = false; // measuring failed (not a cancel): not tried again
};

} // namespace bif::jobs
