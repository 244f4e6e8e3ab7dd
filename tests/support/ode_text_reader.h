// A small, independent reader for the subset of XPPAUT's .ode format that the bundled models use.
//
// It exists only so that tests can check the project's own parser and code generator against a
// second implementation: it shares no code with engine/. It reads comments, `\` continuation,
// `done`, par/param/p, number, init and name(0)=, ODEs (x'= and dx/dt=), derived parameters
// (!name=), fixed variables (name=), aux, user functions f(a,b)=..., global events with resets,
// and the array form name[a..b] with [j], [j+n], [j-n]. `@`, `"` and `set` lines are skipped.
// Everything is lower-cased (XPPAUT names are case-insensitive) and formulas lose all blanks.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bif::testsupport {

struct OdeAssignment {
    std::string name;
    std::string formula; // XPPAUT syntax, lower case, no blanks
    int line = 0;
};

struct OdeUserFunction {
    std::string name;
    std::vector<std::string> arguments;
    std::string body;
    int line = 0;
};

struct OdeEvent {
    int direction = 1;                 // XPPAUT's sign: 1, -1 or 0
    std::string condition;             // XPPAUT syntax
    std::vector<OdeAssignment> resets; // target = formula, in written order
    int line = 0;
};

struct OdeNumber {
    std::string name;
    double value = 0.0;
};

// The declarations of one file, in file order within each kind.
struct OdeText {
    std::vector<OdeAssignment> odes; // state name and right-hand side; state order
    std::vector<OdeNumber> parameters;
    std::vector<OdeNumber> numbers;
    std::vector<OdeNumber> initial_values; // from init lines and name(0)=, later ones win
    std::vector<OdeAssignment> derived;
    std::vector<OdeAssignment> fixed;
    std::vector<OdeAssignment> aux;
    std::vector<OdeUserFunction> functions;
    std::vector<OdeEvent> events;
};

// Reads the text of an .ode file. On failure returns nothing and describes the first problem
// (with its line number) in *error.
std::optional<OdeText> read_ode_text(const std::string& text, std::string* error);

} // namespace bif::testsupport
