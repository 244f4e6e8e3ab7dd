#include "engine/study/section_suggestion.h"

#include "engine/study/model_options.h"

#include <charconv>
#include <cmath>
#include <map>
#include <numbers>
#include <unordered_map>
#include <vector>

namespace bif::study {

namespace {

using sym::NodeId;
using sym::Op;

// k * prod p_i^e_i over parameter slots: the coefficient of t in a forcing's argument.
struct Monomial {
    double k = 1.0;
    std::map<std::uint32_t, double> powers;
};

Monomial times(Monomial a, const Monomial& b, double sign = 1.0) {
    a.k = sign > 0 ? a.k * b.k : a.k / b.k;
    for (const auto& [slot, e] : b.powers)
        if ((a.powers[slot] += sign * e) == 0.0) a.powers.erase(slot);
    return a;
}

bool same_parameters(const Monomial& a, const Monomial& b) {
    return a.powers == b.powers;
}

class ForcingScan {
  public:
    explicit ForcingScan(const sym::ExprPool& pool) : pool_(pool) {}

    // Whether every t under `id` is a periodic forcing's; their frequencies go to found().
    bool periodic(NodeId id) {
        if (auto it = periodic_.find(id); it != periodic_.end()) return it->second;
        const bool result = scan(id);
        periodic_.emplace(id, result);
        return result;
    }
    const std::vector<Monomial>& found() const { return found_; }

  private:
    // Whether `leaf` (Time or State) occurs under `id`; remembered, as the pool shares subtrees.
    bool uses(NodeId id, Op leaf) const {
        auto& known = leaf == Op::Time ? uses_time_ : uses_state_;
        if (auto it = known.find(id); it != known.end()) return it->second;
        const sym::Node& n = pool_.node(id);
        bool result = n.op == leaf;
        for (int i = 0; i < sym::arity(n.op) && !result; ++i)
            result = uses(n.args[i], leaf);
        known.emplace(id, result);
        return result;
    }

    bool scan(NodeId id) {
        const sym::Node& n = pool_.node(id);
        if (n.op == Op::Time) return false; // t outside a sin or cos: a drift, not a forcing
        const bool trig = n.op == Op::Sin || n.op == Op::Cos || n.op == Op::Tan;
        if (trig && uses(n.args[0], Op::Time) && !uses(n.args[0], Op::State)) {
            const auto slope = slope_in_t(n.args[0]);
            if (!slope || slope->k == 0.0) return false;
            Monomial frequency = *slope;
            frequency.k = std::abs(frequency.k);
            found_.push_back(frequency);
            return true;
        }
        for (int i = 0; i < sym::arity(n.op); ++i)
            if (!periodic(n.args[i])) return false;
        return true;
    }

    // d(id)/dt when `id` is linear in t with a coefficient of constants and parameters.
    std::optional<Monomial> slope_in_t(NodeId id) const {
        if (!uses(id, Op::Time)) return Monomial{0.0, {}};
        const sym::Node& n = pool_.node(id);
        switch (n.op) {
        case Op::Time:
            return Monomial{};
        case Op::Neg: {
            auto s = slope_in_t(n.args[0]);
            if (s) s->k = -s->k;
            return s;
        }
        case Op::Add:
        case Op::Sub: {
            auto a = slope_in_t(n.args[0]), b = slope_in_t(n.args[1]);
            if (!a || !b) return std::nullopt;
            if (n.op == Op::Sub) b->k = -b->k;
            if (a->k == 0.0) return b;
            if (b->k == 0.0 || !same_parameters(*a, *b)) return b->k == 0.0 ? a : std::nullopt;
            a->k += b->k;
            return a;
        }
        case Op::Mul: {
            const bool left = uses(n.args[0], Op::Time);
            const auto s = slope_in_t(n.args[left ? 0 : 1]);
            const auto c = coefficient(n.args[left ? 1 : 0]);
            if (!s || !c || uses(n.args[left ? 1 : 0], Op::Time)) return std::nullopt;
            return times(*s, *c);
        }
        case Op::Div: {
            const auto s = slope_in_t(n.args[0]);
            const auto c = coefficient(n.args[1]);
            if (!s || !c || c->k == 0.0) return std::nullopt;
            return times(*s, *c, -1.0);
        }
        default:
            return std::nullopt;
        }
    }

    // A formula of constants and parameters as k * prod p^e.
    std::optional<Monomial> coefficient(NodeId id) const {
        const sym::Node& n = pool_.node(id);
        switch (n.op) {
        case Op::Constant:
            return Monomial{n.value, {}};
        case Op::Param:
            return Monomial{1.0, {{n.index, 1.0}}};
        case Op::Neg: {
            auto c = coefficient(n.args[0]);
            if (c) c->k = -c->k;
            return c;
        }
        case Op::Mul:
        case Op::Div: {
            const auto a = coefficient(n.args[0]), b = coefficient(n.args[1]);
            if (!a || !b || (n.op == Op::Div && b->k == 0.0)) return std::nullopt;
            return times(*a, *b, n.op == Op::Mul ? 1.0 : -1.0);
        }
        case Op::Pow: {
            const auto a = coefficient(n.args[0]);
            const sym::Node& e = pool_.node(n.args[1]);
            if (!a || e.op != Op::Constant) return std::nullopt;
            Monomial m{std::pow(a->k, e.value), {}};
            for (const auto& [slot, p] : a->powers)
                m.powers[slot] = p * e.value;
            return m;
        }
        default:
            return std::nullopt;
        }
    }

    const sym::ExprPool& pool_;
    std::unordered_map<NodeId, bool> periodic_;
    mutable std::unordered_map<NodeId, bool> uses_time_, uses_state_;
    std::vector<Monomial> found_;
};

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-12 * std::abs(b);
}

std::string shortest(double v) {
    char buffer[32];
    const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, r.ptr);
}

std::string parameter_name(const model::Model& model, std::uint32_t slot) {
    if (slot < model.parameters.size()) return model.parameters[slot].name;
    for (const auto& d : model.derived)
        if (d.slot == slot) return d.name;
    return {};
}

std::string product(const std::vector<std::string>& factors) {
    std::string text;
    for (const std::string& f : factors)
        text += (text.empty() ? "" : "*") + f;
    return text;
}

// 2*pi / frequency as a formula: "2*pi/omega", "T", "2*pi/(3*w)", "2*pi".
std::optional<std::string> period_text(const model::Model& model, const Monomial& frequency) {
    std::vector<std::string> over, under;
    const double factor = 2 * std::numbers::pi / frequency.k;
    if (near(factor, 2 * std::numbers::pi)) {
        over.push_back("2*pi");
    } else if (shortest(frequency.k).size() <= 6) {
        over.push_back("2*pi");
        under.push_back(shortest(frequency.k));
    } else if (!near(factor, 1.0)) {
        over.push_back(shortest(factor));
    }
    for (const auto& [slot, e] : frequency.powers) {
        const std::string name = parameter_name(model, slot);
        if (name.empty()) return std::nullopt;
        const double power = std::abs(e);
        const std::string term = power == 1.0 ? name : name + "^" + shortest(power);
        (e < 0 ? over : under).push_back(term);
    }
    std::string text = over.empty() ? "1" : product(over);
    if (under.size() == 1) text += "/" + under.front();
    if (under.size() > 1) text += "/(" + product(under) + ")";
    return text;
}

// The slowest frequency when every other is a whole multiple of it.
const Monomial& fundamental(const std::vector<Monomial>& found) {
    const Monomial* slowest = &found.front();
    for (const Monomial& f : found)
        if (same_parameters(f, *slowest) && f.k < slowest->k) slowest = &f;
    for (const Monomial& f : found) {
        const double ratio = f.k / slowest->k;
        if (!same_parameters(f, *slowest) || std::abs(ratio - std::round(ratio)) > 1e-9) return found.front();
    }
    return *slowest;
}

} // namespace

std::optional<std::string> forcing_period(const model::Model& model) {
    if (model.is_map()) return std::nullopt;
    ForcingScan scan(model.pool);
    for (const model::StateVariable& s : model.states)
        if (!scan.periodic(s.rhs)) return std::nullopt;
    if (scan.found().empty()) return std::nullopt;
    return period_text(model, fundamental(scan.found()));
}

SuggestedSection suggested_section(const model::Model& model) {
    SuggestedSection out;
    if (model.is_map()) {
        out.section = Section{SectionKind::Stroboscopic, "1", "", CrossingDirection::Rising, 0.0};
        out.why = "every iterate of the map";
        return out;
    }
    if (const auto period = forcing_period(model)) {
        out.section.kind = SectionKind::Stroboscopic;
        out.section.period = *period;
        out.why = "the forcing period " + *period;
        return out;
    }
    const ModelDefaults defaults = model_defaults(model);
    for (const OptionUse& use : defaults.used)
        if (use.path == "analysis.section") {
            out.section = defaults.study.bifurcation.section;
            out.why = "the model's " + use.note;
            return out;
        }
    if (model.states.empty()) return out;
    // XPPAUT's POIVAR defaults to the first state: a poipln alone is a level of that state.
    const std::string& first = model.states.front().name;
    out.section.kind = SectionKind::Event;
    out.section.direction = CrossingDirection::Rising;
    const model::Option* plane = model.option("poipln");
    double level = 0.0;
    if (plane) std::from_chars(plane->value.data(), plane->value.data() + plane->value.size(), level);
    out.section.condition = level == 0.0 ? first : first + "-(" + shortest(level) + ")";
    out.why = "where " + out.section.condition + " crosses zero going up";
    return out;
}

bool section_is_empty(const Section& section) {
    const std::string& text = section.kind == SectionKind::Stroboscopic ? section.period : section.condition;
    return text.find_first_not_of(" \t") == std::string::npos;
}

} // namespace bif::study
