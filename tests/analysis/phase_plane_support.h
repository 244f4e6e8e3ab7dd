// Phase-plane studies from inline model text, for the phase-plane tests and benchmark.
#pragma once

#include "engine/study/resolved_study.h"

#include <memory>
#include <string>

namespace phase_plane_test {

// A phase_plane study of `model_text` with the analysis block's extra keys `analysis_keys`
// (e.g. "\"x_range\": [-3, 3]") and the parameters object `parameters` ("{\"mu\": 1}").
std::string study_json(const std::string& model_text, const std::string& analysis_keys = "",
                       const std::string& parameters = "{}");

// Reads and resolves a study; nullptr with the problems in `why` when it has errors.
std::shared_ptr<const bif::study::ResolvedStudy> resolve(const std::string& json, std::string* why = nullptr);

inline const char* van_der_pol = "x'=y\ny'=mu*(1-x^2)*y-x\npar mu=1\ninit x=0.5,y=0\ndone\n";
// A linear saddle: eigenvalues 3 (along (1, 1)) and -1 (along (1, -1)).
inline const char* linear_saddle = "x'=x+2*y\ny'=2*x+y\ndone\n";
// FitzHugh-Nagumo; with a = 0, b = 3 the w-nullcline w = v/3 meets the cubic v-nullcline
// w = v - v^3/3 + I three times for |I| < sqrt(32/243), once above.
inline const char* fitzhugh_nagumo =
    "v'=v-v^3/3-w+i\nw'=eps*(v+a-b*w)\npar i=0,a=0,b=3,eps=0.08\ninit v=0,w=0\ndone\n";

} // namespace phase_plane_test
