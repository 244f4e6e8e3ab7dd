#include "engine/model/network.h"

#include "engine/model/diagnostic_sink.h"
#include "engine/model/text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace bif::model::detail {

namespace {

constexpr long kMaxNetworkTerms = 2000000; // all outputs together, unrolled

struct Shape {
    Network::Kind kind;
    bool with_function;
    std::size_t arguments;
};

std::optional<Shape> shape_of(const std::string& kind) {
    if (kind == "conv") return Shape{Network::Kind::Conv, false, 5};
    if (kind == "sparse") return Shape{Network::Kind::Sparse, false, 5};
    if (kind == "mmult") return Shape{Network::Kind::MMult, false, 4};
    if (kind == "fconv") return Shape{Network::Kind::Conv, true, 7};
    if (kind == "fsparse") return Shape{Network::Kind::Sparse, true, 7};
    if (kind == "fmmult") return Shape{Network::Kind::MMult, true, 6};
    return std::nullopt;
}

class Checker {
  public:
    Checker(const SpecialDeclaration& d, const Scope& scope, const sym::ExprPool& pool, DiagnosticSink& sink)
        : d_(d), scope_(scope), pool_(pool), sink_(sink) {}

    std::optional<Network> run() {
        const auto shape = shape_of(d_.kind);
        if (!shape) {
            const bool random = d_.kind == "gill";
            fail(d_.kind_where,
                 random ? "`gill` networks (Gillespie's stochastic algorithm) need random numbers, which "
                          "Bifscope does not support yet"
                        : "the network operator " + quoted(d_.kind) +
                              " is not supported (conv, sparse, mmult, fconv, fsparse, fmmult are)");
            return std::nullopt;
        }
        if (d_.arguments.size() != shape->arguments) {
            fail(d_.kind_where,
                 quoted(d_.kind) + " takes " + std::to_string(shape->arguments) + " arguments");
            return std::nullopt;
        }
        Network net;
        net.kind = shape->kind;
        std::size_t a = 0;
        if (net.kind == Network::Kind::Conv && !boundary(a++, net)) return std::nullopt;
        const auto first = positive(a++);
        const auto second = positive(a++);
        if (!first || !second) return std::nullopt;
        if (!table_values(a++, net.weights)) return std::nullopt;
        if (net.kind == Network::Kind::Sparse && !table_values(a++, net.indices)) return std::nullopt;
        const auto root = variable(a++);
        if (!root) return std::nullopt;
        net.root = *root;
        net.root2 = *root;
        if (shape->with_function) {
            sink_.warning(
                "W-special-f-form", d_.kind_where,
                "XPPAUT 6.11 does not compute " + quoted(d_.kind) +
                    " as its manual says (on its example amari2.ode every output gets the same "
                    "value); Bifscope computes the documented sum, so results differ from XPPAUT's");
            const auto root2 = variable(a++);
            if (!root2 || !(net.function = function(a++))) return std::nullopt;
            net.root2 = *root2;
        }
        // mmult(n,m,...): n inputs, m outputs (simplenet.c)
        net.outputs = net.kind == Network::Kind::MMult ? *second : *first;
        net.ncon = net.kind == Network::Kind::MMult ? *first : *second;
        if (!sizes_fit(net)) return std::nullopt;
        return net;
    }

  private:
    void fail(SourcePos where, std::string message) { sink_.error("E-special", where, std::move(message)); }

    bool boundary(std::size_t a, Network& net) {
        const std::string& s = d_.arguments[a];
        const char c = s.empty() ? ' ' : s[0];
        if (c == 'e' || c == 'E')
            net.boundary = Network::Boundary::Even;
        else if (c == '0' || c == 'z' || c == 'Z')
            net.boundary = Network::Boundary::Zero;
        else if (c == 'p' || c == 'P')
            net.boundary = Network::Boundary::Periodic;
        else {
            fail(d_.argument_where[a], "the conv type is even, 0 (zero) or periodic, not " + quoted(s));
            return false;
        }
        return true;
    }

    // XPPAUT reads these with atoi and wants them positive.
    std::optional<long> positive(std::size_t a) {
        const long v = std::atol(d_.arguments[a].c_str());
        if (v <= 0 || v > kMaxNetworkTerms) {
            fail(d_.argument_where[a], quoted(d_.arguments[a]) + " must be a positive whole number");
            return std::nullopt;
        }
        return v;
    }

    bool table_values(std::size_t a, std::vector<double>& out) {
        const Symbol* s = scope_.find(to_lower(d_.arguments[a]));
        if (!s || s->kind != SymbolKind::Table) {
            fail(d_.argument_where[a], quoted(d_.arguments[a]) + " is not a table");
            return false;
        }
        if (!scope_.tables[s->index]) return false; // its own error was reported
        out = pool_.table(*scope_.tables[s->index]).y;
        return true;
    }

    std::optional<long> variable(std::size_t a) {
        const auto p = variable_position(scope_, to_lower(d_.arguments[a]));
        if (!p) fail(d_.argument_where[a], quoted(d_.arguments[a]) + " is not a state or fixed variable");
        return p;
    }

    std::optional<std::uint32_t> function(std::size_t a) {
        const Symbol* s = scope_.find(to_lower(d_.arguments[a]));
        if (!s || s->kind != SymbolKind::Function || scope_.functions[s->index].arguments.size() != 2) {
            fail(d_.argument_where[a], quoted(d_.arguments[a]) + " is not a function of two arguments");
            return std::nullopt;
        }
        return s->index;
    }

    // Every weight, index and variable the terms read must exist (XPPAUT reads past its arrays).
    bool sizes_fit(const Network& net) {
        const std::size_t per_output =
            net.kind == Network::Kind::Conv ? std::size_t(2 * net.ncon + 1) : std::size_t(net.ncon);
        const std::size_t weights =
            net.kind == Network::Kind::Conv ? per_output : per_output * std::size_t(net.outputs);
        if (net.outputs * long(per_output) > kMaxNetworkTerms) {
            fail(d_.where, "this network has more than " + std::to_string(kMaxNetworkTerms) + " terms");
            return false;
        }
        if (net.weights.size() < weights) {
            fail(d_.where, "the weight table has " + std::to_string(net.weights.size()) +
                               " values; this network needs " + std::to_string(weights));
            return false;
        }
        if (net.kind == Network::Kind::Sparse) {
            for (double k : net.indices) {
                if (!(std::fabs(k) < 1e9)) {
                    fail(d_.where, "the index table holds a value that is no index");
                    return false;
                }
            }
        }
        if (net.kind == Network::Kind::Sparse && net.indices.size() < weights) {
            fail(d_.where, "the index table has " + std::to_string(net.indices.size()) +
                               " values; this network needs " + std::to_string(weights));
            return false;
        }
        if (net.kind == Network::Kind::Conv && net.boundary == Network::Boundary::Periodic &&
            net.ncon > net.outputs) {
            fail(d_.where, "a periodic conv needs ncon <= n");
            return false;
        }
        const long count = variable_count(scope_);
        long extent = net.kind == Network::Kind::MMult ? net.ncon : net.outputs; // inputs read from root2
        if (net.kind == Network::Kind::Sparse) {
            for (double k : net.indices)
                extent = std::max(extent, long(k) + 1);
        }
        if (net.root2 + extent > count || (net.function && net.root + net.outputs > count)) {
            fail(d_.where, "the network reads past the last state or fixed variable");
            return false;
        }
        return true;
    }

    const SpecialDeclaration& d_;
    const Scope& scope_;
    const sym::ExprPool& pool_;
    DiagnosticSink& sink_;
};

} // namespace

std::optional<long> variable_position(const Scope& scope, const std::string& lower_name) {
    const Symbol* s = scope.find(lower_name);
    if (!s) return std::nullopt;
    if (s->kind == SymbolKind::State) return long(s->index);
    if (s->kind == SymbolKind::Fixed) return long(scope.num_states) + long(s->index);
    return std::nullopt;
}

long variable_count(const Scope& scope) {
    return long(scope.num_states) + long(scope.fixed.size());
}

std::optional<Network> check_network(const SpecialDeclaration& d, const Scope& scope,
                                     const sym::ExprPool& pool, DiagnosticSink& sink) {
    return Checker(d, scope, pool, sink).run();
}

// simplenet.c, evaluate_network: the same indices and the same order of summation.
std::vector<NetworkTerm> network_terms(const Network& net, long i) {
    std::vector<NetworkTerm> terms;
    const long n = net.outputs;
    switch (net.kind) {
    case Network::Kind::Conv:
        for (long j = -net.ncon; j <= net.ncon; ++j) {
            long k = i + j;
            if (net.boundary == Network::Boundary::Even) {
                k = std::labs(k);
                if (k >= 2 * n) continue;
                if (k >= n) k = std::labs(2 * n - 2 - k);
            } else if (net.boundary == Network::Boundary::Zero) {
                if (k < 0 || k >= n) continue;
            } else {
                k = (2 * n + k) % n;
            }
            terms.push_back({net.weights[std::size_t(j + net.ncon)], net.root2 + k, net.root + i});
        }
        break;
    case Network::Kind::Sparse:
        for (long j = 0; j < net.ncon; ++j) {
            const std::size_t ij = std::size_t(i * net.ncon + j);
            const long k = long(net.indices[ij]);
            if (k >= 0) terms.push_back({net.weights[ij], net.root2 + k, net.root + i});
        }
        break;
    case Network::Kind::MMult:
        for (long j = 0; j < net.ncon; ++j)
            terms.push_back({net.weights[std::size_t(i * net.ncon + j)], net.root2 + j, net.root + i});
        break;
    }
    return terms;
}

} // namespace bif::model::detail
