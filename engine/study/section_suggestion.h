// A Poincaré section that a new study can run with at once, and the section counts to go with it.
//
// A user who picks "Bifurcation diagram" for a model should be able to press Run straight away: the
// section is the model's forcing period when its right-hand side is periodic in t (b*cos(omega*t)
// gives 2*pi/omega, so the period follows omega), else the model's own `@ poivar/poipln` section,
// else where the first state crosses zero going up.
#pragma once

#include "engine/model/model.h"
#include "engine/study/study.h"

#include <optional>
#include <string>

namespace bif::study {

// Section points discarded and recorded per system, as the bundled studies use them.
inline constexpr int suggested_transient_sections = 256;
inline constexpr int suggested_recorded_sections = 32;

// The forcing period as a formula of the parameters ("2*pi/omega", "T", "2*pi"), when every t in
// the right-hand sides sits in the argument of a sin, cos or tan that is linear in t with a
// coefficient made of constants and parameters. With several frequencies, the slowest when the
// others are whole multiples of it, else the first found. Nothing for an autonomous model or one
// with a t elsewhere (exp(-t), t*x).
std::optional<std::string> forcing_period(const model::Model& model);

struct SuggestedSection {
    Section section;
    std::string why; // "the forcing period of cos(omega*t)", for a note to the user
};

SuggestedSection suggested_section(const model::Model& model);

// Whether a section has nothing to run with yet (a stroboscopic one without a period, an event one
// without a condition).
bool section_is_empty(const Section& section);

} // namespace bif::study
