#include "ui/window/document_state.h"

#include <QDir>
#include <QFileInfo>

namespace bif::ui {

QString DocumentState::model_display_name() const {
    return model_path.isEmpty() ? QStringLiteral("untitled.ode") : QFileInfo(model_path).fileName();
}

QString DocumentState::base_directory() const {
    if (!study_path.isEmpty()) return QFileInfo(study_path).absolutePath();
    if (!model_path.isEmpty()) return QFileInfo(model_path).absolutePath();
    return QDir::currentPath();
}

} // namespace bif::ui
