// The host evaluator of every .ode model against the independent muparser reference
// (tests/support), which reads the .ode text itself: right-hand sides, derived parameters, aux
// quantities, event conditions and event resets at 1000 random points per model. Every bundled
// model must be compared; the tests' own models only where the reference reads them.
#include "engine/codegen/host_model.h"
#include "tests/codegen/model_keys.h"
#include "tests/codegen/sampling.h"
#include "tests/support/muparser_reference.h"

#include <catch2/catch.hpp>
#include <cctype>

using bif::codegen::HostModel;
using bif::codegen::Precision;
using namespace bif::codegen_test;

namespace {

std::string lower(std::string s) {
    for (char& ch : s)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == lower(name)) return static_cast<int>(i);
    }
    return -1;
}

constexpr double kRel = 1e-13;
constexpr double kAbs = 1e-13;

} // namespace

TEST_CASE("host evaluator agrees with the muparser reference on every .ode model", "[codegen][muparser]") {
    const std::vector<std::string> files = ode_model_keys();
    REQUIRE(!files.empty());
    for (const std::string& path : files) {
        INFO(path);
        std::string error;
        auto reference = bif::testsupport::MuparserReference::load(path, &error);
        auto loaded = load_test_model(path, &error);
        if (!loaded) {
            FAIL_CHECK("our parser did not load it: " << error);
            continue;
        }
        if (!reference) {
            // The reference covers the language the bundled models use; the codegen tests' own
            // models go further on purpose (arret, for one).
            // XPPAUT's array blocks (%[i..j] ... %) are outside the reference's reader: the big chains
            // written with them are compared with xppaut itself (test_model_vs_xppaut) instead.
            const bool bundled =
                path.rfind(BIFSCOPE_MODELS_DIR, 0) == 0 && error.find("cannot read: %") == std::string::npos;
            if (bundled) FAIL_CHECK("the muparser reference did not load it: " << error);
            if (!bundled) WARN("not compared: the muparser reference does not read it: " << error);
            continue;
        }
        bif::model::Model m = std::move(*loaded);
        const HostModel host(make_test_request(m, Precision::Double, "H"));
        const std::size_t N = m.num_states(), P = m.num_parameters();
        REQUIRE(reference->state_names().size() == N);
        REQUIRE(reference->parameter_names().size() == P);
        for (std::size_t i = 0; i < N; ++i)
            REQUIRE(index_of(reference->state_names(), m.states[i].name) == int(i));
        for (std::size_t i = 0; i < P; ++i)
            REQUIRE(index_of(reference->parameter_names(), m.parameters[i].name) == int(i));
        // derived parameters and aux quantities by name (our derived slots are in dependency order)
        std::vector<int> derived_at, aux_at;
        for (const auto& d : m.derived)
            derived_at.push_back(index_of(reference->derived_names(), d.name));
        for (const auto& a : m.aux)
            aux_at.push_back(index_of(reference->aux_names(), a.name));
        REQUIRE(std::find(derived_at.begin(), derived_at.end(), -1) == derived_at.end());
        REQUIRE(std::find(aux_at.begin(), aux_at.end(), -1) == aux_at.end());
        REQUIRE(reference->num_events() == m.events.size());

        PointSampler sampler(m, 4242);
        std::vector<double> y, p, ours(N), theirs(N), our_aux(m.aux.size()), their_aux(m.aux.size());
        std::vector<double> our_g(host.event_count()), their_g(m.events.size());
        double t = 0.0;
        int mismatches = 0;
        std::string first;
        auto note = [&](bool ok, const std::string& what) {
            if (!ok && mismatches++ == 0) first = what;
        };
        for (int point = 0; point < 1000; ++point) {
            sampler.next(y, p, t);
            host.complete_parameters(p.data());
            const std::vector<double> derived = reference->derived_values(p.data());
            for (std::size_t k = 0; k < m.derived.size(); ++k) {
                note(
                    close(p[m.derived[k].slot], derived[static_cast<std::size_t>(derived_at[k])], kRel, kAbs),
                    "derived " + m.derived[k].name);
            }
            host.rhs(t, y.data(), p.data(), ours.data());
            reference->rhs(t, y.data(), p.data(), theirs.data());
            note(first_mismatch(ours.data(), theirs.data(), N, kRel, kAbs) < 0, "rhs");
            host.aux(t, y.data(), p.data(), our_aux.data());
            reference->aux(t, y.data(), p.data(), their_aux.data());
            for (std::size_t k = 0; k < m.aux.size(); ++k) {
                note(close(our_aux[k], their_aux[static_cast<std::size_t>(aux_at[k])], kRel, kAbs),
                     "aux " + m.aux[k].name);
            }
            host.events(t, y.data(), p.data(), our_g.data());
            reference->events(t, y.data(), p.data(), their_g.data());
            note(first_mismatch(our_g.data(), their_g.data(), m.events.size(), kRel, kAbs) < 0, "events");
            for (std::size_t k = 0; k < m.events.size(); ++k) {
                note(host.event_direction(static_cast<int>(k)) == reference->event_direction(k),
                     "event direction");
                std::vector<double> y1 = y, p1 = p, y2 = y, p2(p.begin(), p.begin() + static_cast<long>(P));
                host.apply_reset(static_cast<int>(k), t, y1.data(), p1.data());
                reference->apply_event(k, t, y2.data(), p2.data());
                note(first_mismatch(y1.data(), y2.data(), N, kRel, kAbs) < 0, "reset states");
                note(first_mismatch(p1.data(), p2.data(), P, kRel, kAbs) < 0, "reset parameters");
            }
        }
        INFO(mismatches << " mismatches; first: " << first);
        CHECK(mismatches == 0);
    }
}
