// generate_source: the struct of kernels/bif/model_contract.h, one member function at a time.
#include "engine/codegen/codegen.h"

#include "engine/codegen/cpp_writer.h"
#include "engine/codegen/jacobian_pattern.h"
#include "engine/codegen/lowering.h"
#include "engine/codegen/model_functions.h"
#include "engine/codegen/nonfinite_persistence.h"

#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace bif::codegen {

namespace {

using detail::Block;
using detail::CppWriter;
using detail::JacobianPattern;
using detail::ModelFunctions;

const std::string kBody = "        ";       // statements of a member function
const std::string kNested = kBody + "    "; // statements inside a case or a block
// Above this many stores a function stores each value as soon as it is computed.
constexpr std::size_t kInterleaveLimit = 64;

bool is_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    return true;
}

std::string indexed(const char* array, std::size_t i) {
    return std::string(array) + "[" + std::to_string(i) + "]";
}

// A parameter declaration, unnamed when the body does not read it (no -Wunused-parameter).
std::string parameter(const char* type, const char* name, bool used) {
    return std::string(type) + (used ? std::string(" ") + name : std::string());
}

class SourceWriter {
  public:
    SourceWriter(const ModelFunctions& f, Precision precision)
        : f_(f), precision_(precision), w_(f.pool, precision) {}

    std::string complete_parameters();
    // rhs, jacobian, time_derivative, events, aux, observables: out[i] = roots[i]
    std::string array_function(const char* name, const char* out, const std::vector<sym::NodeId>& roots);
    // The dense Jacobian; above the dense limit only its nonzeros, after a loop that zeroes J.
    std::string jacobian(const JacobianPattern& pattern);
    // J(i, j) at kernels/bif/banded_lu.h's band_index(i, j, kl, ku), for the banded LU.
    std::string jacobian_band(const JacobianPattern& pattern);
    std::string event_direction() const;
    std::string apply_reset();
    std::string event_gradient();
    std::string reset_jacobian();

  private:
    void begin() {
        w_.reset_usage();
        w_.reset_temporaries();
        body_.clear();
    }
    // `(real t, const real* y, const real* p, real* out)` with the unread ones unnamed
    std::string standard_parameters(const char* out, bool out_used) const {
        return parameter("real", "t", w_.used_time()) + ", " +
               parameter("const real*", "y", w_.used_states()) + ", " +
               parameter("const real*", "p", w_.used_params()) + ", " + parameter("real*", out, out_used);
    }
    std::string finish(const char* result, const char* name, const std::string& parameters) const {
        return std::string("    BIF_HD static ") + result + " " + name + "(" + parameters + ") {\n" + body_ +
               "    }\n";
    }
    // out[index] = value for the given entries, after `for (i < zero_count) out[i] = 0` when
    // zero_count is not empty.
    std::string stores_function(const char* name, const char* out, const std::string& zero_count,
                                const std::vector<std::pair<std::size_t, sym::NodeId>>& entries);
    void reset_case(std::size_t k);
    void reset_jacobian_case(std::size_t k);
    bool any_saltation() const {
        for (const detail::EventSaltation& e : f_.saltation)
            if (e.maps_tangent) return true;
        return false;
    }

    const ModelFunctions& f_;
    Precision precision_;
    CppWriter w_;
    std::string body_;
};

std::string SourceWriter::complete_parameters() {
    begin();
    // Dependency order: each derived slot is stored before a later formula reads it.
    for (const detail::DerivedSlot& d : f_.derived) {
        body_ += kBody + "{\n";
        const std::size_t mark = w_.write_block(detail::lower(f_.pool, {d.formula}), kNested, body_);
        body_ += kNested + indexed("p", d.slot) + " = " + w_.value(d.formula) + ";\n";
        w_.end_scope(mark);
        body_ += kBody + "}\n";
    }
    return finish("void", "complete_parameters", parameter("real*", "p", !f_.derived.empty()));
}

std::string SourceWriter::array_function(const char* name, const char* out,
                                         const std::vector<sym::NodeId>& roots) {
    std::vector<std::pair<std::size_t, sym::NodeId>> entries;
    for (std::size_t i = 0; i < roots.size(); ++i)
        entries.emplace_back(i, roots[i]);
    return stores_function(name, out, "", entries);
}

std::string SourceWriter::stores_function(const char* name, const char* out, const std::string& zero_count,
                                          const std::vector<std::pair<std::size_t, sym::NodeId>>& entries) {
    begin();
    std::vector<sym::NodeId> roots;
    for (const auto& [index, node] : entries)
        roots.push_back(node);
    const detail::Block block = detail::lower(f_.pool, roots);
    const bool big = entries.size() > kInterleaveLimit;
    if (!zero_count.empty())
        body_ +=
            kBody + "for (int i = 0; i < " + zero_count + "; ++i)\n" + kNested + out + "[i] = real(0);\n";
    std::size_t mark = 0;
    if (!big) {
        // All values first, then the stores, so that no store can be seen by a later load.
        mark = w_.write_block(block, kBody, body_);
        for (const auto& [index, node] : entries)
            body_ += kBody + indexed(out, index) + " = " + w_.value(node) + ";\n";
    } else {
        // Each store right after its value: a thousand values live at once make g++'s register
        // allocation and combiner pass take minutes. The states are copied first (below), so a
        // store into an `out` that aliases y is still never seen by a later load.
        std::unordered_multimap<sym::NodeId, std::size_t> stores;
        for (const auto& [index, node] : entries)
            stores.emplace(node, index);
        const auto store = [&](sym::NodeId node) {
            const auto [first, last] = stores.equal_range(node);
            for (auto it = first; it != last; ++it)
                body_ += kBody + indexed(out, it->second) + " = " + w_.value(node) + ";\n";
        };
        for (const auto& [index, node] : entries) // leaves and constants are no steps
            if (sym::arity(f_.pool.node(node).op) == 0)
                body_ += kBody + indexed(out, index) + " = " + w_.value(node) + ";\n";
        mark = w_.write_block(block, kBody, body_, store);
    }
    w_.end_scope(mark);
    if (big && w_.used_states()) {
        body_ = kBody + "real y[num_states];\n" + kBody + "for (int i = 0; i < num_states; ++i)\n" + kNested +
                "y[i] = y_in[i];\n" + body_;
    }
    std::string parameters = standard_parameters(out, !entries.empty() || !zero_count.empty());
    if (big && w_.used_states()) parameters.replace(parameters.find("const real* y"), 13, "const real* y_in");
    return finish(big ? "BIF_NOINLINE void" : "void", name, parameters);
}

std::string SourceWriter::jacobian(const JacobianPattern& pattern) {
    if (pattern.write_dense()) return array_function("jacobian", "J", f_.jacobian);
    std::vector<std::pair<std::size_t, sym::NodeId>> entries;
    for (std::size_t k : pattern.nonzeros)
        entries.emplace_back(k, f_.jacobian[k]);
    return stores_function("jacobian", "J", "num_states * num_states", entries);
}

std::string SourceWriter::jacobian_band(const JacobianPattern& pattern) {
    const auto n = static_cast<std::size_t>(pattern.n);
    const auto kl = static_cast<std::size_t>(pattern.lower_band);
    const auto ku = static_cast<std::size_t>(pattern.upper_band);
    std::vector<std::pair<std::size_t, sym::NodeId>> entries;
    for (std::size_t k : pattern.nonzeros) {
        const std::size_t i = k / n, j = k % n;
        // band_index(i, j, kl, ku) = j (2 kl + ku + 1) + kl + ku + i - j
        entries.emplace_back(j * (2 * kl + ku + 1) + kl + ku + i - j, f_.jacobian[k]);
    }
    return stores_function("jacobian_band", "B",
                           "num_states * (2 * jacobian_lower_band + jacobian_upper_band + 1)", entries);
}

std::string SourceWriter::event_direction() const {
    std::string body;
    if (f_.event_directions.empty()) {
        body = kBody + "return 0;\n";
    } else {
        body = kBody + "switch (k) {\n";
        for (std::size_t k = 0; k < f_.event_directions.size(); ++k) {
            body += kBody + "case " + std::to_string(k) + ": return " +
                    std::to_string(f_.event_directions[k]) + ";\n";
        }
        body += kBody + "default: return 0;\n" + kBody + "}\n";
    }
    return "    BIF_HD static int event_direction(" + parameter("int", "k", !f_.event_directions.empty()) +
           ") {\n" + body + "    }\n";
}

// One case of apply_reset: every value is computed, and slots read as values are copied, before
// the first assignment (XPPAUT applies a global event's resets simultaneously).
void SourceWriter::reset_case(std::size_t k) {
    const std::vector<model::Reset>& resets = f_.resets[k];
    std::vector<sym::NodeId> roots;
    for (const model::Reset& r : resets)
        roots.push_back(r.value);
    body_ += kBody + "case " + std::to_string(k) + ": {\n";
    const std::size_t mark = w_.write_block(detail::lower(f_.pool, roots), kNested, body_);
    std::vector<std::string> values;
    for (sym::NodeId r : roots) {
        const sym::Op op = f_.pool.node(r).op;
        const bool reads_slot = op == sym::Op::State || op == sym::Op::Param;
        values.push_back(reads_slot ? w_.bind(w_.value(r), kNested, body_) : w_.value(r));
    }
    std::string stop;
    bool param_reset = false;
    for (std::size_t i = 0; i < resets.size(); ++i) {
        const model::Reset& r = resets[i];
        if (r.target == model::Reset::Target::State)
            body_ += kNested + indexed("y", r.index) + " = " + values[i] + ";\n";
        if (r.target == model::Reset::Target::Param) {
            body_ += kNested + indexed("p", r.index) + " = " + values[i] + ";\n";
            param_reset = true;
        }
        if (r.target == model::Reset::Target::Stop) {
            stop += (stop.empty() ? "(" : " || (") + values[i] + " > " +
                    detail::real_literal(0.0, precision_) + ")";
        }
    }
    if (param_reset) body_ += kNested + "complete_parameters(p);\n";
    body_ += kNested + "return " + (stop.empty() ? "false" : stop) + ";\n";
    w_.end_scope(mark);
    body_ += kBody + "}\n";
}

std::string SourceWriter::apply_reset() {
    begin();
    bool any = false;
    for (std::size_t k = 0; k < f_.resets.size(); ++k)
        any = any || !f_.resets[k].empty();
    if (any) {
        body_ += kBody + "switch (k) {\n";
        for (std::size_t k = 0; k < f_.resets.size(); ++k) {
            if (!f_.resets[k].empty()) reset_case(k);
        }
        body_ += kBody + "default: break;\n" + kBody + "}\n";
    }
    body_ += kBody + "return false;\n";
    // apply_reset writes y and p whether or not a value reads them
    const std::string params = parameter("int", "k", any) + ", " + parameter("real", "t", w_.used_time()) +
                               ", " + parameter("real*", "y", any) + ", " + parameter("real*", "p", any);
    return finish("bool", "apply_reset", params);
}

// grad[0..N) = dg_k/dy, grad[N] = dg_k/dt; zeros for an event that maps no tangent vector.
std::string SourceWriter::event_gradient() {
    begin();
    const bool any = any_saltation();
    if (any) {
        body_ += kBody + "switch (k) {\n";
        for (std::size_t k = 0; k < f_.saltation.size(); ++k) {
            const detail::EventSaltation& e = f_.saltation[k];
            if (!e.maps_tangent) continue;
            body_ += kBody + "case " + std::to_string(k) + ": {\n";
            const std::size_t mark = w_.write_block(detail::lower(f_.pool, e.gradient), kNested, body_);
            for (std::size_t i = 0; i < e.gradient.size(); ++i)
                body_ += kNested + indexed("grad", i) + " = " + w_.value(e.gradient[i]) + ";\n";
            body_ += kNested + "return;\n";
            w_.end_scope(mark);
            body_ += kBody + "}\n";
        }
        body_ += kBody + "default: break;\n" + kBody + "}\n";
    }
    body_ += kBody + "for (int i = 0; i <= num_states; ++i)\n" + kNested + "grad[i] = real(0);\n";
    const std::string params = parameter("int", "k", any) + ", " + parameter("real", "t", w_.used_time()) +
                               ", " + parameter("const real*", "y", w_.used_states()) + ", " +
                               parameter("const real*", "p", w_.used_params()) + ", real* grad";
    return finish("void", "event_gradient", params);
}

// The rows of the states event k resets; the others stay those of the identity.
void SourceWriter::reset_jacobian_case(std::size_t k) {
    const detail::EventSaltation& e = f_.saltation[k];
    const std::size_t n = f_.rhs.size();
    body_ += kBody + "case " + std::to_string(k) + ": {\n";
    const std::size_t mark = w_.write_block(detail::lower(f_.pool, e.reset_rows), kNested, body_);
    for (std::size_t r = 0; r < e.rows.size(); ++r) {
        for (std::size_t l = 0; l < n; ++l) {
            body_ += kNested + indexed("DR", e.rows[r] * n + l) + " = " +
                     w_.value(e.reset_rows[r * (n + 1) + l]) + ";\n";
        }
        body_ +=
            kNested + indexed("dRdt", e.rows[r]) + " = " + w_.value(e.reset_rows[r * (n + 1) + n]) + ";\n";
    }
    body_ += kNested + "return true;\n";
    w_.end_scope(mark);
    body_ += kBody + "}\n";
}

std::string SourceWriter::reset_jacobian() {
    begin();
    const bool any = any_saltation();
    if (any) {
        body_ += kBody + "switch (k) {\n";
        for (std::size_t k = 0; k < f_.saltation.size(); ++k)
            if (f_.saltation[k].maps_tangent) body_ += kBody + "case " + std::to_string(k) + ":\n";
        body_ += kNested + "break;\n" + kBody + "default:\n" + kNested + "return false;\n" + kBody + "}\n";
        body_ += kBody + "for (int i = 0; i < num_states; ++i) {\n";
        body_ += kNested + "for (int j = 0; j < num_states; ++j)\n";
        body_ += kNested + "    DR[i * num_states + j] = i == j ? real(1) : real(0);\n";
        body_ += kNested + "dRdt[i] = real(0);\n" + kBody + "}\n";
        body_ += kBody + "switch (k) {\n";
        for (std::size_t k = 0; k < f_.saltation.size(); ++k)
            if (f_.saltation[k].maps_tangent && !f_.saltation[k].rows.empty()) reset_jacobian_case(k);
        body_ += kBody + "default: break;\n" + kBody + "}\n";
        body_ += kBody + "return true;\n";
    } else {
        body_ += kBody + "return false;\n";
    }
    const std::string params = parameter("int", "k", any) + ", " + parameter("real", "t", w_.used_time()) +
                               ", " + parameter("const real*", "y", w_.used_states()) + ", " +
                               parameter("const real*", "p", w_.used_params()) + ", " +
                               parameter("real*", "DR", any) + ", " + parameter("real*", "dRdt", any);
    return finish("bool", "reset_jacobian", params);
}

// table_K(x) and table_slope_K(x) for every table of the pool: the values as a constant array of
// the function (a function-local static, which NVRTC accepts as device data), looked up by
// bif::m::table_lookup, which repeats XPPAUT's arithmetic.
std::string table_functions(const sym::ExprPool& pool, Precision precision) {
    std::string s;
    auto lit = [&](double v) { return detail::real_literal(v, precision); };
    for (std::uint32_t k = 0; k < pool.table_count(); ++k) {
        const sym::Table& t = pool.table(k);
        const std::string n = std::to_string(t.y.size());
        std::string values;
        for (std::size_t i = 0; i < t.y.size(); ++i)
            values += (i == 0 ? "" : (i % 8 == 0 ? ",\n            " : ", ")) + lit(t.y[i]);
        const std::string data = "        static const real y[" + n + "] = {" + values + "};\n";
        const std::string id = std::to_string(k);
        s += "\n    BIF_HD static real table_" + id + "(real x) {\n" + data +
             "        return bif::m::table_lookup(y, " + n + ", " + lit(t.xlo) + ", " + lit(t.xhi) + ", " +
             lit(t.dx()) + ", x);\n    }\n";
        s += "    BIF_HD static real table_slope_" + id + "(real x) {\n" + data +
             "        return bif::m::table_slope(y, " + n + ", " + lit(t.xlo) + ", " + lit(t.dx()) +
             ", x);\n    }\n";
    }
    return s;
}

std::string constant_member(const char* name, std::size_t value) {
    return std::string("    static constexpr int ") + name + " = " + std::to_string(value) + ";\n";
}

std::string size_function(const char* name, const char* constant) {
    return std::string("    BIF_HD static constexpr int ") + name + "() { return " + constant + "; }\n";
}

// observable_state(k): the state variable that observable k is, or -1 (an orbit diagram of a state
// then stores the state itself instead of choosing among the observables at every iterate).
std::string observable_state_function(const ModelFunctions& f) {
    std::string cases;
    for (std::size_t k = 0; k < f.observables.size(); ++k) {
        const sym::Node& n = f.pool.node(f.observables[k]);
        if (n.op == sym::Op::State)
            cases += "        case " + std::to_string(k) + ": return " + std::to_string(n.index) + ";\n";
    }
    if (cases.empty()) return "    BIF_HD static constexpr int observable_state(int) { return -1; }\n";
    return "    BIF_HD static constexpr int observable_state(int k) {\n        switch (k) {\n" + cases +
           "        default: return -1;\n        }\n    }\n";
}

} // namespace

std::string generate_source(const Request& request) {
    if (!is_identifier(request.type_name)) {
        throw std::invalid_argument("codegen request: the type name is not a C++ identifier");
    }
    const ModelFunctions f = detail::collect_model_functions(request);
    const JacobianPattern pattern = detail::jacobian_pattern(f.pool, f.jacobian, f.num_states);
    SourceWriter writer(f, request.precision);
    std::string s;
    s += "// Generated by Bifscope from a model; the contract is kernels/bif/model_contract.h.\n";
    s += "#include \"bif/config.h\"\n\n";
    s += "struct " + request.type_name + " {\n";
    s += std::string("    using real = ") + (request.precision == Precision::Float ? "float" : "double") +
         ";\n";
    s += constant_member("num_states", f.rhs.size());
    s += constant_member("num_params", static_cast<std::size_t>(f.num_params));
    s += constant_member("num_param_slots", static_cast<std::size_t>(f.num_param_slots));
    s += constant_member("num_events", f.events.size());
    s += constant_member("num_aux", f.aux.size());
    s += constant_member("num_observables", f.observables.size());
    s += constant_member("jacobian_lower_band", static_cast<std::size_t>(pattern.lower_band));
    s += constant_member("jacobian_upper_band", static_cast<std::size_t>(pattern.upper_band));
    // a map whose orbits cannot come back from infinity (the orbit diagram's fast loop tests chunks)
    s += std::string("    static constexpr bool nonfinite_persists = ") +
         (detail::nonfinite_persists(f.pool, f.rhs) ? "true" : "false") + ";\n";
    s += size_function("dimension", "num_states");
    s += size_function("event_count", "num_events");
    s += size_function("param_slot_count", "num_param_slots");
    s += size_function("aux_count", "num_aux");
    s += size_function("observable_count", "num_observables");
    s += observable_state_function(f);
    s += table_functions(f.pool, request.precision);
    s.append("\n").append(writer.complete_parameters());
    s.append("\n").append(writer.array_function("rhs", "dydt", f.rhs));
    s.append("\n").append(writer.jacobian(pattern));
    if (pattern.banded_pays()) s.append("\n").append(writer.jacobian_band(pattern));
    s.append("\n").append(writer.array_function("time_derivative", "dfdt", f.time_derivative));
    s.append("\n").append(writer.array_function("events", "g", f.events));
    s.append("\n").append(writer.event_direction());
    s.append("\n").append(writer.apply_reset());
    s.append("\n").append(writer.event_gradient());
    s.append("\n").append(writer.reset_jacobian());
    if (request.tangent_derivatives) {
        s.append("\n").append(writer.array_function("hessian_vector", "Hv", f.hessian_vector));
        s.append("\n").append(writer.array_function("jacobian_time_vector", "Jtv", f.jacobian_time_vector));
    }
    s.append("\n").append(writer.array_function("aux", "a", f.aux));
    s.append("\n").append(writer.array_function("observables", "o", f.observables));
    s += "};\n";
    return s;
}

std::string source_hash(std::string_view text) {
    // FNV-1a, 64 bit: offset basis 14695981039346656037, prime 1099511628211
    std::uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace bif::codegen
