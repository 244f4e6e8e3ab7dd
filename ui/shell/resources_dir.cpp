#include "ui/shell/resources_dir.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace bif::ui {

namespace {

bool holds_resources(const QString& path) {
    return QFileInfo(path + "/models").isDir();
}

} // namespace

QString resources_dir() {
#ifdef BIFSCOPE_RESOURCES_DIR
    if (holds_resources(BIFSCOPE_RESOURCES_DIR)) return QDir::cleanPath(BIFSCOPE_RESOURCES_DIR);
#endif
    const QString program_dir = QCoreApplication::applicationDirPath();
    for (const char* relative :
         {"resources", "../resources", "../share/bifscope/resources", "../../resources"}) {
        const QString candidate = QDir::cleanPath(program_dir + "/" + relative);
        if (holds_resources(candidate)) return candidate;
    }
    return {};
}

} // namespace bif::ui
