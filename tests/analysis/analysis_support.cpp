#include "analysis_support.h"

#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace bif;

namespace analysis_test {

namespace {

struct CacheFolder {
    fs::path path;
    CacheFolder() {
        std::string pattern = (fs::temp_directory_path() / "bifscope-analysis-XXXXXX").string();
        path = ::mkdtemp(pattern.data());
    }
    ~CacheFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

const fs::path& cache_folder() {
    static CacheFolder folder;
    return folder.path;
}

} // namespace

std::shared_ptr<const study::ResolvedStudy> resolve(const std::string& json) {
    const study::StudyReadResult read = study::read_study_json(json);
    for (const auto& p : read.problems)
        INFO(p.format());
    REQUIRE(read.study);
    REQUIRE(!study::has_errors(read.problems));
    const study::ResolveResult resolved = study::resolve_study(*read.study, BIFSCOPE_MODELS_DIR);
    for (const auto& p : resolved.problems)
        UNSCOPED_INFO(p.format());
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

cpu::CpuBackendOptions backend_options(bool native) {
    cpu::CpuBackendOptions options;
    options.compile.cache_dir = cache_folder();
    options.allow_native = native;
    return options;
}

study::Result run(const study::ResolvedStudy& s, bool native, unsigned threads) {
    auto backend = cpu::make_cpu_backend(backend_options(native));
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {}, threads);
    study::Result r = backend->run(s, control);
    REQUIRE(r.info.complete);
    if (native && r.info.code_path != study::CodePath::NativeCompiled)
        WARN("ran on the evaluator: " << r.info.code_note);
    return r;
}

study::Result run(const std::string& json, bool native, unsigned threads) {
    return run(*resolve(json), native, threads);
}

std::size_t point_column(const study::Result& r, const std::string& name) {
    for (std::size_t c = 0; c < r.points.columns.size(); ++c)
        if (r.points.columns[c] == name) return c;
    FAIL("no point column " << name);
    return 0;
}

} // namespace analysis_test
