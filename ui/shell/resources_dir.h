// Where the bundled models, studies and help live: the source tree's resources/ when the program
// runs from a build (BIFSCOPE_RESOURCES_DIR), else a resources/ folder beside the executable's
// folders (an installed or relocated copy).
#pragma once

#include <QString>

namespace bif::ui {

// Absolute path without a trailing slash; empty when no resources folder was found.
QString resources_dir();

} // namespace bif::ui
