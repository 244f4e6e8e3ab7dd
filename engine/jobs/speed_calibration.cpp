#include "engine/jobs/speed_calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace bif::jobs {

namespace {

constexpr int format_version = 1;
constexpr const char* format_key = "bifscope_backend_speeds";

// How long the runs that time single systems and a full backend must take beyond their fixed cost:
// long enough that a timer's and a scheduler's jitter stay a few per cent.
constexpr double single_target_seconds = 0.05;
constexpr double full_target_seconds = 0.1;
constexpr int max_sections = 1 << 16;
// Evaluator sections of the reference whose time gives the unit of work.
constexpr int reference_sections = 64;

nlohmann::json speed_json(const BackendSpeed& s) {
    return {{"device", s.device},
            {"fixed_seconds", s.fixed_seconds},
            {"compile_seconds", s.compile_seconds},
            {"single", s.single},
            {"per_system", s.per_system},
            {"host", s.host},
            {"threads", s.threads},
            {"lanes", s.lanes}};
}

BackendSpeed speed_from_json(const nlohmann::json& j) {
    BackendSpeed s;
    s.device = j.at("device").get<std::string>();
    s.fixed_seconds = j.at("fixed_seconds").get<double>();
    s.compile_seconds = j.at("compile_seconds").get<double>();
    s.single = j.at("single").get<double>();
    s.per_system = j.at("per_system").get<double>();
    s.host = j.at("host").get<double>();
    s.threads = j.at("threads").get<unsigned>();
    s.lanes = j.at("lanes").get<std::size_t>();
    return s;
}

} // namespace

std::string to_json(const MachineSpeeds& speeds) {
    nlohmann::json backends = nlohmann::json::object();
    for (const auto& [name, speed] : speeds.backends)
        backends[name] = speed_json(speed);
    nlohmann::json j = {{format_key, format_version},
                        {"host", speeds.host},
                        {"hardware_threads", speeds.hardware_threads},
                        {"reference_work", speeds.reference_work},
                        {"reference_code_size", speeds.reference_code_size},
                        {"backends", backends}};
    nlohmann::json models = nlohmann::json::array();
    for (const ModelFactors& m : speeds.models)
        models.push_back({{"model", m.key}, {"factors", m.factors}});
    j["models"] = std::move(models);
    return j.dump(2) + "\n";
}

std::optional<MachineSpeeds> machine_speeds_from_json(const std::string& text) {
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        if (j.at(format_key).get<int>() != format_version) return std::nullopt;
        MachineSpeeds m;
        m.host = j.at("host").get<std::string>();
        m.hardware_threads = j.at("hardware_threads").get<unsigned>();
        m.reference_work = j.at("reference_work").get<double>();
        m.reference_code_size = j.at("reference_code_size").get<std::size_t>();
        if (!(m.reference_work > 0) || !std::isfinite(m.reference_work) || m.reference_code_size == 0)
            return std::nullopt;
        for (const auto& [name, value] : j.at("backends").items()) {
            BackendSpeed s = speed_from_json(value);
            if (!s.plausible()) return std::nullopt;
            m.backends[name] = std::move(s);
        }
        // optional: files written before factors were kept have none
        if (j.contains("models")) {
            for (const auto& entry : j.at("models")) {
                ModelFactors f{entry.at("model").get<std::string>(), {}};
                for (const auto& [name, value] : entry.at("factors").items()) {
                    const double factor = value.get<double>();
                    if (std::isfinite(factor) && factor > 0) f.factors[name] = factor;
                }
                m.models.push_back(std::move(f));
            }
        }
        return m;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

double MachineSpeeds::model_factor(const std::string& key, const std::string& backend) const {
    for (const ModelFactors& m : models) {
        if (m.key != key) continue;
        const auto found = m.factors.find(backend);
        return found == m.factors.end() ? 0.0 : found->second;
    }
    return 0.0;
}

std::filesystem::path default_speeds_path() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') return std::filesystem::path(xdg) / "bifscope" / "backend-speeds.json";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::filesystem::path(home) / ".cache" / "bifscope" / "backend-speeds.json";
    return {};
}

std::string this_host() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "unknown";
    return name;
}

std::shared_ptr<const study::ResolvedStudy> reference_study(std::size_t systems, int sections,
                                                            std::uint32_t salt) {
    study::Study s;
    std::string forcing = "B*cos(t)";
    // A constant of 7 significant digits (what float source keeps) times ~1e-24: no effect on the
    // solution, but a source text of its own.
    if (salt != 0) forcing += "+" + std::to_string(salt) + "e-30*k";
    s.model.text = "x'=y\ny'=-k*y-x^3+" + forcing + "\npar k=0.05, B=7.5\ninit x=1, y=0\ndone\n";
    s.sweep = {{study::SweepTarget::Parameter, "B", 5.0, 12.0, int(systems), study::SweepScale::Linear}};
    s.bifurcation.section.period = "2*pi";
    s.bifurcation.transient_sections = sections - 1;
    s.bifurcation.recorded_sections = 1;
    s.solver.method = study::Method::Rkck45;
    s.solver.rtol.all = s.solver.atol.all = 1e-6;
    study::ResolveResult r = study::resolve_study(s, "");
    if (!r.resolved) throw std::logic_error("the reference study does not resolve");
    return r.resolved;
}

std::size_t code_size(const study::ResolvedStudy& study) {
    try {
        return codegen::generate_source(study.codegen_request(codegen::Precision::Double)).size();
    } catch (const std::exception&) {
        return 0;
    }
}

namespace {

struct Cancelled {};

// Times whole runs of the reference on one backend.
class ReferenceRuns {
  public:
    ReferenceRuns(study::Backend& backend, const std::atomic<bool>& cancel, const SecondsClock& clock,
                  std::size_t sized_for, std::uint32_t salt)
        : backend_(backend), control_(cancel, {}, 0), clock_(clock), sized_for_(sized_for), salt_(salt) {}

    std::shared_ptr<study::ResolvedStudy> study(std::size_t systems, int sections) const {
        auto s = std::make_shared<study::ResolvedStudy>(*reference_study(systems, sections, salt_));
        s->run_system_count = sized_for_; // one module for every run, whatever its size
        return s;
    }
    double compile() {
        const auto s = study(1, 1);
        if (backend_.ready(*s)) return 0;
        const double start = clock_();
        backend_.prepare(*s, control_);
        if (control_.cancelled()) throw Cancelled{};
        return clock_() - start;
    }
    double time(std::size_t systems, int sections) {
        const auto s = study(systems, sections);
        const double start = clock_();
        const study::Result r = backend_.run(*s, control_);
        if (!r.info.complete) throw Cancelled{};
        device_ = r.info.device;
        return clock_() - start;
    }
    // Sections doubled from `first` until doubling adds `target` / 2; the seconds per section and
    // system from the last two runs, and what each system cost besides (beyond `fixed`).
    std::pair<double, double> slope(std::size_t systems, int first, double fixed, double target) {
        int sections = first;
        double before = time(systems, sections);
        for (;;) {
            const double after = time(systems, 2 * sections);
            // the doubled sections alone must take half the target: the slope is their cost, not
            // the difference of two times that a big run's host work dominates
            if (after - before >= target / 2 || 2 * sections >= max_sections) {
                const double per_section = std::max(after - before, 1e-12) / double(sections);
                const double host = std::max(0.0, before - fixed - per_section * sections) / double(systems);
                return {per_section / double(systems), host};
            }
            sections *= 2;
            before = after;
        }
    }
    unsigned threads() const { return control_.threads(); }
    const std::string& device() const { return device_; }

  private:
    study::Backend& backend_;
    study::RunControl control_;
    const SecondsClock& clock_;
    std::size_t sized_for_;
    std::uint32_t salt_;
    std::string device_;
};

std::uint32_t random_salt() {
    std::random_device device;
    return std::uniform_int_distribution<std::uint32_t>(1000000, 9999999)(device);
}

BackendSpeed measure_backend(study::Backend& backend, double reference_work, const std::atomic<bool>& cancel,
                             const SecondsClock& clock) {
    BackendSpeed speed;
    const std::size_t full = 4 * std::max<std::size_t>(backend.parallel_systems(*reference_study(1, 1)),
                                                       std::max(1u, std::thread::hardware_concurrency()));
    ReferenceRuns runs(backend, cancel, clock, full, random_salt());
    // a GPU's lanes as its code for a full run has them (its register bound follows the systems)
    speed.lanes = backend.parallel_systems(*runs.study(full, 1));
    speed.compile_seconds = runs.compile();
    const double one_section = std::min(runs.time(1, 1), runs.time(1, 1)); // the first may load the module
    speed.single = runs.slope(1, 8, one_section, single_target_seconds).first / reference_work;
    // what a run costs beyond its one section
    speed.fixed_seconds = std::max(0.0, one_section - speed.single * reference_work);
    const auto [per_system, host] = runs.slope(full, 1, speed.fixed_seconds, full_target_seconds);
    speed.per_system = std::min(per_system / reference_work, speed.single);
    speed.host = host;
    speed.threads = runs.threads();
    speed.device = runs.device();
    return speed;
}

} // namespace

SpeedCalibration::SpeedCalibration(std::filesystem::path file, SecondsClock clock)
    : file_(std::move(file)), clock_(std::move(clock)) {}

int SpeedCalibration::measured() const {
    std::lock_guard lock(mutex_);
    return measured_;
}

void SpeedCalibration::keep_model_factor(const std::string& key, const std::string& backend, double factor) {
    if (!(factor > 0) || !std::isfinite(factor)) return;
    std::lock_guard lock(mutex_);
    if (!known_) return; // kept with a calibration only
    auto& models = known_->models;
    auto found =
        std::find_if(models.begin(), models.end(), [&](const ModelFactors& m) { return m.key == key; });
    ModelFactors entry{key, {}};
    if (found != models.end()) {
        entry = std::move(*found);
        models.erase(found);
    }
    entry.factors[backend] = factor;
    models.push_back(std::move(entry)); // the newest last
    if (models.size() > max_model_factors) models.erase(models.begin());
    write_file(*known_);
}

std::optional<MachineSpeeds> SpeedCalibration::read_file() const {
    if (file_.empty()) return std::nullopt;
    std::ifstream in(file_);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    auto speeds = machine_speeds_from_json(text.str());
    if (!speeds || speeds->host != this_host() ||
        speeds->hardware_threads != std::max(1u, std::thread::hardware_concurrency()))
        return std::nullopt;
    return speeds;
}

// Through a temporary file and a rename: a reader in another process sees the old file or the new.
void SpeedCalibration::write_file(const MachineSpeeds& speeds) const {
    if (file_.empty()) return;
    std::error_code ignored;
    std::filesystem::create_directories(file_.parent_path(), ignored);
    const std::filesystem::path temporary = file_.string() + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << to_json(speeds);
        if (!out) return; // an unwritable cache only costs measuring again next time
    }
    std::filesystem::rename(temporary, file_, ignored);
    if (ignored) std::filesystem::remove(temporary, ignored);
}

std::optional<MachineSpeeds> SpeedCalibration::speeds_for(const std::vector<study::Backend*>& backends,
                                                          study::Backend& probe,
                                                          const std::atomic<bool>& cancel) {
    std::lock_guard lock(mutex_);
    if (broken_) return std::nullopt;
    if (!known_) known_ = read_file();
    MachineSpeeds speeds = known_ ? *known_ : MachineSpeeds{};
    bool changed = !known_;
    try {
        if (!known_) {
            speeds.host = this_host();
            speeds.hardware_threads = std::max(1u, std::thread::hardware_concurrency());
            const auto reference = reference_study(3, reference_sections);
            ProbeOptions options;
            options.min_seconds = 0.05;
            const WorkMeasure m = measure_work(*reference, probe, cancel, clock_, options);
            if (!m.failure.empty() || !(m.work > 0)) return std::nullopt;
            speeds.reference_work = m.work / reference_sections;
            speeds.reference_code_size = code_size(*reference);
        }
        for (study::Backend* b : backends) {
            if (speeds.backends.count(b->name())) continue;
            speeds.backends[b->name()] = measure_backend(*b, speeds.reference_work, cancel, clock_);
            ++measured_;
            changed = true;
        }
    } catch (const Cancelled&) {
        return std::nullopt;
    } catch (const std::exception&) {
        // A backend that fails on the reference (a compiler that breaks, a device error) fails the
        // same way next time: this process does not try again, auto decides without speeds.
        broken_ = true;
        return std::nullopt;
    }
    if (changed) write_file(speeds);
    known_ = speeds;
    return speeds;
}

} // namespace bif::jobs
