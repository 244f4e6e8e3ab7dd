#include "ode_text_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace bif::testsupport {
namespace {

struct LogicalLine {
    std::string text;
    int number = 0; // 1-based line of its first physical line
};

struct ReadFailure {
    std::string message;
};

[[noreturn]] void fail(int line, const std::string& message) {
    throw ReadFailure{"line " + std::to_string(line) + ": " + message};
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::string without_blanks(const std::string& s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

bool is_name(const std::string& s) {
    static const std::regex name_pattern("[a-z_][a-z0-9_]*");
    return std::regex_match(s, name_pattern);
}

double plain_number(const std::string& text, int line) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) fail(line, "'" + text + "' is not a plain number");
    return value;
}

// Joins `\` continuations and drops everything after `done` is found later, by the classifier.
std::vector<LogicalLine> logical_lines(const std::string& text) {
    std::vector<LogicalLine> lines;
    std::istringstream in(text);
    std::string physical;
    int number = 0;
    bool continuing = false;
    while (std::getline(in, physical)) {
        ++number;
        std::string body = physical;
        while (!body.empty() && (body.back() == '\r' || body.back() == ' ' || body.back() == '\t'))
            body.pop_back();
        const bool continues = !body.empty() && body.back() == '\\';
        if (continues) body.pop_back();
        if (continuing)
            lines.back().text += body;
        else
            lines.push_back({body, number});
        continuing = continues;
    }
    return lines;
}

// XPPAUT arrays: the first `[a..b]` in a line is replaced by each j in turn (counting down when
// a > b), and every `[j]`, `[j+n]`, `[j-n]` by the resulting integer.
std::vector<std::string> expand_array(const std::string& line, int line_number) {
    static const std::regex range_pattern(R"(\[(-?[0-9]+)\.\.(-?[0-9]+)\])");
    static const std::regex index_pattern(R"(\[j([+-][0-9]+)?\])");
    std::smatch range;
    if (!std::regex_search(line, range, range_pattern)) return {line};
    const int from = std::stoi(range[1].str());
    const int to = std::stoi(range[2].str());
    const int step = from <= to ? 1 : -1;
    std::vector<std::string> out;
    for (int j = from;; j += step) {
        std::string expanded = range.prefix().str() + std::to_string(j);
        std::string rest = range.suffix().str();
        std::smatch index;
        while (std::regex_search(rest, index, index_pattern)) {
            const int offset = index[1].matched ? std::stoi(index[1].str()) : 0;
            expanded += index.prefix().str() + std::to_string(j + offset);
            rest = index.suffix().str();
        }
        expanded += rest;
        if (expanded.find('[') != std::string::npos) fail(line_number, "unsupported array index in: " + line);
        out.push_back(expanded);
        if (j == to) break;
    }
    return out;
}

// Splits `a=1,b=2 c=3` (par, init, number lines) into pairs; a name without a value is 0.
std::vector<OdeNumber> number_pairs(const std::string& rest, int line) {
    const std::string normalised = std::regex_replace(rest, std::regex(R"(\s*=\s*)"), "=");
    std::string spaced = normalised;
    std::replace(spaced.begin(), spaced.end(), ',', ' ');
    std::istringstream words(spaced);
    std::vector<OdeNumber> pairs;
    std::string word;
    while (words >> word) {
        const auto eq = word.find('=');
        OdeNumber pair;
        pair.name = word.substr(0, eq);
        if (!is_name(pair.name)) fail(line, "bad name '" + pair.name + "'");
        pair.value = eq == std::string::npos ? 0.0 : plain_number(word.substr(eq + 1), line);
        pairs.push_back(pair);
    }
    return pairs;
}

OdeAssignment assignment(const std::string& text, int line) {
    const auto eq = text.find('=');
    if (eq == std::string::npos) fail(line, "expected name=formula in: " + text);
    OdeAssignment a{without_blanks(text.substr(0, eq)), without_blanks(text.substr(eq + 1)), line};
    if (!is_name(a.name)) fail(line, "bad name '" + a.name + "'");
    if (a.formula.empty()) fail(line, "empty formula for " + a.name);
    return a;
}

// `global sign condition {target=formula;...}`; the condition may itself be braced.
OdeEvent global_event(const std::string& rest, int line) {
    std::istringstream words(rest);
    std::string sign;
    words >> sign;
    OdeEvent event;
    event.line = line;
    event.direction = static_cast<int>(plain_number(sign, line));
    if (event.direction < -1 || event.direction > 1) fail(line, "global sign must be -1, 0 or 1");
    std::string remainder;
    std::getline(words, remainder);
    remainder = without_blanks(remainder);
    const auto open = remainder.rfind('{');
    if (open == std::string::npos || remainder.back() != '}') fail(line, "global without {resets}");
    std::string condition = remainder.substr(0, open);
    if (condition.size() >= 2 && condition.front() == '{' && condition.back() == '}')
        condition = condition.substr(1, condition.size() - 2);
    if (condition.empty()) fail(line, "global without a condition");
    event.condition = condition;
    std::istringstream resets(remainder.substr(open + 1, remainder.size() - open - 2));
    std::string reset;
    while (std::getline(resets, reset, ';'))
        if (!reset.empty()) event.resets.push_back(assignment(reset, line));
    return event;
}

// A formula line's left-hand side: x' or dx/dt (ODE), x(0) (initial value), f(a,b) (function),
// or a plain name (fixed variable).
void read_formula(const std::string& line, int number, OdeText& out) {
    const auto eq = line.find('=');
    const std::string lhs = without_blanks(line.substr(0, eq));
    const std::string rhs = without_blanks(line.substr(eq + 1));
    static const std::regex dxdt("d([a-z_][a-z0-9_]*)/dt");
    static const std::regex call(R"(([a-z_][a-z0-9_]*)\((.*)\))");
    std::smatch m;
    if (rhs.empty()) fail(number, "empty formula");
    if (lhs.size() > 1 && lhs.back() == '\'' && is_name(lhs.substr(0, lhs.size() - 1))) {
        out.odes.push_back({lhs.substr(0, lhs.size() - 1), rhs, number});
    } else if (std::regex_match(lhs, m, dxdt)) {
        out.odes.push_back({m[1].str(), rhs, number});
    } else if (std::regex_match(lhs, m, call)) {
        const std::string inside = m[2].str();
        if (inside == "0") {
            out.initial_values.push_back({m[1].str(), plain_number(rhs, number)});
            return;
        }
        // a map's x(t+1)=f: the reference evaluates f as it does a flow's right-hand side (the engine's
        // rhs of a map is the next value too); other shifts are refused
        if (inside == "t+1") {
            out.odes.push_back({m[1].str(), rhs, number});
            return;
        }
        if (inside.find('+') != std::string::npos) fail(number, "only the shift t+1 of a map is supported");
        OdeUserFunction f{m[1].str(), {}, rhs, number};
        std::istringstream args(inside);
        std::string arg;
        while (std::getline(args, arg, ',')) {
            if (!is_name(arg)) fail(number, "bad argument name '" + arg + "'");
            f.arguments.push_back(arg);
        }
        out.functions.push_back(f);
    } else if (is_name(lhs)) {
        out.fixed.push_back({lhs, rhs, number});
    } else {
        fail(number, "unsupported left-hand side '" + lhs + "'");
    }
}

// A line is a command when it starts with a word followed by a blank and more text that is not
// `=`, `(` or `'` (so `par a=1` is a command and `x = 1` a formula); `done` is a command too.
bool is_command(const std::string& line, std::string* word, std::string* rest) {
    std::size_t i = 0;
    while (i < line.size() && std::isalpha(static_cast<unsigned char>(line[i])))
        ++i;
    if (i == 0) return false;
    const std::string remainder = trim(line.substr(i));
    if (remainder.empty() && line.find('=') == std::string::npos) {
        *word = line.substr(0, i);
        rest->clear();
        return true;
    }
    if (i == line.size() || !std::isspace(static_cast<unsigned char>(line[i]))) return false;
    if (remainder.empty() || remainder[0] == '=' || remainder[0] == '(' || remainder[0] == '\'') return false;
    *word = line.substr(0, i);
    *rest = remainder;
    return true;
}

// Returns false at `done`.
bool read_command(const std::string& word, const std::string& rest, int number, OdeText& out) {
    if (word[0] == 'd') return false;
    if (word[0] == 'p') {
        auto pairs = number_pairs(rest, number);
        out.parameters.insert(out.parameters.end(), pairs.begin(), pairs.end());
    } else if (word[0] == 'i') {
        auto pairs = number_pairs(rest, number);
        out.initial_values.insert(out.initial_values.end(), pairs.begin(), pairs.end());
    } else if (word[0] == 'n') {
        auto pairs = number_pairs(rest, number);
        out.numbers.insert(out.numbers.end(), pairs.begin(), pairs.end());
    } else if (word.rfind("au", 0) == 0) {
        out.aux.push_back(assignment(rest, number));
    } else if (word == "a") {
        // XPPAUT 6.11 silently ignores the one-letter form of aux; so does this reader.
    } else if (word[0] == 'g') {
        out.events.push_back(global_event(rest, number));
    } else if (word.rfind("se", 0) == 0) {
        // Named parameter sets change nothing until applied.
    } else {
        fail(number, "unsupported command '" + word + "'");
    }
    return true;
}

// Returns false at `done`.
bool read_line(const std::string& line, int number, OdeText& out) {
    if (line[0] == '!') {
        auto a = assignment(line.substr(1), number);
        out.derived.push_back(a);
        return true;
    }
    std::string word;
    std::string rest;
    if (is_command(line, &word, &rest)) return read_command(word, rest, number, out);
    if (line.find('=') == std::string::npos) fail(number, "cannot read: " + line);
    if (without_blanks(line.substr(0, line.find('='))) == "0")
        fail(number, "algebraic constraints are not supported");
    read_formula(line, number, out);
    return true;
}

} // namespace

std::optional<OdeText> read_ode_text(const std::string& text, std::string* error) {
    OdeText out;
    try {
        for (const LogicalLine& logical : logical_lines(text)) {
            const std::string line = lower(trim(logical.text));
            if (line.empty() || line[0] == '#' || line[0] == '"' || line[0] == '@') continue;
            bool done = false;
            for (const std::string& expanded : expand_array(line, logical.number))
                if (!read_line(expanded, logical.number, out)) done = true;
            if (done) break;
        }
    } catch (const ReadFailure& failure) {
        if (error) *error = failure.message;
        return std::nullopt;
    }
    return out;
}

} // namespace bif::testsupport
