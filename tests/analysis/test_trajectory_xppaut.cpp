// Trajectory output against XPPAUT 6.11 itself (tests/models_xpp, see its README): the bundled
// Lorenz, van der Pol and Duffing models integrated with RK4 at XPPAUT's step dt and sampled every
// njmp steps agree with XPPAUT's output to its single-precision storage.
#include "analysis_support.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace bif;

namespace {

std::vector<std::vector<double>> read_rows(const std::string& file) {
    std::ifstream in(std::string(BIFSCOPE_SOURCE_DIR) + "/tests/models_xpp/" + file);
    REQUIRE(in);
    std::vector<std::vector<double>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<double> row;
        for (double v; fields >> v;)
            row.push_back(v);
        if (!row.empty()) rows.push_back(row);
    }
    return rows;
}

void compare(const char* model, const char* file, double dt, int njmp, const std::string& states) {
    const auto rows = read_rows(file);
    REQUIRE(rows.size() == 200);
    std::string times;
    for (std::size_t k = 0; k < rows.size(); ++k)
        times += (k ? ", " : "") + std::to_string(double(k) * njmp * dt);
    const study::Result r = analysis_test::run(
        R"({"bifscope_study": 1, "model": {"path": ")" + std::string(model) +
        R"("}, "analysis": {"kind": "trajectory", "times": [)" + times + R"(], "record": [)" + states + R"(]},
        "solver": {"method": "rk4", "initial_step": )" +
        std::to_string(dt) + "}}");
    REQUIRE(r.status[0] == study::SystemStatus::Ok);
    REQUIRE(r.points.rows_filled[0] == rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k)
        for (std::size_t c = 1; c < rows[k].size(); ++c) {
            INFO(model << " row " << k << " column " << c);
            CHECK(r.points.value(0, k, c) == Approx(rows[k][c]).epsilon(3e-7).margin(1e-6));
        }
}

} // namespace

TEST_CASE("RK4 trajectories agree with XPPAUT's", "[engine][trajectory]") {
    compare("lorenz.ode", "lorenz_rk4.dat", 0.001, 10, R"("x", "y", "z")");
    compare("vanderpol.ode", "vanderpol_rk4.dat", 0.005, 20, R"("x", "y")");
    compare("duffing.ode", "duffing_rk4.dat", 0.01, 10, R"("y1", "y2")");
}
