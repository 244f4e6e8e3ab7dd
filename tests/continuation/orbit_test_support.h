// A model for the orbit tests: .ode text (or a bundled model file) parsed, the compiler-free
// evaluator built from it, and its default parameter values and initial state.
#pragma once

#include "engine/codegen/host_model.h"
#include "engine/model/parse.h"

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

namespace orbit_test {

struct LoadedModel {
    std::shared_ptr<bif::model::Model> model;
    std::unique_ptr<bif::codegen::HostModel> host;
    std::vector<double> parameters; // user parameters, the model's values

    int parameter(const std::string& name) const { return model->parameter_index(name); }
    Eigen::VectorXd initial() const;
};

// REQUIREs that the text parses without errors.
LoadedModel load_text(const std::string& text);
LoadedModel load_bundled(const std::string& file_name); // from resources/models

} // namespace orbit_test
