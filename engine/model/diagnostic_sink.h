// Collects the diagnostics of one parse: resolves positions to source lines, drops exact
// repeats (a user function inlined in many places reports its problems once) and stops
// collecting after a bound so that garbage input cannot produce unbounded output.
#pragma once

#include "engine/model/diagnostic.h"
#include "engine/model/model.h"

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace bif::model::detail {

class DiagnosticSink {
  public:
    DiagnosticSink(std::string file, std::vector<std::string> physical_lines);

    void error(std::string code, SourcePos where, std::string message);
    void warning(std::string code, SourcePos where, std::string message);
    void note(std::string code, SourcePos where, std::string message);
    void report(Severity severity, std::string code, SourcePos where, std::string message);

    bool has_errors() const { return errors_ > 0; }
    std::size_t error_count() const { return errors_; }
    const std::string& file() const { return file_; }
    std::vector<Diagnostic> take() { return std::move(diagnostics_); }

    static constexpr std::size_t kMaxDiagnostics = 500;

  private:
    std::string file_;
    std::vector<std::string> lines_;
    std::vector<Diagnostic> diagnostics_;
    std::set<std::tuple<int, int, std::string>> seen_;
    std::size_t errors_ = 0;
    bool truncated_ = false;
};

} // namespace bif::model::detail
