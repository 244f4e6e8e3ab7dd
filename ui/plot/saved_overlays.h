// The overlays of a figure as a document keeps them (engine/continuation/saved_branch.h) and back:
// the same values, QString for std::string, so that a reopened document draws and hovers them as
// they were, and the document's study text with or without them.
#pragma once

#include "engine/continuation/saved_branch.h"
#include "ui/plot/branch_overlay.h"

#include <QString>
#include <QStringList>

namespace bif::plot {

cont::SavedBranch saved_branch_of(const BranchOverlay& overlay);
BranchOverlay overlay_of(const cont::SavedBranch& saved);

// The study file's text with "branches" set to the overlays (none: the member is left out).
QString document_json_with(const std::string& study_json, const Overlays& overlays);

struct DocumentOverlays {
    Overlays overlays;
    // Each with its JSON path: "branches.overlays[1].kind: unknown value 'spiral'; ...".
    QStringList errors, warnings;
};
// The overlays a study file's text holds.
DocumentOverlays overlays_of_document(const QString& document_json);

} // namespace bif::plot
