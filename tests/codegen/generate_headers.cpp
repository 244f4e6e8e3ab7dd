// Writes generated model headers for the compiled-in tests: for every model key given (builtin
// models first, then the .ode paths on the command line) one header per precision with the types
// GenModel<i>Double and GenModel<i>Float, and generated_registry.h listing them with their keys.
// A model that does not load is listed as a failure, for the test to report; the build goes on.
#include "tests/codegen/test_models.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace {

// A C++ string literal with the text's characters escaped.
std::string quoted(const std::string& text) {
    std::ostringstream out;
    out << '"';
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out << '\\' << c;
        } else if (c < 0x20 || c >= 0x7f) {
            out << "\\" << std::oct << ((c >> 6) & 7) << ((c >> 3) & 7) << (c & 7) << std::dec;
        } else {
            out << c;
        }
    }
    out << '"';
    return out.str();
}

bool write_if_changed(const std::string& path, const std::string& text) {
    {
        std::ifstream in(path, std::ios::binary);
        std::stringstream old;
        old << in.rdbuf();
        if (in && old.str() == text) return true;
    }
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: codegen_generate_headers OUTPUT_DIR [MODEL.ode ...]\n";
        return 2;
    }
    const std::string dir = argv[1];
    std::vector<std::string> keys = bif::codegen_test::builtin_model_keys();
    for (int i = 2; i < argc; ++i)
        keys.push_back(argv[i]);

    std::string includes, pairs, loaded_keys, failures;
    int count = 0;
    for (const std::string& key : keys) {
        std::string error;
        std::optional<bif::model::Model> m = bif::codegen_test::load_test_model(key, &error);
        if (!m) {
            failures += "    {" + quoted(key) + ", " + quoted(error) + "},\n";
            continue;
        }
        const std::string index = std::to_string(count++);
        for (auto precision : {bif::codegen::Precision::Double, bif::codegen::Precision::Float}) {
            const bool is_double = precision == bif::codegen::Precision::Double;
            const std::string type = "GenModel" + index + (is_double ? "Double" : "Float");
            const std::string file = "gen_model_" + index + (is_double ? "_double.h" : "_float.h");
            bif::model::Model copy = *m;
            const bif::codegen::Request request = bif::codegen_test::make_test_request(copy, precision, type);
            std::string source;
            try {
                source = bif::codegen::generate_source(request);
            } catch (const std::exception& ex) {
                std::cerr << key << ": " << ex.what() << "\n";
                return 1;
            }
            if (!write_if_changed(dir + "/" + file, "#pragma once\n" + source)) {
                std::cerr << "cannot write " << dir << "/" << file << "\n";
                return 1;
            }
            includes += "#include \"" + file + "\"\n";
        }
        pairs += std::string(pairs.empty() ? "" : ",\n") + "    ModelPair<GenModel" + index +
                 "Double, GenModel" + index + "Float>";
        loaded_keys += "    " + quoted(key) + ",\n";
    }
    std::string registry =
        "// Written by codegen_generate_headers; do not edit.\n#pragma once\n\n" + includes +
        "\n#include <tuple>\n\nnamespace generated {\n\n"
        "template <class D, class F>\nstruct ModelPair {\n    using Double = D;\n    using Float = F;\n};\n\n"
        "using Models = std::tuple<\n" +
        pairs + ">;\n\ninline const char* const keys[] = {\n" + loaded_keys +
        "    nullptr,\n};\n\nstruct Failure {\n    const char* key;\n    const char* error;\n};\n"
        "inline const Failure failures[] = {\n" +
        failures + "    {nullptr, nullptr},\n};\n\n} // namespace generated\n";
    if (!write_if_changed(dir + "/generated_registry.h", registry)) {
        std::cerr << "cannot write the registry\n";
        return 1;
    }
    return 0;
}
