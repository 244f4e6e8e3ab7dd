// Stages 1-2: physical -> logical lines (continuation, comments, done) and array expansion, with
// positions mapped back to the physical lines.
#include "engine/model/array_expansion.h"
#include "engine/model/diagnostic_sink.h"
#include "engine/model/source_text.h"

#include <catch2/catch.hpp>

using namespace bif::model;
using namespace bif::model::detail;

namespace {

struct Split {
    DiagnosticSink sink{"m.ode", {}};
    SourceText source;
    explicit Split(std::string_view text) : source(split_source(text, sink)) {}
};

std::vector<std::string> texts(const std::vector<LogicalLine>& lines) {
    std::vector<std::string> out;
    for (const auto& l : lines)
        out.push_back(l.text);
    return out;
}

} // namespace

TEST_CASE("logical lines: blank and # lines go, \" lines stay, CRLF is read", "[model][source]") {
    Split s("# a comment\r\n\r\n  \" a displayed comment {a=1}\r\nx'=1\r\n\t\r\n");
    CHECK(texts(s.source.lines) == std::vector<std::string>{"  \" a displayed comment {a=1}", "x'=1"});
    CHECK(s.source.physical_lines.size() == 5);
    CHECK(s.source.lines[1].pos(0).line == 4);
    CHECK_FALSE(s.sink.has_errors());
}

TEST_CASE("a trailing backslash joins lines and positions stay physical", "[model][source]") {
    Split s("x'=1+\\\n  2*y \\  \n+3\nz'=1");
    REQUIRE(s.source.lines.size() == 2);
    const LogicalLine& l = s.source.lines[0];
    CHECK(l.text == "x'=1+  2*y +3");
    const std::size_t two = l.text.find('2');
    CHECK(l.pos(two).line == 2);
    CHECK(l.pos(two).column == 3);
    CHECK(l.pos(l.text.find('3')).line == 3);
    CHECK(l.pos(l.text.find('3')).column == 2);
    CHECK(s.source.lines[1].pos(0).line == 4);
}

TEST_CASE("done, and any word starting with d in command position, ends the file", "[model][source]") {
    CHECK(Split("x'=1\ndone\n(((garbage").source.lines.size() == 1);
    CHECK(Split("x'=1\nd\ny'=2").source.lines.size() == 1);
    CHECK(Split("x'=1\n  DONE now\ny'=2").source.lines.size() == 1);
    // formula forms that start with d do not end the file
    CHECK(Split("dx/dt=1\nd=2\ndelta'=1\nd(0)=1\nd [1..2]'=1\ndone\nz'=1").source.lines.size() == 5);
    CHECK(ends_file("dummy"));
    CHECK_FALSE(ends_file("dx / dt = 1"));
    CHECK_FALSE(ends_file("x'=1"));
}

TEST_CASE("a file may end without done and without a final newline", "[model][source]") {
    Split s("x'=1\ny'=2");
    CHECK(texts(s.source.lines) == std::vector<std::string>{"x'=1", "y'=2"});
}

TEST_CASE("array lines expand once per index, brackets become numbers", "[model][arrays]") {
    DiagnosticSink sink("m.ode", {});
    const auto src = split_source("x[1..3]'=-x[j]+[j+1]*x[j-1]\ninit x[3..1]=[2*j]\npar a[1..2]=0.5", sink);
    const auto lines = expand_arrays(src.lines, sink);
    CHECK_FALSE(sink.has_errors());
    CHECK(texts(lines) == std::vector<std::string>{"x1'=-x1+2*x0", "x2'=-x2+3*x1", "x3'=-x3+4*x2",
                                                   "init x3=6", "init x2=4", "init x1=2", "par a1=0.5",
                                                   "par a2=0.5"});
    // substituted characters carry the position of their `[`
    const LogicalLine& second = lines[1];
    CHECK(second.pos(second.text.find('3')).column == 16);
    CHECK(second.pos(second.text.find('-')).column == 10);
}

TEST_CASE("a %[lo..hi] block repeats its lines per index, the whole block per j", "[model][arrays]") {
    // XPPAUT 6.11 orders the states of this block u1 v1 u2 v2 (checked with xppaut -silent).
    DiagnosticSink sink("m.ode", {});
    const auto src = split_source("%[1..2]\nu[j]'=v[j]\nv[j]'=-u[j]\n%\nz'=0", sink);
    const auto lines = expand_arrays(src.lines, sink);
    CHECK_FALSE(sink.has_errors());
    CHECK(texts(lines) == std::vector<std::string>{"u1'=v1", "v1'=-u1", "u2'=v2", "v2'=-u2", "z'=0"});
    CHECK(lines[2].pos(0).line == 2);
}

TEST_CASE("comments and option lines are not array lines", "[model][arrays]") {
    DiagnosticSink sink("m.ode", {});
    const auto src = split_source("\" see [1..3]\n@ xp=x[1]", sink);
    const auto lines = expand_arrays(src.lines, sink);
    CHECK(texts(lines) == std::vector<std::string>{"\" see [1..3]", "@ xp=x[1]"});
    CHECK_FALSE(sink.has_errors());
}

TEST_CASE("only a positive number at the start of the first line selects the old format", "[model][source]") {
    CHECK(Split("  3\nx'=1").sink.has_errors());
    CHECK_FALSE(Split("0=x\n").sink.has_errors()); // a DAE line, refused later, not the old format
    CHECK_FALSE(Split("# 2 equations\n1").sink.has_errors());
}
