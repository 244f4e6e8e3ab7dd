// Reproduces XPPAUT 6.11's own output (tests/models_xpp/*.dat, see the README there) with the
// muparser reference and the XPPAUT-style RK4 driver: this checks both the reference data and the
// reading of XPPAUT's integration and event rules that later engine tests rely on.
#include "tests/support/muparser_reference.h"
#include "tests/support/xppaut_rk4.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using bif::testsupport::MuparserReference;
using bif::testsupport::XppRunSettings;

namespace {

std::vector<std::vector<double>> read_rows(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<std::vector<double>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<double> row;
        double value;
        while (fields >> value)
            row.push_back(value);
        if (!row.empty()) rows.push_back(row);
    }
    return rows;
}

// XPPAUT stores single-precision values and prints 8 significant digits.
bool close_to_stored(double computed, double stored) {
    return std::fabs(computed - stored) <= 2e-7 * std::fabs(stored) + 1e-9;
}

} // namespace

TEST_CASE("The muparser reference with XPPAUT's RK4 and event rules reproduces XPPAUT output",
          "[muparser_reference][xppaut]") {
    const std::string models = BIFSCOPE_MODELS_DIR;
    const std::string data = std::string(BIFSCOPE_SOURCE_DIR) + "/tests/models_xpp";
    struct Case {
        std::string dat, ode;
        XppRunSettings run;
    };
    const auto c = GENERATE_COPY(values<Case>({
        {"lorenz_rk4.dat", models + "/lorenz.ode", {0.0, 0.001, 10, 1.99}},
        {"vanderpol_rk4.dat", models + "/vanderpol.ode", {0.0, 0.005, 20, 19.9}},
        {"duffing_rk4.dat", models + "/duffing.ode", {0.0, 0.01, 10, 19.9}},
        {"relief_valve_rk4.dat", models + "/relief_valve.ode", {0.0, 0.001, 25, 4.975}},
        {"lif_reset.dat", data + "/lif_reset.ode", {0.0, 0.01, 5, 9.95}},
        {"ramp_reset.dat", data + "/ramp_reset.ode", {0.0, 0.01, 5, 3.0}},
        {"ramp_on_grid.dat", data + "/ramp_on_grid.ode", {0.0, 0.1, 1, 2.0}},
    }));
    INFO(c.dat);
    std::string error;
    auto model = MuparserReference::load(c.ode, &error);
    INFO(error);
    REQUIRE(model);
    auto p = model->default_parameters();
    const auto computed = integrate_like_xppaut_rk4(*model, model->initial_state(), p, c.run);
    const auto stored = read_rows(data + "/" + c.dat);
    REQUIRE(computed.size() == stored.size());
    for (std::size_t r = 0; r < stored.size(); ++r) {
        REQUIRE(computed[r].size() == stored[r].size());
        for (std::size_t k = 0; k < stored[r].size(); ++k) {
            INFO("row " << r << " column " << k << ": " << computed[r][k] << " vs " << stored[r][k]);
            CHECK(close_to_stored(computed[r][k], stored[r][k]));
        }
    }
}
