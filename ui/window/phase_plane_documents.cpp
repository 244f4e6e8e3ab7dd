#include "ui/window/phase_plane_documents.h"

#include "ui/phase/phase_plane_panel.h"
#include "ui/window/phase_plane_studies.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <algorithm>

namespace bif::ui {

PhasePlaneDocuments::PhasePlaneDocuments(QWidget& dialog_parent, QObject* parent)
    : QObject(parent), dialog_parent_(dialog_parent) {}

void PhasePlaneDocuments::track(PhasePlanePanel* panel, const QString& path) {
    if (panel) track(panel, path, phase_plane_study_text(*panel));
}

void PhasePlaneDocuments::track(PhasePlanePanel* panel, const QString& path, const QString& saved_text) {
    if (!panel || entryOf(panel)) return;
    Entry entry;
    entry.panel = panel;
    entry.key = panel;
    entry.path = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    entry.saved_text = saved_text;
    entries_.push_back(std::move(entry));
    connect(panel, &PhasePlanePanel::studyChanged, this, [this, panel] {
        if (Entry* e = entryOf(panel)) update(*e);
    });
    connect(panel, &QObject::destroyed, this, &PhasePlaneDocuments::forget);
    update(entries_.back());
}

PhasePlaneDocuments::Entry* PhasePlaneDocuments::entryOf(const PhasePlanePanel* panel) {
    for (Entry& e : entries_)
        if (e.key == panel) return &e;
    return nullptr;
}

const PhasePlaneDocuments::Entry* PhasePlaneDocuments::entryOf(const PhasePlanePanel* panel) const {
    for (const Entry& e : entries_)
        if (e.key == panel) return &e;
    return nullptr;
}

void PhasePlaneDocuments::update(Entry& entry) {
    const bool modified = phase_plane_study_text(*entry.panel) != entry.saved_text;
    if (modified == entry.modified) return;
    entry.modified = modified;
    emit modifiedChanged();
}

// A closed tab's view is gone, its changes with it.
void PhasePlaneDocuments::forget(QObject* panel) {
    const auto gone = std::remove_if(entries_.begin(), entries_.end(),
                                     [panel](const Entry& e) { return e.key == panel || !e.panel; });
    if (gone == entries_.end()) return;
    const bool was_modified = std::any_of(gone, entries_.end(), [](const Entry& e) { return e.modified; });
    entries_.erase(gone, entries_.end());
    if (was_modified) emit modifiedChanged();
}

bool PhasePlaneDocuments::modified() const {
    return std::any_of(entries_.begin(), entries_.end(),
                       [](const Entry& e) { return e.panel && e.modified; });
}

bool PhasePlaneDocuments::isModified(const PhasePlanePanel* panel) const {
    const Entry* e = entryOf(panel);
    return e && e->modified;
}

QString PhasePlaneDocuments::path(const PhasePlanePanel* panel) const {
    const Entry* e = entryOf(panel);
    return e ? e->path : QString();
}

QStringList PhasePlaneDocuments::modifiedNames() const {
    QStringList names;
    for (const Entry& e : entries_)
        if (e.panel && e.modified)
            names << (e.path.isEmpty() ? tr("“%1” (no file yet)").arg(e.panel->title())
                                       : QFileInfo(e.path).fileName());
    return names;
}

bool PhasePlaneDocuments::save(PhasePlanePanel& panel) {
    const QString path = this->path(&panel);
    if (path.isEmpty() || !QFileInfo(path).isWritable()) return saveAs(panel);
    return saveTo(panel, path);
}

bool PhasePlaneDocuments::saveAs(PhasePlanePanel& panel) {
    QString start = path(&panel);
    if (start.isEmpty())
        start = QDir(QString::fromStdString(panel.baseDirectory())).filePath("phase_plane.json");
    const QString path = QFileDialog::getSaveFileName(&dialog_parent_, tr("Save phase-plane study"), start,
                                                      tr("Bifscope studies (*.json);;All files (*)"));
    return !path.isEmpty() && saveTo(panel, path);
}

bool PhasePlaneDocuments::saveTo(PhasePlanePanel& panel, const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QString why;
    if (!save_phase_plane_study(panel, absolute, why)) {
        QMessageBox::warning(&dialog_parent_, tr("Save phase-plane study"), why);
        return false;
    }
    track(&panel, absolute);
    Entry* entry = entryOf(&panel);
    entry->path = absolute;
    entry->saved_text = phase_plane_study_text(panel);
    update(*entry);
    emit fileUsed(absolute);
    return true;
}

bool PhasePlaneDocuments::maybeSave(PhasePlanePanel& panel) {
    const Entry* e = entryOf(&panel);
    if (!e || !e->modified) return true;
    const QString name =
        e->path.isEmpty() ? tr("“%1” (no file yet)").arg(panel.title()) : QFileInfo(e->path).fileName();
    const auto answer = QMessageBox::warning(
        &dialog_parent_, tr("Unsaved changes"),
        tr("The phase-plane study %1 has unsaved changes. Save them?").arg(name),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save(panel);
    return answer == QMessageBox::Discard;
}

bool PhasePlaneDocuments::saveModified() {
    // Collected first: a save may re-enter (a dialog's event loop) and a tab may close meanwhile.
    std::vector<QPointer<PhasePlanePanel>> modified;
    for (const Entry& e : entries_)
        if (e.panel && e.modified) modified.push_back(e.panel);
    for (const auto& panel : modified)
        if (panel && isModified(panel) && !save(*panel)) return false;
    return true;
}

} // namespace bif::ui
