// XPPAUT's network operators (`special`, simplenet.c), checked and broken into terms.
//
//   special z=conv(type,n,ncon,w,root)   z(i) = sum_{j=-ncon..ncon} w[j+ncon] root[k(i+j)]
//   special z=sparse(n,ncon,w,index,root) z(i) = sum_{j<ncon} w[i ncon+j] root[index[i ncon+j]]
//   special z=mmult(n,m,w,root)          z(i) = sum_{j<n} w[i n+j] root[j], i < m
//   fconv, fsparse, fmmult(..., root1, root2, f): each term w f(root2[k], root1[i]) instead
//
// w and index are tables (their values, not interpolated); root[k] is the variable k places after
// root in XPPAUT's list of variables (the states, then the fixed variables, in file order); the
// conv boundary is `even` (reflected), `0` (zero outside) or `periodic`. XPPAUT evaluates networks
// once per right-hand side; Bifscope unrolls each element into its formula (the resolver), so the
// symbolic Jacobian and both back ends see plain sums.
#pragma once

#include "engine/model/declarations.h"
#include "engine/model/scope.h"

#include <optional>
#include <vector>

namespace bif::model::detail {

class DiagnosticSink;

struct Network {
    enum class Kind { Conv, Sparse, MMult };
    enum class Boundary { Even, Zero, Periodic };
    Kind kind = Kind::Conv;
    Boundary boundary = Boundary::Zero;
    long outputs = 0; // z(0) .. z(outputs-1); others are 0, as in XPPAUT
    long ncon = 0;    // conv: 2 ncon + 1 weights; sparse: connections per output; mmult: inputs
    std::vector<double> weights;
    std::vector<double> indices;           // sparse
    long root = 0;                         // XPPAUT variable positions
    long root2 = 0;                        // f kinds: the neighbour's variable (first argument of f)
    std::optional<std::uint32_t> function; // f kinds: the user function
};

struct NetworkTerm {
    double weight = 0.0;
    long input = 0; // plain kinds: root + k; f kinds: root2 + k
    long self = 0;  // f kinds: root + i, f's second argument
};

// Position of a state or fixed variable in XPPAUT's list of variables; nullopt for other names.
std::optional<long> variable_position(const Scope& scope, const std::string& lower_name);
long variable_count(const Scope& scope);

// Checks a declaration (numbers, tables, variables, function); diagnostics and nullopt if wrong.
std::optional<Network> check_network(const SpecialDeclaration& d, const Scope& scope,
                                     const sym::ExprPool& pool, DiagnosticSink& sink);

// The terms of output i, in XPPAUT's order of summation.
std::vector<NetworkTerm> network_terms(const Network& network, long i);

} // namespace bif::model::detail
