// How long equilibrium branches take on the CPU: the Lorenz C+ branch (200 points through its Hopf
// point), and the equilibrium branch of the 202-state Schnakenberg chain (exact Jacobian, eigenvalues
// of a 202 x 202 matrix at every point and every location step). Prints one line per case, in
// wall-clock and in this process's CPU time (on a loaded machine the wall clock also counts the time
// other processes held the cores).
#include "engine/continuation/equilibrium_branch.h"
#include "engine/continuation/equilibrium_finder.h"
#include "engine/model/parse.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

using namespace bif;

namespace {

model::Model load(const char* name) {
    model::ParseResult r =
        model::load_model_file(std::string(BIFSCOPE_SOURCE_DIR) + "/resources/models/" + name);
    if (!r.model) throw std::runtime_error(std::string("cannot load ") + name);
    return std::move(*r.model);
}

struct Seconds {
    double wall = INFINITY, cpu = INFINITY;
};

// The best of `repeats` runs.
template <class F>
Seconds best_seconds(int repeats, F&& f) {
    Seconds best;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        f();
        best.cpu = std::min(best.cpu, double(std::clock() - c0) / CLOCKS_PER_SEC);
        best.wall =
            std::min(best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

void report(const char* what, const cont::EquilibriumBranch& b, Seconds t) {
    int special = 0;
    for (const auto& p : b.points)
        special += !p.label.empty();
    std::printf("%-44s %5zu points (%d special) %10.3f ms wall %10.3f ms cpu\n", what, b.points.size(),
                special, t.wall * 1e3, t.cpu * 1e3);
}

} // namespace

int main() {
    const model::Model lorenz = load("lorenz.ode");
    const cont::ModelEquations eq(lorenz, {lorenz.parameter_index("rho")});
    const double beta = 8.0 / 3.0, r = 5.0, c = std::sqrt(beta * (r - 1));
    cont::ContinuationSettings s;
    s.initial_step = 0.05;
    s.max_step = 0.5;
    s.max_points = 200;
    s.box = {{3, 0.0, 1e6}};
    cont::EquilibriumBranch b;
    const Seconds lorenz_time = best_seconds(5, [&] {
        b = cont::continue_equilibrium(eq, {10, r, beta}, 0, {c, c, r - 1}, s);
    });
    report("Lorenz C+ in rho, 200 points", b, lorenz_time);

    const model::Model chain = load("schnakenberg_chain.ode");
    const cont::ModelEquations big(chain, {0});
    std::vector<double> values, y0;
    for (const auto& p : chain.parameters)
        values.push_back(p.value);
    for (const auto& st : chain.states)
        y0.push_back(st.initial);
    Eigen::VectorXd y = Eigen::Map<Eigen::VectorXd>(y0.data(), Eigen::Index(y0.size()));
    const std::vector<double> slots = big.slots(values);
    if (!cont::newton_equilibrium(big, slots.data(), y, 100, 1e-11)) {
        std::printf("Schnakenberg chain: no equilibrium from its initial state\n");
        return 0;
    }
    s.max_points = 50;
    s.box = {{int(chain.num_states()), -1e6, 1e6}};
    const std::vector<double> start(y.data(), y.data() + y.size());
    const Seconds chain_time =
        best_seconds(1, [&] { b = cont::continue_equilibrium(big, values, 0, start, s); });
    report("Schnakenberg chain (202 states), 50 points", b, chain_time);
    return 0;
}
