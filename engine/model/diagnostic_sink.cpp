#include "engine/model/diagnostic_sink.h"

namespace bif::model::detail {

DiagnosticSink::DiagnosticSink(std::string file, std::vector<std::string> physical_lines)
    : file_(std::move(file)), lines_(std::move(physical_lines)) {}

void DiagnosticSink::error(std::string code, SourcePos where, std::string message) {
    report(Severity::Error, std::move(code), where, std::move(message));
}

void DiagnosticSink::warning(std::string code, SourcePos where, std::string message) {
    report(Severity::Warning, std::move(code), where, std::move(message));
}

void DiagnosticSink::note(std::string code, SourcePos where, std::string message) {
    report(Severity::Note, std::move(code), where, std::move(message));
}

void DiagnosticSink::report(Severity severity, std::string code, SourcePos where, std::string message) {
    if (severity == Severity::Error) ++errors_;
    if (!seen_.emplace(where.line, where.column, code).second) return;
    if (diagnostics_.size() >= kMaxDiagnostics) {
        if (!truncated_) {
            truncated_ = true;
            Diagnostic d;
            d.severity = Severity::Error;
            d.code = "E-too-many";
            d.message = "too many diagnostics; the rest are not shown";
            d.file = file_;
            diagnostics_.push_back(std::move(d));
        }
        return;
    }
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    d.file = file_;
    d.line = where.line;
    d.column = where.column;
    if (where.line > 0 && static_cast<std::size_t>(where.line) <= lines_.size()) {
        d.source_line = lines_[where.line - 1];
    }
    diagnostics_.push_back(std::move(d));
}

} // namespace bif::model::detail
