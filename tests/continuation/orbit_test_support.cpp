#include "orbit_test_support.h"

#include <catch2/catch.hpp>

namespace orbit_test {
namespace {

LoadedModel from(bif::model::ParseResult parsed) {
    std::string messages;
    for (const auto& d : parsed.diagnostics)
        messages += d.message + "\n";
    INFO(messages);
    REQUIRE(parsed.model);
    LoadedModel m;
    m.model = std::make_shared<bif::model::Model>(std::move(*parsed.model));
    bif::codegen::Request request;
    request.model = m.model.get();
    request.tangent_derivatives = true;
    m.host = std::make_unique<bif::codegen::HostModel>(request);
    for (const auto& p : m.model->parameters)
        m.parameters.push_back(p.value);
    return m;
}

} // namespace

Eigen::VectorXd LoadedModel::initial() const {
    Eigen::VectorXd x(static_cast<Eigen::Index>(model->states.size()));
    for (std::size_t i = 0; i < model->states.size(); ++i)
        x[static_cast<Eigen::Index>(i)] = model->states[i].initial;
    return x;
}

LoadedModel load_text(const std::string& text) {
    return from(bif::model::parse_model(text));
}

LoadedModel load_bundled(const std::string& file_name) {
    return from(bif::model::load_model_file(std::string(BIFSCOPE_MODELS_DIR) + "/" + file_name));
}

} // namespace orbit_test
