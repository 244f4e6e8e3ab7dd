// Auto's choice by work: fake backends whose run times follow a speed model on a virtual clock
// (modelled_backend.h), so that the crossing points are known in closed form. The choice must
// flip where the modelled times cross, count a compile where the code is not cached, never
// measure anything for a study that a GPU cannot win or where there is no GPU, and keep the
// machine's calibration in one file, written once, reused, and rewritten when damaged.
#include "engine/jobs/backend_registry.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/model_speed.h"
#include "fake_backend.h"
#include "modelled_backend.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

using namespace bif;

namespace {

std::filesystem::path fresh_speeds_file() {
    std::random_device device;
    const auto dir = std::filesystem::temp_directory_path() /
                     ("bifscope-speeds-" + std::to_string(device()) + std::to_string(device()));
    std::filesystem::remove_all(dir);
    return dir / "backend-speeds.json";
}

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A 64-thread CPU: one system costs 1/20 of the evaluator's time on a core.
jobs::BackendSpeed cpu_speed() {
    jobs::BackendSpeed s;
    s.fixed_seconds = 0.002;
    s.single = 0.05;
    s.per_system = 0.05 / 64;
    return s;
}
constexpr std::size_t cpu_lanes = 64;

// A GPU: a thread 20 times slower than a core, 10000 of them at once in effect, 50 ms to start.
jobs::BackendSpeed gpu_speed(double compile = 0) {
    jobs::BackendSpeed s;
    s.fixed_seconds = 0.05;
    s.host = 1e-7;
    s.single = 1.0;
    s.per_system = 1.0 / 10000 * 3; // memory-bound: 3333 systems' worth of throughput
    s.compile_seconds = compile;
    return s;
}
constexpr std::size_t gpu_lanes = 10000;

// n systems of a bifurcation study whose systems integrate `sections` sections each.
std::shared_ptr<const study::ResolvedStudy> study_of(int systems, int sections) {
    auto s = std::make_shared<study::ResolvedStudy>(*test::fake_study(systems));
    s->study.bifurcation.transient_sections = sections - 2;
    s->study.bifurcation.recorded_sections = 2;
    return s;
}

// `s` with a model of other code (parameter values are not code): no model factor is known for it.
std::shared_ptr<const study::ResolvedStudy> other_model(const study::ResolvedStudy& s) {
    study::Study other = s.study;
    other.model.text.replace(other.model.text.find("y1-y1^3"), 7, "y1-y1^3-y1/8");
    auto resolved = study::resolve_study(other, "").resolved;
    REQUIRE(resolved);
    return resolved;
}

struct Setup {
    test::VirtualClock clock;
    std::shared_ptr<test::ModelledBackend> cpu, gpu, probe;
    std::shared_ptr<jobs::SpeedCalibration> calibration;
    jobs::BackendRegistry registry;

    explicit Setup(double gpu_compile = 0, std::filesystem::path file = fresh_speeds_file()) {
        cpu = std::make_shared<test::ModelledBackend>("cpu", clock, cpu_speed(), cpu_lanes);
        gpu = std::make_shared<test::ModelledBackend>("cuda", clock, gpu_speed(gpu_compile), gpu_lanes);
        probe = test::modelled_probe(clock);
        calibration = std::make_shared<jobs::SpeedCalibration>(std::move(file), clock.reader());
        registry.add(cpu);
        registry.add(gpu);
        registry.set_work_estimate(probe, calibration, clock.reader());
        // the predictions alone decide (a race runs both in real time: its own test below)
        registry.set_race(false);
    }
    jobs::BackendSelection pick(int systems, int sections) {
        return registry.select(study::BackendChoice::Auto, *study_of(systems, sections));
    }
    unsigned calibration_threads() const { return std::max(1u, std::thread::hardware_concurrency()); }
    // The modelled times of the study on each backend, with their compiles.
    double cpu_seconds(int systems, int sections) const {
        return cpu->seconds(std::size_t(systems), sections * test::section_work);
    }
    double gpu_seconds(int systems, int sections) const {
        return gpu->seconds(std::size_t(systems), sections * test::section_work);
    }
};

} // namespace

TEST_CASE("auto flips to the GPU where the modelled times cross", "[jobs][select][auto]") {
    Setup setup;
    SECTION("along the integration length, 2000 systems") {
        // closed form: 0.002 + w*2000*0.05/64 = 0.05 + 2000e-7 + w*1.0, w = sections/1000
        const double crossing = 1000 * (0.05 + 2000e-7 - 0.002) / (2000 * 0.05 / 64 - 1.0);
        REQUIRE(crossing == Approx(85.7).epsilon(0.01));
        const auto shorter = setup.pick(2000, 70);
        CHECK(shorter.backend == setup.cpu);
        CHECK(setup.cpu_seconds(2000, 70) < setup.gpu_seconds(2000, 70));
        const auto longer = setup.pick(2000, 110);
        CHECK(longer.backend == setup.gpu);
        CHECK(setup.gpu_seconds(2000, 110) < setup.cpu_seconds(2000, 110));
        REQUIRE(longer.notes.size() == 1);
        const std::string& note = longer.notes[0];
        INFO(note);
        CHECK(note.rfind("auto: 2000 systems of 0.11 s of evaluator work each: ", 0) == 0);
        CHECK(note.find("cuda ~0.16 s, cpu ~0.17 s on ") != std::string::npos);
        CHECK(note.find("; running on cuda (measured in ") != std::string::npos);
        CHECK(shorter.notes.at(0).find("; running on cpu (measured in ") != std::string::npos);
    }
    SECTION("too few systems for the GPU to win at any length: decided without the probe") {
        REQUIRE(setup.pick(2000, 110).backend == setup.gpu); // calibrated now
        const int probes = setup.probe->runs;
        // per unit of work: cpu 200*0.05/64 = 0.16, cuda 1.0; cuda 48 ms more to start. Even a
        // model twice as fast on the GPU and twice as slow on the CPU as the reference would
        // leave the CPU ahead: no factor is measured either.
        const int gpu_runs = setup.gpu->runs, cpu_runs = setup.cpu->runs;
        const auto s =
            setup.registry.select(study::BackendChoice::Auto, *other_model(*study_of(200, 100000)));
        CHECK(s.backend == setup.cpu);
        CHECK(setup.probe->runs == probes);
        CHECK(setup.gpu->runs == gpu_runs);
        CHECK(setup.cpu->runs == cpu_runs);
        CHECK(s.notes.at(0) == "auto: 200 systems: cuda is slower at any length of integration (x6.4 per "
                               "unit of work, 48 ms more to start, cpu on " +
                                   std::to_string(setup.calibration_threads()) + " threads); running on cpu");
    }
    SECTION("where the lines do not cross but a model's own speed could change the choice, it is measured") {
        REQUIRE(setup.pick(2000, 110).backend == setup.gpu); // calibrated now
        // per unit of work: cpu 1000*0.05/64 = 0.78, cuda 1.0: the CPU is ahead, but not by the
        // factor of two a model may run faster on a GPU than the reference does
        const int probes = setup.probe->runs;
        const auto s =
            setup.registry.select(study::BackendChoice::Auto, *other_model(*study_of(1000, 100000)));
        CHECK(s.backend == setup.cpu);
        CHECK(setup.probe->runs > probes);
        INFO(s.notes.at(0));
        CHECK(s.notes.at(0).find("against the reference's: cuda x1, cpu x1 (measured in ") !=
              std::string::npos);
        // the same study again: its factors were measured on it, nothing runs to choose
        const int cpu_runs = setup.cpu->runs, gpu_runs = setup.gpu->runs, probe_runs = setup.probe->runs;
        const auto again =
            setup.registry.select(study::BackendChoice::Auto, *other_model(*study_of(1000, 100000)));
        CHECK(again.backend == setup.cpu);
        CHECK(setup.cpu->runs == cpu_runs);
        CHECK(setup.gpu->runs == gpu_runs);
        CHECK(setup.probe->runs == probe_runs);
    }
    SECTION("along the system count, 300 sections each") {
        // 0.002 + 0.3*n*0.05/64 = 0.05 + n*1e-7 + 0.3*max(1, 3e-4*n)
        const double crossing = (0.05 + 0.3 - 0.002) / (0.3 * 0.05 / 64 - 1e-7);
        REQUIRE(crossing == Approx(1485).epsilon(0.01));
        CHECK(setup.pick(1300, 300).backend == setup.cpu);
        CHECK(setup.pick(1700, 300).backend == setup.gpu);
        CHECK(setup.pick(200000, 300).backend == setup.gpu);
    }
    SECTION("a continuation's chains run one system after another: one chain's work is its length") {
        // 2000 chains of 10 systems of 30 sections: 0.3 s of work per chain, beyond the crossing at
        // 0.086 s (a system's 0.03 s alone would fall short of it)
        study::Study c = study_of(1, 30)->study;
        c.sweep = {{study::SweepTarget::Parameter, "k", 0.0, 1.0, 5, study::SweepScale::Linear},
                   {study::SweepTarget::Parameter, "b", 0.1, 0.5, 2000, study::SweepScale::Linear}};
        c.bifurcation.continuation = true;
        const auto chains = study::resolve_study(c, "").resolved;
        REQUIRE(chains);
        REQUIRE(chains->chain_count() == 2000);
        const auto s = setup.registry.select(study::BackendChoice::Auto, *chains);
        INFO(s.notes.at(0));
        CHECK(s.backend == setup.gpu);
        CHECK(s.notes.at(0).rfind("auto: 2000 continuation chains of 0.3 s of evaluator work each", 0) == 0);
    }
}

TEST_CASE("a model's own speed on each backend is measured once and kept", "[jobs][select][auto][model]") {
    // Issue 33: Keller-Miksis at 100 systems went to an H100 that took 6.9 s where 16 cores took
    // 0.85 s: a GPU thread spends far more on its pow and exp per unit of evaluator work than on
    // the calibration's Ueda oscillator. Here the study's model runs 10 times slower on the GPU
    // than the reference model per unit of work, and 2 times faster on the CPU.
    const auto file = fresh_speeds_file();
    Setup setup(0, file);
    const auto study = study_of(2000, 300);
    setup.gpu->model_factors[study->study.model.text] = 10;
    setup.cpu->model_factors[study->study.model.text] = 0.5;
    // the reference's speeds alone: cpu 0.002 + 0.3*2000*0.05/64 = 0.47 s, cuda 0.05 + 2000e-7 +
    // 0.3*max(1, 0.6) = 0.35 s; with the model's: cpu 0.24 s, cuda 3.05 s
    const double cpu_time = setup.cpu->seconds(2000, 0.3, 0, 0.5);
    const double gpu_time = setup.gpu->seconds(2000, 0.3, 0, 10);
    REQUIRE(cpu_time == Approx(0.236).epsilon(0.01));
    REQUIRE(gpu_time == Approx(3.05).epsilon(0.01));
    REQUIRE(setup.gpu_seconds(2000, 300) < setup.cpu_seconds(2000, 300));

    const auto first = setup.registry.select(study::BackendChoice::Auto, *study);
    CHECK(first.backend == setup.cpu);
    REQUIRE(first.notes.size() == 1);
    INFO(first.notes[0]);
    CHECK(first.notes[0].find("against the reference's: cuda x10, cpu x0.5 (measured in ") !=
          std::string::npos);
    const auto kept = jobs::machine_speeds_from_json(read_text(file));
    REQUIRE(kept);
    const std::string key = jobs::model_speed_key(*study, jobs::study_source(*study));
    CHECK(kept->model_factor(key, "cuda") == Approx(10).epsilon(1e-6));
    CHECK(kept->model_factor(key, "cpu") == Approx(0.5).epsilon(1e-6));

    SECTION("another process reads the factors and runs nothing to choose") {
        Setup again(0, file);
        again.gpu->model_factors = setup.gpu->model_factors;
        const auto s = again.registry.select(study::BackendChoice::Auto, *study);
        CHECK(s.backend == again.cpu);
        CHECK(again.probe->runs == 0);
        CHECK(again.gpu->runs == 0);
        CHECK(again.cpu->runs == 0);
        INFO(s.notes.at(0));
        CHECK(s.notes.at(0).find("cuda is slower at any length of integration") != std::string::npos);
        CHECK(s.notes.at(0).find("cuda x10, cpu x0.5 (measured by an earlier run)") != std::string::npos);
    }
    SECTION("another size of the same model uses them; another model is measured anew") {
        const int gpu_runs = setup.gpu->runs;
        CHECK(setup.pick(20000, 300).backend == setup.cpu); // cuda 0.05 + 0.3*10*6 = 18 s, cpu 2.3 s
        CHECK(setup.gpu->runs == gpu_runs);
        CHECK(setup.registry.select(study::BackendChoice::Auto, *other_model(*study)).backend == setup.gpu);
        CHECK(setup.gpu->runs > gpu_runs);
        CHECK(jobs::machine_speeds_from_json(read_text(file))->models.size() == 2);
    }
    SECTION("a damaged factor in the file is dropped, the rest of the calibration kept") {
        std::string text = read_text(file);
        const std::size_t at = text.find("\"cuda\": ", text.find("\"factors\""));
        REQUIRE(at != std::string::npos);
        text = text.substr(0, at + 8) + "-" +
               text.substr(at + 8); // (insert: a -Wrestrict false alarm in g++ 12)
        const auto read = jobs::machine_speeds_from_json(text);
        REQUIRE(read);
        CHECK(read->model_factor(key, "cuda") == 0);
        CHECK(read->model_factor(key, "cpu") == Approx(0.5));
    }
    std::filesystem::remove_all(file.parent_path());
}

TEST_CASE("where the predictions cannot tell, both backends race and the winner is kept",
          "[jobs][select][auto][race]") {
    // Issue 33: rossler_bifurcation at 89 systems and duffing_period_map at 64 took an H100 3.7-5.7
    // times what the heaviest of the probe's samples predicted: a GPU that runs every system at
    // once takes its slowest warp's time. Here 2% of the sweep (k in (0.6, 0.62), between the
    // samples at 0.5 and 0.75) is 20 times as heavy as the rest: the samples say cuda 0.35 s, cpu
    // 0.47 s, while the GPU would wait 6 s for its heaviest system.
    Setup setup;
    REQUIRE(setup.pick(2000, 110).backend == setup.gpu); // calibrated now
    setup.registry.set_race(true);
    const auto spike = [](double k) { return k > 0.6 && k < 0.62 ? 20.0 : 1.0; };
    setup.cpu->weight = setup.gpu->weight = setup.probe->weight = spike;
    const auto study = other_model(*study_of(2000, 300)); // a model without factors yet
    const auto s = setup.registry.select(study::BackendChoice::Auto, *study);
    REQUIRE(s.backend);
    CHECK(s.backend->name() == "cuda+cpu"); // the prediction first
    REQUIRE(s.notes.size() == 1);
    INFO(s.notes[0]);
    CHECK(s.notes[0].find("cuda ~0.35 s, cpu ~0.47 s on ") != std::string::npos);
    CHECK(s.notes[0].find("; too close to call: cpu and cuda race, the first to finish is kept") !=
          std::string::npos);

    SECTION("the job runs the race; the study's next run goes to its winner") {
        setup.gpu->blocks = true; // far slower than the CPU: stopped when the CPU finishes
        jobs::JobOptions options;
        options.backend = study::BackendChoice::Auto;
        auto job = jobs::submit(setup.registry, study, options);
        job->wait();
        REQUIRE(job->result());
        const study::RunInfo& info = job->result()->info;
        CHECK(info.complete);
        CHECK(info.backend == "cpu");
        bool raced = false;
        for (const std::string& n : info.notes)
            raced = raced || n.rfind("auto: cpu and cuda raced; cpu finished first (", 0) == 0;
        CHECK(raced);
        const int gpu_runs = setup.gpu->runs;
        const auto again = setup.registry.select(study::BackendChoice::Auto, *study);
        CHECK(again.backend == setup.cpu);
        INFO(again.notes.at(0));
        CHECK(again.notes.at(0).find("; running on cpu (cpu won the race of an earlier run)") !=
              std::string::npos);
        CHECK(setup.gpu->runs == gpu_runs);
    }
    SECTION("without the race the prediction decides") {
        setup.registry.set_race(false);
        CHECK(setup.registry.select(study::BackendChoice::Auto, *study).backend == setup.gpu);
    }
}

TEST_CASE("a GPU whose code is not cached counts its compile", "[jobs][select][auto]") {
    Setup setup(2.0);
    const auto study = study_of(2000, 300);
    REQUIRE(!setup.gpu->ready(*study));
    const auto cold = setup.registry.select(study::BackendChoice::Auto, *study);
    CHECK(cold.backend == setup.cpu);
    INFO(cold.notes.at(0));
    CHECK(cold.notes.at(0).find("s of it compiling)") != std::string::npos);
    CHECK(setup.gpu_seconds(2000, 300) < setup.cpu_seconds(2000, 300)); // compiled, it would win
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    setup.gpu->prepare(*study, control);
    const auto warm = setup.registry.select(study::BackendChoice::Auto, *study);
    CHECK(warm.backend == setup.gpu);
    CHECK(warm.notes.at(0).find("compiling") == std::string::npos);
}

TEST_CASE("auto measures nothing where the GPU cannot win or is missing", "[jobs][select][auto]") {
    Setup setup;
    SECTION("no more systems than threads: the CPU, without asking the driver") {
        const std::atomic<bool> cancel{false};
        study::RunControl control(cancel, {}, 8);
        const auto s = setup.registry.select(study::BackendChoice::Auto, *study_of(8, 10000), &control);
        CHECK(s.backend == setup.cpu);
        CHECK(s.notes.at(0) == "auto: 8 systems, no more than the CPU's 8 threads; running on the CPU");
        CHECK(setup.gpu->asked == 0);
        CHECK(setup.probe->runs == 0);
    }
    SECTION("no GPU: the CPU, nothing measured, no file") {
        setup.gpu->available = false;
        const auto s = setup.pick(100000, 1000);
        CHECK(s.backend == setup.cpu);
        CHECK(s.notes.at(0) == "cuda: no device in this test; running on the CPU");
        CHECK(setup.probe->runs == 0);
        CHECK(setup.calibration->measured() == 0);
        CHECK(!std::filesystem::exists(setup.calibration->file()));
    }
    SECTION("explicit choices measure nothing") {
        CHECK(setup.registry.select(study::BackendChoice::Cpu, *study_of(100000, 100)).backend == setup.cpu);
        CHECK(setup.registry.select(study::BackendChoice::Cuda, *study_of(10, 100)).backend == setup.gpu);
        CHECK(setup.probe->runs == 0);
    }
    SECTION("a study the probe cannot run is decided by the count, and says so") {
        REQUIRE(setup.pick(2000, 110).backend == setup.gpu); // calibrated now
        setup.probe->supported = false;
        const auto s = setup.pick(2000, 111); // not 110: a study probed before is not probed again
        CHECK(s.backend == setup.cpu);
        CHECK(s.notes.at(0) ==
              "auto: the work could not be measured (not this study); deciding by the count: "
              "2000 systems; the CPU is faster for so few");
    }
}

TEST_CASE("a study run again is not probed again; any change to it is", "[jobs][select][auto][probe]") {
    Setup setup;
    const auto first = setup.pick(2000, 110);
    REQUIRE(first.backend == setup.gpu);
    const int probes = setup.probe->runs;
    REQUIRE(probes > 0);
    const auto again = setup.pick(2000, 110);
    CHECK(again.backend == setup.gpu);
    CHECK(setup.probe->runs == probes);
    INFO(again.notes.at(0));
    CHECK(again.notes.at(0).find("(measured by an earlier run)") != std::string::npos);
    // the same predictions as the first time
    CHECK(again.notes.at(0).substr(0, again.notes.at(0).find(" (measured")) ==
          first.notes.at(0).substr(0, first.notes.at(0).find(" (measured")));

    // each of these studies differs from the first in one thing the work depends on
    std::vector<study::Study> changed(4, study_of(2000, 110)->study);
    changed[0].solver.rtol.all = 1e-9;
    changed[1].model.text.replace(changed[1].model.text.find("b=0.3"), 5, "b=0.4");
    changed[2].sweep[0].to = 0.9;
    changed[3].sweep[0].count = 2001;
    for (const study::Study& c : changed) {
        const auto resolved = study::resolve_study(c, "").resolved;
        REQUIRE(resolved);
        const int before = setup.probe->runs;
        (void)setup.registry.select(study::BackendChoice::Auto, *resolved);
        CHECK(setup.probe->runs > before);
    }
}

TEST_CASE("the calibration recovers the backends' speeds and keeps them in one file", "[jobs][calibration]") {
    const auto file = fresh_speeds_file();
    test::VirtualClock clock;
    test::ModelledBackend cpu("cpu", clock, cpu_speed(), cpu_lanes),
        gpu("cuda", clock, gpu_speed(1.5), gpu_lanes);
    const auto probe = test::modelled_probe(clock);
    const std::atomic<bool> cancel{false};
    jobs::SpeedCalibration first(file, clock.reader());
    const auto speeds = first.speeds_for({&cpu, &gpu}, *probe, cancel);
    REQUIRE(speeds);
    CHECK(first.measured() == 2);
    CHECK(speeds->reference_work == Approx(test::section_work));
    const jobs::BackendSpeed& g = speeds->backends.at("cuda");
    CHECK(g.single == Approx(1.0));
    CHECK(g.per_system == Approx(3e-4));
    CHECK(g.compile_seconds == Approx(1.5));
    CHECK(g.host == Approx(1e-7).margin(1e-8));
    CHECK(g.lanes == gpu_lanes);
    CHECK(g.device == "modelled cuda");
    CHECK(speeds->backends.at("cpu").per_system == Approx(0.05 / 64));
    REQUIRE(std::filesystem::exists(file));
    const std::string written = read_text(file);

    SECTION("a second process reads it and runs nothing") {
        const int runs = cpu.runs + gpu.runs + probe->runs;
        jobs::SpeedCalibration second(file, clock.reader());
        const auto again = second.speeds_for({&cpu, &gpu}, *probe, cancel);
        REQUIRE(again);
        CHECK(second.measured() == 0);
        CHECK(cpu.runs + gpu.runs + probe->runs == runs);
        CHECK(again->backends.at("cuda").per_system == g.per_system);
        CHECK(read_text(file) == written);
    }
    SECTION("a backend the file lacks is measured and added") {
        test::ModelledBackend other("other", clock, gpu_speed(), gpu_lanes);
        jobs::SpeedCalibration second(file, clock.reader());
        REQUIRE(second.speeds_for({&cpu, &gpu, &other}, *probe, cancel));
        CHECK(second.measured() == 1);
        CHECK(jobs::machine_speeds_from_json(read_text(file))->backends.count("other") == 1);
    }
    SECTION("a damaged or foreign file is ignored and rewritten") {
        const std::string damaged[] = {
            "{ not json",
            written.substr(0, written.size() / 2),
            std::string(written).replace(written.find("\"single\": "), 10, "\"single\": -"),
            std::string(written).replace(written.find(jobs::this_host()), jobs::this_host().size(),
                                         "elsewhere-"),
        };
        for (const std::string& text : damaged) {
            std::ofstream(file, std::ios::trunc) << text;
            jobs::SpeedCalibration second(file, clock.reader());
            REQUIRE(second.speeds_for({&cpu, &gpu}, *probe, cancel));
            CHECK(second.measured() == 2);
            const auto rewritten = jobs::machine_speeds_from_json(read_text(file));
            REQUIRE(rewritten);
            CHECK(rewritten->host == jobs::this_host());
            CHECK(rewritten->backends.at("cuda").single == Approx(1.0));
        }
    }
    SECTION("a backend that fails on the reference is not measured again") {
        const auto other_file = fresh_speeds_file();
        test::ModelledBackend broken("cuda", clock, gpu_speed(), gpu_lanes);
        broken.supported = false;
        jobs::SpeedCalibration failing(other_file, clock.reader());
        CHECK(!failing.speeds_for({&cpu, &broken}, *probe, cancel));
        const int runs = broken.runs + cpu.runs;
        CHECK(!failing.speeds_for({&cpu, &broken}, *probe, cancel));
        CHECK(broken.runs + cpu.runs == runs);
        CHECK(!std::filesystem::exists(other_file));
    }
    std::filesystem::remove_all(file.parent_path());
}

TEST_CASE("the probe's extrapolated work matches a whole run on the evaluator", "[jobs][probe]") {
    // A real study on the real compiler-free evaluator and the real clock: 400 sections of the
    // Duffing oscillator, the work per system from short slices against the time of whole systems.
    study::Study s = test::fake_study(3)->study;
    s.bifurcation.transient_sections = 398;
    s.solver.rtol.all = s.solver.atol.all = 1e-8;
    const auto study = study::resolve_study(s, "").resolved;
    REQUIRE(study);
    const auto evaluator = jobs::evaluator_stand_in();
    const std::atomic<bool> cancel{false};
    const jobs::WorkMeasure m = jobs::measure_work(*study, *evaluator, cancel, jobs::steady_seconds());
    REQUIRE(m.failure.empty());
    study::RunControl one_thread(cancel, {}, 1);
    const auto start = std::chrono::steady_clock::now();
    REQUIRE(evaluator->run(*study, one_thread).info.complete);
    const double whole = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 3;
    INFO("probe " << m.work << " s per system, whole run " << whole << " s, probe took " << m.probe_seconds);
    CHECK(m.work > whole / 2);
    CHECK(m.work < whole * 2);
    // that the probe runs a slice of the study, not the study, is checked by what it runs (below), not
    // by a clock: at this size its 20 ms minimum slice is about the whole study's time
}

TEST_CASE("the probe ends where its caller has decided, with the work of its last two slices",
          "[jobs][probe]") {
    // the modelled evaluator: 2 ms a run, 1 ms a section and system; 1000 sections
    test::VirtualClock clock;
    const auto probe = test::modelled_probe(clock);
    const auto study = study_of(500, 1000);
    const std::atomic<bool> never{false};
    jobs::ProbeOptions options;
    options.min_seconds = 1.0; // far more than any slice below takes
    const jobs::WorkMeasure full = jobs::measure_work(*study, *probe, never, clock.reader(), options);
    const int full_runs = probe->runs;
    std::vector<double> seen;
    options.decided = [&](double work, double spent, double slice) {
        seen.push_back(work);
        CHECK(spent > slice);
        return seen.size() == 2;
    };
    const int before = probe->runs;
    const jobs::WorkMeasure early = jobs::measure_work(*study, *probe, never, clock.reader(), options);
    // asked after the second slice (the first with a slice before it) and the third; stopped there
    // (each slice runs its five samples one by one)
    CHECK(probe->runs - before == 3 * 5);
    CHECK(full_runs > 3 * 5);
    REQUIRE(seen.size() == 2);
    // the slope drops the 2 ms a run: one system's 1000 sections are 1 s of evaluator work
    CHECK(early.work == Approx(1.0));
    CHECK(full.work == Approx(1.0));
    CHECK(early.probe_seconds < full.probe_seconds);
}

TEST_CASE("a probe slice keeps a spread of systems and a fraction of the length", "[jobs][probe]") {
    auto whole = std::make_shared<study::ResolvedStudy>(*study_of(1000, 400));
    double actual = 0;
    const study::ResolvedStudy slice = jobs::shortened_study(*whole, 0.1, 3, &actual);
    REQUIRE(slice.system_count() == 3);
    CHECK(slice.grid.whole_point(0) == 0);
    CHECK(slice.grid.whole_point(1) == 499);
    CHECK(slice.grid.whole_point(2) == 999);
    CHECK(slice.study.bifurcation.transient_sections + slice.study.bifurcation.recorded_sections == 41);
    CHECK(actual == Approx(41.0 / 400));
}

TEST_CASE("auto weighs the heaviest system: a GPU run waits for its slowest thread", "[jobs][select][auto]") {
    // Issue 33: keller_miksis_expansion_map at 121 systems went to a GPU that took 6 s where the
    // CPU took 1 s: the probe's mean work put the GPU ahead, yet a GPU thread, many times slower
    // than a core, takes the heaviest system's time alone. Here each system's work grows
    // tenfold along the sweep (1 + 9k); the probe samples k = 0, 1/4, ..., 1.
    Setup setup;
    REQUIRE(setup.pick(2000, 110).backend == setup.gpu); // calibrated with systems of equal work
    const auto ramp = [](double k) { return 1 + 9 * k; };
    // the uniform study of the ramp's mean work (5.5 * 30 sections) runs on the GPU
    const auto even = setup.pick(2000, 165);
    CHECK(even.backend == setup.gpu);
    setup.cpu->weight = setup.gpu->weight = setup.probe->weight = ramp;
    SECTION("2000 systems: the heaviest takes the GPU longer than the CPU takes them all") {
        // modelled: cpu 0.002 + 0.165*2000*0.05/64 = 0.26 s; cuda 0.05 + 2000e-7 + 0.3*1.0 = 0.35 s
        const double base = 30 * test::section_work;
        const double cpu_time = setup.cpu->seconds(2000, 5.5 * base, 10 * base);
        const double gpu_time = setup.gpu->seconds(2000, 5.5 * base, 10 * base);
        REQUIRE(cpu_time == Approx(0.260).epsilon(0.01));
        REQUIRE(gpu_time == Approx(0.350).epsilon(0.01));
        const auto spread = setup.pick(2000, 30);
        CHECK(spread.backend == setup.cpu);
        REQUIRE(spread.notes.size() == 1);
        INFO(spread.notes[0]);
        // the probe's slices round to whole sections: its works come out a tenth above the model's
        CHECK(spread.notes[0].find(" s the heaviest): cuda ~0.3") != std::string::npos);
        CHECK(spread.notes[0].find("; running on cpu (measured in ") != std::string::npos);
        // run again: the memo keeps the heaviest too
        const int probes = setup.probe->runs;
        CHECK(setup.pick(2000, 30).backend == setup.cpu);
        CHECK(setup.probe->runs == probes);
    }
    SECTION("20000 systems: the mean's throughput outweighs the heaviest, the GPU still wins") {
        // modelled: cpu 0.002 + 0.165*20000*0.05/64 = 2.6 s; cuda 0.052 + max(0.3, 0.99) = 1.0 s
        CHECK(setup.pick(20000, 30).backend == setup.gpu);
    }
}
