// libFuzzer entry: the front end must never crash, hang, leak or read out of bounds on any bytes,
// and every diagnostic must format. Study expressions are parsed against any model that loads.
#include "engine/model/parse.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    bif::model::ParseResult result = bif::model::parse_model(text, "fuzz.ode");
    std::size_t total = 0;
    for (const auto& d : result.diagnostics)
        total += d.format().size();
    if (result.model) {
        // the last line of the input doubles as a study formula
        const std::size_t cut = text.rfind('\n');
        const auto e =
            bif::model::parse_expression(*result.model, cut == text.npos ? text : text.substr(cut + 1));
        for (const auto& d : e.diagnostics)
            total += d.format().size();
    }
    return total == static_cast<std::size_t>(-1) ? 1 : 0;
}
