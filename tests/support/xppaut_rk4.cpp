#include "xppaut_rk4.h"

#include "muparser_reference.h"

#include <cfloat>
#include <cmath>

namespace bif::testsupport {
namespace {

constexpr double event_fraction_tolerance = 1e-10; // XPPAUT's STOL, bracketed by runs of 6.11
constexpr double event_jump_minimum = 1e-10;       // XPPAUT's tolmin on |f1 - f0|

class XppRk4 {
  public:
    XppRk4(MuparserReference& model, std::vector<double>& p)
        : model_(model), p_(p), n_(model.state_names().size()), k1_(n_), k2_(n_), k3_(n_), k4_(n_),
          stage_(n_), sum_(n_), condition_(model.num_events()), condition_start_(model.num_events()),
          hit_(model.num_events()), fraction_(model.num_events()) {}

    void start(double t, const std::vector<double>& y) {
        model_.events(t, y.data(), p_.data(), condition_.data());
    }

    // One output step of XPPAUT's rung_kut with flags: a step, cut and completed at events.
    void step(double& t, std::vector<double>& y, double dt) {
        double length = dt;
        for (std::size_t cuts = 0;; ++cuts) {
            const std::vector<double> y_old = y;
            const double t_old = t;
            rk4(t, y, length);
            double fraction = 0.0;
            if (!handle_events(y_old, t_old, y, t, &fraction)) break;
            length = (1.0 - fraction) * dt; // XPPAUT uses the full step here, not the cut one
            if (cuts + 1 > model_.num_events() + 2) break;
        }
    }

  private:
    // The classic fourth-order Runge-Kutta step, y += h*(k1/6 + k2/3 + k3/3 + k4/6), summed in
    // XPPAUT's order (one_step_rk4) so that even the rounding matches: an event exactly at the
    // end of a step depends on it.
    void rk4(double& t, std::vector<double>& y, double h) {
        const double* p = p_.data();
        model_.rhs(t, y.data(), p, k1_.data());
        for (std::size_t i = 0; i < n_; ++i) {
            sum_[i] = y[i] + h * k1_[i] / 6.0;
            stage_[i] = y[i] + h * k1_[i] * 0.5;
        }
        model_.rhs(t + 0.5 * h, stage_.data(), p, k2_.data());
        for (std::size_t i = 0; i < n_; ++i) {
            sum_[i] = sum_[i] + h * k2_[i] / 3.0;
            stage_[i] = y[i] + 0.5 * h * k2_[i];
        }
        model_.rhs(t + 0.5 * h, stage_.data(), p, k3_.data());
        for (std::size_t i = 0; i < n_; ++i) {
            sum_[i] = sum_[i] + h * k3_[i] / 3.0;
            stage_[i] = y[i] + h * k3_[i];
        }
        model_.rhs(t + h, stage_.data(), p, k4_.data());
        for (std::size_t i = 0; i < n_; ++i)
            y[i] = sum_[i] + h * k4_[i] / 6.0;
        t += h;
    }

    // Crossing test of one event between the values f0 and f1; sets its step fraction.
    bool crosses(int direction, double f0, double f1, double t_old, double* fraction) const {
        const bool jump = std::fabs(f1 - f0) > event_jump_minimum;
        if (direction == 1 && f0 < 0.0 && f1 > 0.0 && jump) return *fraction = f0 / (f0 - f1), true;
        if (direction == -1 && f0 > 0.0 && f1 <= 0.0 && jump) return *fraction = f0 / (f0 - f1), true;
        // XPPAUT's source stores the start time, not a fraction, for sign 0 (not checked by runs).
        if (direction == 0 && std::fabs(f1) < DBL_EPSILON) return *fraction = t_old, true;
        return false;
    }

    // XPPAUT's one_flag_step. Returns whether an event cut the step at *fraction of it.
    bool handle_events(const std::vector<double>& y_old, double t_old, std::vector<double>& y, double& t,
                       double* fraction) {
        const std::size_t ne = model_.num_events();
        if (ne == 0) return false;
        const double dt = t - t_old;
        const std::vector<double> before = condition_;
        model_.events(t, y.data(), p_.data(), condition_.data());
        double s = 2.0;
        for (std::size_t i = 0; i < ne; ++i) {
            fraction_[i] = 2.0;
            hit_[i] =
                crosses(model_.event_direction(i), before[i], condition_[i], t_old, &fraction_[i]) ? 1 : 0;
            s = std::min(s, fraction_[i]);
        }
        s = s < event_fraction_tolerance ? event_fraction_tolerance : (1.0 + event_fraction_tolerance) * s;
        if (s > 1.0) return false;
        t = t_old + dt * s;
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] = y_old[i] + s * (y[i] - y_old[i]);
        model_.events(t, y.data(), p_.data(), condition_start_.data());
        for (int round = 1;; ++round) {
            for (std::size_t i = 0; i < ne; ++i)
                if (hit_[i] == round && fraction_[i] <= s) model_.apply_event(i, t, y.data(), p_.data());
            // Events that the resets themselves make cross fire in the next round.
            model_.events(t, y.data(), p_.data(), condition_.data());
            bool new_hit = false;
            for (std::size_t i = 0; i < ne; ++i) {
                if (hit_[i] > 0) continue;
                const double f0 = condition_start_[i], f1 = condition_[i];
                const bool jump = std::fabs(f1 - f0) > event_jump_minimum;
                const int d = model_.event_direction(i);
                const bool fires = (d == 1 && f0 <= 0.0 && f1 >= 0.0 && jump) ||
                                   (d == -1 && f0 >= 0.0 && f1 <= 0.0 && jump) ||
                                   (d == 0 && f0 * f1 <= 0.0 && (f0 != 0.0 || f1 != 0.0) && jump);
                if (fires) {
                    fraction_[i] = s;
                    hit_[i] = round + 1;
                    new_hit = true;
                }
            }
            if (!new_hit) break;
        }
        *fraction = s;
        return true;
    }

    MuparserReference& model_;
    std::vector<double>& p_;
    std::size_t n_;
    std::vector<double> k1_, k2_, k3_, k4_, stage_, sum_;
    std::vector<double> condition_, condition_start_;
    std::vector<int> hit_;
    std::vector<double> fraction_;
};

std::vector<double> output_row(MuparserReference& model, double t, const std::vector<double>& y,
                               const std::vector<double>& p) {
    std::vector<double> row{t};
    row.insert(row.end(), y.begin(), y.end());
    std::vector<double> aux(model.aux_names().size());
    if (!aux.empty()) model.aux(t, y.data(), p.data(), aux.data());
    row.insert(row.end(), aux.begin(), aux.end());
    return row;
}

} // namespace

std::vector<std::vector<double>> integrate_like_xppaut_rk4(MuparserReference& model, std::vector<double> y,
                                                           std::vector<double>& p,
                                                           const XppRunSettings& run) {
    XppRk4 integrator(model, p);
    double t = run.t0;
    integrator.start(t, y);
    std::vector<std::vector<double>> rows{output_row(model, t, y, p)};
    const long steps = std::lround(run.total / run.dt);
    for (long step = 1; step <= steps; ++step) {
        integrator.step(t, y, run.dt);
        if (step % run.njmp == 0) rows.push_back(output_row(model, t, y, p));
    }
    return rows;
}

} // namespace bif::testsupport
