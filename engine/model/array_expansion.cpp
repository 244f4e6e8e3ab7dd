#include "engine/model/array_expansion.h"

#include "engine/model/diagnostic_sink.h"
#include "engine/model/text.h"

#include <optional>
#include <string>

namespace bif::model::detail {

namespace {

constexpr long kMaxIndexMagnitude = 1000000000L;

// One bracket of a line: [open, close] offsets and its content.
struct Bracket {
    std::size_t open = 0;
    std::size_t close = 0;
    std::string content; // without blanks
    bool is_range() const { return content.find("..") != std::string::npos; }
};

// Integer formula inside a bracket, evaluated for one j.
//   sum     = product { ("+" | "-") product }
//   product = factor { ("*" | "/") factor }
//   factor  = "-" factor | "+" factor | integer | "j" | "(" sum ")"
class IndexFormula {
  public:
    IndexFormula(std::string_view text, long j) : s_(text), j_(j) {}

    std::optional<long> evaluate() {
        auto v = sum();
        if (!v || pos_ != s_.size()) return std::nullopt;
        return v;
    }

  private:
    std::optional<long> sum() {
        auto v = product();
        while (v && pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) {
            const char op = s_[pos_++];
            auto w = product();
            if (!w) return std::nullopt;
            v = op == '+' ? *v + *w : *v - *w;
            if (!in_range(*v)) return std::nullopt;
        }
        return v;
    }

    std::optional<long> product() {
        auto v = factor();
        while (v && pos_ < s_.size() && (s_[pos_] == '*' || s_[pos_] == '/')) {
            const char op = s_[pos_++];
            auto w = factor();
            if (!w || (op == '/' && *w == 0)) return std::nullopt;
            v = op == '*' ? *v * *w : *v / *w;
            if (!in_range(*v)) return std::nullopt;
        }
        return v;
    }

    std::optional<long> factor() {
        if (++depth_ > 50 || pos_ >= s_.size()) return std::nullopt;
        const char c = s_[pos_];
        if (c == '-' || c == '+') {
            ++pos_;
            auto v = factor();
            if (v && c == '-') v = -*v;
            return v;
        }
        if (c == 'j' || c == 'J') {
            ++pos_;
            return j_;
        }
        if (c == '(') {
            ++pos_;
            auto v = sum();
            if (!v || pos_ >= s_.size() || s_[pos_] != ')') return std::nullopt;
            ++pos_;
            return v;
        }
        long v = 0;
        const std::size_t start = pos_;
        while (pos_ < s_.size() && is_digit(s_[pos_])) {
            v = v * 10 + (s_[pos_++] - '0');
            if (v > kMaxIndexMagnitude) return std::nullopt;
        }
        if (pos_ == start) return std::nullopt;
        return v;
    }

    static bool in_range(long v) { return v >= -kMaxIndexMagnitude && v <= kMaxIndexMagnitude; }

    std::string_view s_;
    long j_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

struct Range {
    long lo = 0;
    long hi = 0;
    long count() const { return (hi >= lo ? hi - lo : lo - hi) + 1; }
    long at(long k) const { return hi >= lo ? lo + k : lo - k; }
};

// Parses "lo..hi" with integer bounds.
std::optional<Range> parse_range(std::string_view content) {
    const std::size_t dots = content.find("..");
    auto bound = [](std::string_view s) -> std::optional<long> {
        if (s.empty()) return std::nullopt;
        IndexFormula f(s, 0);
        for (char c : s)
            if (c == 'j' || c == 'J') return std::nullopt;
        return f.evaluate();
    };
    auto lo = bound(content.substr(0, dots));
    auto hi = bound(content.substr(dots + 2));
    if (!lo || !hi) return std::nullopt;
    return Range{*lo, *hi};
}

class ArrayExpander {
  public:
    explicit ArrayExpander(DiagnosticSink& sink) : sink_(sink) {}

    std::vector<LogicalLine> run(const std::vector<LogicalLine>& lines) {
        for (std::size_t i = 0; i < lines.size() && !stopped_; ++i) {
            const std::string_view t = trim(lines[i].text);
            if (!t.empty() && t[0] == '%') {
                i = expand_block(lines, i);
                continue;
            }
            expand_line(lines[i]);
        }
        return std::move(out_);
    }

  private:
    static bool is_verbatim(std::string_view trimmed) {
        // comments and option lines are not array lines
        return !trimmed.empty() && (trimmed[0] == '"' || trimmed[0] == '@');
    }

    bool find_brackets(const LogicalLine& line, std::vector<Bracket>& out) {
        for (std::size_t i = 0; i < line.text.size(); ++i) {
            if (line.text[i] == ']') {
                sink_.error("E-array", line.pos(i), "`]` without a matching `[`");
                return false;
            }
            if (line.text[i] != '[') continue;
            if (is_volterra_bracket(line.text, i)) {
                // int[.5]{...}: a Volterra integral's exponent, refused later with its own message
                const std::size_t close = line.text.find(']', i);
                if (close == std::string::npos) break;
                i = close;
                continue;
            }
            Bracket b;
            b.open = i;
            std::size_t k = i + 1;
            while (k < line.text.size() && line.text[k] != ']' && line.text[k] != '[') {
                if (!is_blank(line.text[k])) b.content += line.text[k];
                ++k;
            }
            if (k >= line.text.size() || line.text[k] != ']') {
                sink_.error("E-array", line.pos(i), "`[` without a matching `]`");
                return false;
            }
            b.close = k;
            out.push_back(std::move(b));
            i = k;
        }
        return true;
    }

    static bool is_volterra_bracket(const std::string& text, std::size_t open) {
        if (open < 3 || !iequals(std::string_view(text).substr(open - 3, 3), "int")) return false;
        return open == 3 || !is_name_char(text[open - 4]);
    }

    // Expands one line outside a block: the line's range (if any) gives the values of j.
    void expand_line(const LogicalLine& line) {
        if (is_verbatim(trim(line.text)) || line.text.find_first_of("[]") == std::string::npos) {
            push(line);
            return;
        }
        std::vector<Bracket> brackets;
        if (!find_brackets(line, brackets)) return;
        if (brackets.empty()) {
            push(line);
            return;
        }
        std::optional<Range> range;
        for (const Bracket& b : brackets) {
            if (!b.is_range()) continue;
            auto r = parse_range(b.content);
            if (!r) {
                sink_.error("E-array", line.pos(b.open),
                            "array bounds must be integer numbers, as in [1..10] (XPPAUT reads a name "
                            "there as 0)");
                return;
            }
            if (range && (range->lo != r->lo || range->hi != r->hi)) {
                sink_.error("E-array", line.pos(b.open), "all ranges of one line must be the same");
                return;
            }
            range = r;
        }
        if (!range && !mentions_j(brackets)) {
            // b100'=-flux[100]: XPPAUT replaces brackets of numbers on any line
            substitute(line, brackets, 0);
            return;
        }
        if (!range) {
            sink_.error("E-array", line.pos(brackets.front().open),
                        "`[" + brackets.front().content +
                            "]` outside an array line: give the line a range such as x[1..10] or "
                            "put it in a %[1..10] block");
            return;
        }
        if (!check_length(*range, line.pos(brackets.front().open))) return;
        for (long k = 0; k < range->count() && !stopped_; ++k)
            if (!substitute(line, brackets, range->at(k))) return;
    }

    static bool mentions_j(const std::vector<Bracket>& brackets) {
        for (const Bracket& b : brackets)
            if (b.content.find_first_of("jJ") != std::string::npos) return true;
        return false;
    }

    // Expands a %[lo..hi] ... % block; returns the index of the last line consumed.
    std::size_t expand_block(const std::vector<LogicalLine>& lines, std::size_t first) {
        const LogicalLine& head = lines[first];
        const std::string_view t = trim(head.text);
        const SourcePos head_pos = head.pos(t.data() - head.text.data());
        if (t.size() == 1) {
            sink_.error("E-array", head_pos, "`%` closes a block that was never opened with %[lo..hi]");
            return first;
        }
        std::vector<Bracket> brackets;
        std::optional<Range> range;
        const std::string rest(trim(t.substr(1)));
        if (find_brackets(head, brackets) && brackets.size() == 1 && brackets[0].is_range() &&
            rest.back() == ']' && rest.front() == '[') {
            range = parse_range(brackets[0].content);
        }
        std::size_t last = first + 1;
        while (last < lines.size() && trim(lines[last].text) != "%")
            ++last;
        if (last == lines.size()) {
            sink_.error("E-array", head_pos, "this %[lo..hi] block has no closing `%` line");
        }
        if (!range) {
            sink_.error("E-array", head_pos,
                        "a block starts with %[lo..hi] with integer bounds, e.g. %[1..10]");
            return last;
        }
        if (!check_length(*range, head_pos)) return last;
        for (long k = 0; k < range->count() && !stopped_; ++k) {
            for (std::size_t i = first + 1; i < last && !stopped_; ++i) {
                if (!expand_block_line(lines[i], range->at(k))) return last;
            }
        }
        return last;
    }

    bool expand_block_line(const LogicalLine& line, long j) {
        const std::string_view t = trim(line.text);
        if (!t.empty() && t[0] == '%') {
            sink_.error("E-array", line.pos(t.data() - line.text.data()), "blocks cannot be nested");
            return false;
        }
        if (is_verbatim(t) || line.text.find_first_of("[]") == std::string::npos) {
            push(line);
            return true;
        }
        std::vector<Bracket> brackets;
        if (!find_brackets(line, brackets)) return false;
        for (const Bracket& b : brackets) {
            if (b.is_range()) {
                sink_.error("E-array", line.pos(b.open),
                            "a line inside a %[..] block cannot have its own range");
                return false;
            }
        }
        return substitute(line, brackets, j);
    }

    bool substitute(const LogicalLine& line, const std::vector<Bracket>& brackets, long j) {
        LogicalLine out;
        std::size_t at = 0;
        for (const Bracket& b : brackets) {
            out.append(line, at, b.open);
            std::optional<long> value = j;
            if (!b.is_range()) value = IndexFormula(b.content, j).evaluate();
            if (!value) {
                sink_.error("E-array", line.pos(b.open),
                            "cannot read the index `[" + b.content + "]`: expected an integer formula in j");
                return false;
            }
            const bool after_name = b.open > 0 && is_name_char(line.text[b.open - 1]);
            if (after_name && *value < 0) {
                sink_.error("E-array", line.pos(b.open),
                            "index `[" + b.content + "]` is " + std::to_string(*value) +
                                " for j=" + std::to_string(j) + "; array element names need indices >= 0");
                return false;
            }
            for (char c : std::to_string(*value))
                out.append(c, line.pos(b.open));
            at = b.close + 1;
        }
        out.append(line, at, line.text.size());
        out.origin.push_back(line.pos(line.text.size()));
        push(std::move(out));
        return true;
    }

    bool check_length(const Range& r, SourcePos where) {
        if (r.count() > kMaxArrayLength) {
            sink_.error("E-array", where,
                        "array range of " + std::to_string(r.count()) + " elements; at most " +
                            std::to_string(kMaxArrayLength) + " are supported");
            return false;
        }
        return true;
    }

    void push(LogicalLine line) {
        if (out_.size() >= kMaxExpandedLines) {
            if (!stopped_) {
                sink_.error("E-array", line.pos(0),
                            "the arrays expand to more than " + std::to_string(kMaxExpandedLines) + " lines");
            }
            stopped_ = true;
            return;
        }
        out_.push_back(std::move(line));
    }

    DiagnosticSink& sink_;
    std::vector<LogicalLine> out_;
    bool stopped_ = false;
};

} // namespace

std::vector<LogicalLine> expand_arrays(const std::vector<LogicalLine>& lines, DiagnosticSink& sink) {
    return ArrayExpander(sink).run(lines);
}

} // namespace bif::model::detail
