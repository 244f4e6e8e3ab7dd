#include "engine/continuation/orbit_study_csv.h"

#include "engine/continuation/orbit_csv.h"

#include <ostream>
#include <sstream>

namespace bif::cont {

void write_orbit_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                           const OrbitStudyOutcome& outcome) {
    out << "# bifscope result\n# analysis: " << study::name_of(r.study.analysis) << "\n";
    for (const std::string& note : outcome.notes)
        out << "# " << note << "\n";
    std::istringstream json(study::write_equilibrium_study_json(r.study));
    for (std::string line; std::getline(json, line);)
        out << "# " << line << "\n";
    write_orbit_branch_csv(out, outcome.branch, r.study.parameter, outcome.unknown_names);
}

} // namespace bif::cont
