// The front end's public entry points: the stages in order, each failure a diagnostic.
#include "engine/model/parse.h"

#include "engine/model/array_expansion.h"
#include "engine/model/diagnostic_sink.h"
#include "engine/model/expression_parser.h"
#include "engine/model/input_file.h"
#include "engine/model/model_builder.h"
#include "engine/model/resolver.h"
#include "engine/model/source_text.h"
#include "engine/model/statement_classifier.h"

#include <algorithm>
#include <exception>

namespace bif::model {

namespace {

Diagnostic internal_error(const std::string& file, const char* what) {
    Diagnostic d;
    d.code = "E-internal";
    d.file = file;
    d.message = std::string("internal error in the model parser: ") + what;
    return d;
}

} // namespace

ParseResult parse_model(std::string_view text, std::string file_name) {
    ParseResult result;
    try {
        detail::DiagnosticSink sink(file_name, detail::split_physical_lines(text));
        const detail::SourceText source = detail::split_source(text, sink);
        const std::vector<detail::LogicalLine> lines = detail::expand_arrays(source.lines, sink);
        const detail::Declarations declarations = detail::classify_lines(lines, sink);
        Model model;
        model.file = file_name;
        detail::build_model(declarations, model, sink);
        if (!sink.has_errors()) result.model = std::move(model);
        result.diagnostics = sink.take();
        // Stages report in their own order; a reader wants the file's order. A closing
        // E-too-many stays last: it says that the list stopped there.
        auto& ds = result.diagnostics;
        const bool capped = !ds.empty() && ds.back().code == "E-too-many";
        std::stable_sort(ds.begin(), capped ? ds.end() - 1 : ds.end(),
                         [](const Diagnostic& a, const Diagnostic& b) {
                             return std::pair(a.line, a.column) < std::pair(b.line, b.column);
                         });
    } catch (const std::exception& e) {
        result.model.reset();
        result.diagnostics.push_back(internal_error(file_name, e.what()));
    }
    return result;
}

ParseResult load_model_file(const std::string& path) {
    InputFile file = read_input_file(path);
    if (!file.text) {
        ParseResult result;
        Diagnostic d;
        d.code = "E-file";
        d.file = path;
        d.message = "cannot read the model file: " + file.failure;
        result.diagnostics.push_back(std::move(d));
        return result;
    }
    return parse_model(*file.text, path);
}

ExpressionResult parse_expression(Model& model, std::string_view text) {
    ExpressionResult result;
    try {
        detail::DiagnosticSink sink("<expression>", {std::string(text)});
        const auto line = detail::LogicalLine::from_text(text, 1);
        const auto ast = detail::parse_formula(line.slice(0, line.size(), true), sink);
        if (ast) {
            detail::Scope scope = detail::scope_of(model);
            detail::Resolver resolver(model.pool, scope, sink);
            const auto node = resolver.resolve(*ast, {});
            if (node && !sink.has_errors()) result.node = *node;
        }
        result.diagnostics = sink.take();
    } catch (const std::exception& e) {
        result.node.reset();
        result.diagnostics.push_back(internal_error("<expression>", e.what()));
    }
    return result;
}

} // namespace bif::model
