#include "engine/model/statement_classifier.h"

#include "engine/model/diagnostic_sink.h"
#include "engine/model/expression_parser.h"
#include "engine/model/lexer.h"
#include "engine/model/statement_readers.h"
#include "engine/model/text.h"

#include <algorithm>

namespace bif::model::detail {

namespace {

constexpr std::size_t kMaxFunctionArguments = 9;

struct RefusedCommand {
    const char* prefix; // the command word starts with this (lower case)
    const char* code;
    const char* message;
};

// Tested in order, after par/number/init/global/aux/set: longer prefixes first.
constexpr RefusedCommand kRefusedCommands[] = {
    {"gr", "E-group", "`group` is not supported by Bifscope yet"},
    {"so", "E-dae", "algebraic constraints (`solv`, DAEs) are not supported by Bifscope yet"},
    {"w", "E-wiener", "`wiener` noise (stochastic equations) is not supported by Bifscope yet"},
    {"ma", "E-markov", "`markov` variables are not supported by Bifscope yet"},
    {"b", "E-bvp", "boundary-value problems (`bdry`) are not supported by Bifscope yet"},
    {"ve", "E-vector", "`vector` is not supported by Bifscope yet"},
    {"v", "E-volterra", "Volterra equations are not supported by Bifscope yet"},
    {"ex", "E-export", "`export` (external C functions) is not supported by Bifscope yet"},
    {"o", "E-options-file", "option files (`options name`) are not supported; write `@ name=value` lines"},
};

class Classifier {
  public:
    explicit Classifier(DiagnosticSink& sink) : sink_(sink) {}

    Declarations run(const std::vector<LogicalLine>& lines) {
        for (const LogicalLine& line : lines)
            classify(line);
        return std::move(out_);
    }

  private:
    void classify(const LogicalLine& line) {
        std::size_t begin = 0;
        while (begin < line.size() && is_blank(line.text[begin]))
            ++begin;
        if (begin == line.size()) return;
        const char first = line.text[begin];
        if (first == '"') {
            out_.comments.emplace_back(trim(std::string_view(line.text).substr(begin + 1)));
            return;
        }
        if (first == '@') return read_options(line, begin, out_, sink_);
        if (first == '#') {
            sink_.error("E-include", line.pos(begin), "`#include` is not supported by Bifscope yet");
            return;
        }
        if (first == '!') return derived(line, begin + 1);
        const std::size_t eq = line.text.find('=', begin);
        if (eq != std::string::npos && formula_form(line, begin, eq)) return;
        command(line, begin);
    }

    // Recognises the formula forms by the tokens left of the first `=`; false if none applies.
    bool formula_form(const LogicalLine& line, std::size_t begin, std::size_t eq) {
        const LogicalLine lhs = line.slice(begin, eq); // blanks separate words: `par a=1` is no formula
        const std::vector<Token> t = tokenize(lhs, nullptr);
        if (t.back().kind == TokenKind::Error) return false;
        const std::size_t n = t.size() - 1; // without End
        auto kind = [&](std::size_t i) { return i < n ? t[i].kind : TokenKind::End; };
        const SourcePos where = lhs.pos(0);
        if (n == 2 && kind(0) == TokenKind::Name && kind(1) == TokenKind::Prime) {
            out_.has_prime_form = true;
            ode(t[0].text, where, line, eq);
            return true;
        }
        if (n == 1 && kind(0) == TokenKind::Prime) {
            sink_.error("E-ode-name", where, "this ODE has no variable name: write x'=...");
            return true;
        }
        if (n == 3 && kind(0) == TokenKind::Name && kind(1) == TokenKind::Slash &&
            kind(2) == TokenKind::Name && iequals(t[2].text, "dt") && istarts_with(t[0].text, "d")) {
            if (t[0].text.size() == 1) {
                sink_.error("E-ode-name", where, "this ODE has no variable name: write dx/dt=...");
            } else {
                out_.has_prime_form = true;
                ode(t[0].text.substr(1), lhs.pos(t[0].offset + 1), line, eq);
            }
            return true;
        }
        if (n == 1 && kind(0) == TokenKind::Name) {
            formula_definition(DefinitionKind::Fixed, out_.fixed, t[0].text, where, line, eq);
            return true;
        }
        if (n == 1 && kind(0) == TokenKind::Number && t[0].value == 0.0) {
            sink_.error("E-dae", where,
                        "algebraic constraints (0=..., DAEs) are not supported by Bifscope yet");
            return true;
        }
        if (n >= 3 && kind(0) == TokenKind::Name && kind(1) == TokenKind::LeftParen) {
            parenthesised_left_side(line, lhs, t, eq);
            return true;
        }
        return false;
    }

    // x(0)=1, x(t+1)=f, f(a,b)=body.
    void parenthesised_left_side(const LogicalLine& line, const LogicalLine& lhs, const std::vector<Token>& t,
                                 std::size_t eq) {
        const std::size_t n = t.size() - 1;
        const SourcePos where = lhs.pos(0);
        if (n == 4 && t[2].kind == TokenKind::Number && t[2].value == 0.0 &&
            t[3].kind == TokenKind::RightParen) {
            const double v = read_declared_value(line, eq + 1, line.size(), t[0].text,
                                                 ValueListKind::InitialValues, sink_);
            out_.initial_values.push_back({t[0].text, v, where});
            return;
        }
        if (n == 6 && t[2].kind == TokenKind::Name && iequals(t[2].text, "t") &&
            t[3].kind == TokenKind::Plus && t[4].kind == TokenKind::Number &&
            t[5].kind == TokenKind::RightParen) {
            if (t[4].value != 1.0) {
                sink_.error("E-map-shift", lhs.pos(t[4].offset),
                            "a map gives the next value: write " + t[0].text + "(t+1)=...");
                return;
            }
            if (!out_.map_form) out_.map_form = where;
            ode(t[0].text, where, line, eq);
            return;
        }
        FunctionDeclaration f;
        f.name = t[0].text;
        f.where = where;
        std::size_t i = 2;
        for (;; i += 2) {
            if (i >= n || t[i].kind != TokenKind::Name) {
                sink_.error(
                    "E-lhs", lhs.pos(t[std::min(i, n)].offset),
                    "cannot read the left side `" + lhs.text +
                        "`: expected an initial value x(0)=, or a function f(a,b)= with argument names");
                return;
            }
            f.arguments.push_back(to_lower(t[i].text));
            if (i + 1 < n && t[i + 1].kind == TokenKind::Comma) continue;
            if (i + 1 == n - 1 && t[i + 1].kind == TokenKind::RightParen) break;
            sink_.error("E-lhs", lhs.pos(t[std::min(i + 1, n)].offset),
                        "cannot read the argument list of `" + f.name + "`");
            return;
        }
        check_arguments(f, lhs, t);
        f.body = std::string(trim(std::string_view(line.text).substr(eq + 1)));
        f.formula = read_formula(line, eq + 1, line.size(), sink_);
        out_.definitions.push_back({DefinitionKind::Function, out_.functions.size()});
        out_.functions.push_back(std::move(f));
    }

    void check_arguments(const FunctionDeclaration& f, const LogicalLine& lhs, const std::vector<Token>& t) {
        if (f.arguments.size() > kMaxFunctionArguments) {
            sink_.error("E-too-many-args", lhs.pos(t[0].offset),
                        "`" + f.name + "` has " + std::to_string(f.arguments.size()) +
                            " arguments; XPPAUT allows at most 9");
        }
        for (std::size_t a = 0; a < f.arguments.size(); ++a) {
            if (std::find(f.arguments.begin(), f.arguments.begin() + a, f.arguments[a]) !=
                f.arguments.begin() + a) {
                sink_.error("E-lhs", lhs.pos(t[2 + 2 * a].offset),
                            "argument `" + f.arguments[a] + "` appears twice in `" + f.name + "`");
            }
        }
    }

    void ode(std::string name, SourcePos where, const LogicalLine& line, std::size_t eq) {
        out_.definitions.push_back({DefinitionKind::State, out_.odes.size()});
        out_.odes.push_back({std::move(name), read_formula(line, eq + 1, line.size(), sink_), where});
    }

    void formula_definition(DefinitionKind kind, std::vector<FormulaDeclaration>& list, std::string name,
                            SourcePos where, const LogicalLine& line, std::size_t eq) {
        out_.definitions.push_back({kind, list.size()});
        list.push_back({std::move(name), read_formula(line, eq + 1, line.size(), sink_), where});
    }

    // !name=formula
    void derived(const LogicalLine& line, std::size_t begin) {
        const std::size_t eq = line.text.find('=', begin);
        const std::string_view name =
            trim(std::string_view(line.text).substr(begin, eq == std::string::npos ? eq : eq - begin));
        if (eq == std::string::npos || !is_name(name)) {
            sink_.error("E-syntax", line.pos(begin - 1), "a derived parameter is written !name=formula");
            return;
        }
        formula_definition(DefinitionKind::Derived, out_.derived, std::string(name),
                           line.pos(name.data() - line.text.data()), line, eq);
    }

    void command(const LogicalLine& line, std::size_t begin) {
        std::size_t end = begin;
        while (end < line.size() && is_name_char(line.text[end]))
            ++end;
        const std::string word = to_lower(std::string_view(line.text).substr(begin, end - begin));
        const SourcePos where = line.pos(begin);
        if (word.empty() || is_digit(word[0])) {
            sink_.error("E-unknown-statement", where, "cannot tell what this line defines");
            return;
        }
        switch (word[0]) {
        case 'p':
            return read_value_list(line, end, ValueListKind::Parameters, out_, sink_);
        case 'n':
            return read_value_list(line, end, ValueListKind::Numbers, out_, sink_);
        case 'i':
            return read_value_list(line, end, ValueListKind::InitialValues, out_, sink_);
        default:
            break;
        }
        if (word[0] == 'g' && !istarts_with(word, "gr")) return read_global(line, end, out_, sink_);
        if (istarts_with(word, "au")) return aux(line, end);
        if (word[0] == 'a') {
            sink_.warning("W-aux-abbreviation", where,
                          "XPPAUT 6.11 silently ignores `" + word +
                              "` lines; write `aux` to define an aux quantity");
            return;
        }
        if (istarts_with(word, "se")) return read_set(line, end, out_, sink_);
        if (istarts_with(word, "ta")) return read_table(line, end, out_, sink_);
        if (istarts_with(word, "sp")) return read_special(line, end, out_, sink_);
        for (const RefusedCommand& r : kRefusedCommands) {
            if (istarts_with(word, r.prefix)) {
                sink_.error(r.code, where, r.message);
                return;
            }
        }
        sink_.error("E-unknown-statement", where,
                    "cannot tell what this line defines: `" + word + "` is not a command");
    }

    // aux name=formula
    void aux(const LogicalLine& line, std::size_t begin) {
        const std::size_t eq = line.text.find('=', begin);
        const std::string_view name =
            trim(std::string_view(line.text).substr(begin, eq == std::string::npos ? eq : eq - begin));
        if (eq == std::string::npos || !is_name(name)) {
            sink_.error("E-syntax", line.pos(begin), "an aux quantity is written aux name=formula");
            return;
        }
        formula_definition(DefinitionKind::Aux, out_.aux, std::string(name),
                           line.pos(name.data() - line.text.data()), line, eq);
    }

    DiagnosticSink& sink_;
    Declarations out_;
};

} // namespace

std::optional<Ast> read_formula(const LogicalLine& line, std::size_t begin, std::size_t end,
                                DiagnosticSink& sink) {
    return parse_formula(line.slice(begin, end, true), sink);
}

Declarations classify_lines(const std::vector<LogicalLine>& lines, DiagnosticSink& sink) {
    return Classifier(sink).run(lines);
}

} // namespace bif::model::detail
