#include "ui/window/document_controller.h"

#include "engine/model/parse.h"
#include "engine/study/study_json.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/plot/save_output.h"
#include "ui/plot/saved_overlays.h"
#include "ui/study/study_panel.h"
#include "ui/window/phase_plane_documents.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStringList>
#include <QTextDocument>

namespace bif::ui {

namespace {

constexpr qint64 max_file_bytes = 16 * 1024 * 1024;
const char* model_filter = "XPPAUT models (*.ode);;All files (*)";
const char* study_filter = "Bifscope studies (*.json);;All files (*)";

// Reads a regular text file of at most 16 MB (a device or a huge file would hang or swamp the editor).
std::optional<QString> read_text(const QString& path, QString& error) {
    const QFileInfo info(path);
    if (!info.exists()) return error = QObject::tr("%1 does not exist").arg(path), std::nullopt;
    if (!info.isFile()) return error = QObject::tr("%1 is not a regular file").arg(path), std::nullopt;
    if (info.size() > max_file_bytes)
        return error = QObject::tr("%1 is larger than 16 MB").arg(path), std::nullopt;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return error = QObject::tr("cannot read %1: %2").arg(path, file.errorString()), std::nullopt;
    return QString::fromUtf8(file.readAll());
}

bool write_text(const QString& path, const QString& text, QString& error) {
    error = plot::save_output(path, text.toUtf8());
    return error.isEmpty();
}

bool looks_like_study(const QString& path, const QString& text) {
    return path.endsWith(".json", Qt::CaseInsensitive) || text.trimmed().startsWith('{');
}

} // namespace

DocumentController::DocumentController(ModelEditorPanel& editor, StudyPanel& study, QWidget& dialog_parent,
                                       QObject* parent)
    : QObject(parent), editor_(editor), study_(study), dialog_parent_(dialog_parent) {
    connect(editor_.document(), &QTextDocument::modificationChanged, this, [this](bool modified) {
        state_.model_modified = modified;
        emit stateChanged();
    });
    connect(&study_, &StudyPanel::studyChanged, this, &DocumentController::updateStudyModified);
}

QString DocumentController::studyText() const {
    study::Study s = study_.study();
    s.model = {};
    return QString::fromStdString(study::write_study_json(s));
}

void DocumentController::takeStudyAsSaved() {
    saved_study_ = studyText();
    state_.study_modified = false;
}

void DocumentController::updateStudyModified() {
    const bool modified = studyText() != saved_study_;
    if (modified == state_.study_modified) return;
    state_.study_modified = modified;
    emit stateChanged();
}

void DocumentController::setModelText(const QString& text, const QString& path) {
    state_.model_path = path;
    // The study panel learns the model at once (a synchronous parse of a file just opened is quick), so
    // that a study applied next finds its names; the editor's own checker follows asynchronously.
    model::ParseResult parsed = model::parse_model(text.toStdString(), path.toStdString());
    editor_.setText(text);
    editor_.document()->setModified(false);
    if (parsed.model) {
        study::ModelSource source;
        source.text = text.toStdString();
        study_.setModel(std::make_shared<const model::Model>(std::move(*parsed.model)), source,
                        state_.base_directory());
    }
    emit stateChanged();
}

void DocumentController::setBranches(std::shared_ptr<const plot::Overlays> branches) {
    branches_ = branches ? std::move(branches) : std::make_shared<const plot::Overlays>();
    const bool modified = branchesDifferFromSaved();
    if (modified == state_.branches_modified) return;
    state_.branches_modified = modified;
    emit stateChanged();
}

bool DocumentController::branchesDifferFromSaved() const {
    return branches_ != saved_branches_ && !(branches_->empty() && saved_branches_->empty());
}

void DocumentController::takeBranchesAsSaved() {
    saved_branches_ = branches_;
    state_.branches_modified = false;
}

void DocumentController::clearBranches() {
    branches_ = std::make_shared<const plot::Overlays>();
    takeBranchesAsSaved();
    emit branchesReplaced();
}

void DocumentController::loadBranches(const QString& json_text, const QString& source) {
    plot::DocumentOverlays read = plot::overlays_of_document(json_text);
    for (const QString& problem : read.errors)
        emit message(QString("%1: %2").arg(source, problem), true);
    for (const QString& problem : read.warnings)
        emit message(QString("%1: %2").arg(source, problem), false);
    if (!read.errors.isEmpty())
        emit message(tr("%1: branches that cannot be read are left out; the study and the other branches "
                        "are open.")
                         .arg(source),
                     true);
    branches_ = std::make_shared<const plot::Overlays>(std::move(read.overlays));
    takeBranchesAsSaved();
    emit branchesReplaced();
    if (!branches_->empty())
        emit note(tr("%1 holds %2; they are drawn over the study's result when it runs.")
                      .arg(source, branches_->size() == 1 ? tr("1 branch")
                                                          : tr("%1 branches").arg(branches_->size())));
}

bool DocumentController::newModel() {
    if (!maybeSave()) return false;
    clearBranches();
    state_.study_path.clear();
    setModelText("# A new model: one equation per line, then parameters, initial values and `done`.\n"
                 "x'=y\ny'=-a*x-c*y+b*cos(w*t)\npar a=1, b=0.5, c=0.1, w=1.2\ninit x=0.1, y=0\ndone\n",
                 QString());
    takeStudyAsSaved();
    emit stateChanged();
    return true;
}

bool DocumentController::open(const QString& path) {
    QString error;
    const auto text = read_text(path, error);
    if (!text) {
        QMessageBox::warning(&dialog_parent_, tr("Open"), error);
        return false;
    }
    return looks_like_study(path, *text) ? openStudy(path) : openModel(path);
}

bool DocumentController::openModel(const QString& path) {
    if (!maybeSave()) return false;
    QString error;
    const auto text = read_text(path, error);
    if (!text) {
        QMessageBox::warning(&dialog_parent_, tr("Open model"), error);
        return false;
    }
    clearBranches();
    state_.study_path.clear();
    setModelText(*text, QFileInfo(path).absoluteFilePath());
    // The study the panel made for the model has no file: it is modified once edited.
    takeStudyAsSaved();
    emit stateChanged();
    emit fileUsed(QFileInfo(path).absoluteFilePath());
    return true;
}

bool DocumentController::showModelText(const QString& text) {
    if (!maybeSave()) return false;
    clearBranches();
    state_.study_path.clear();
    setModelText(text, QString());
    takeStudyAsSaved();
    emit stateChanged();
    return true;
}

bool DocumentController::openStudy(const QString& path) {
    if (!maybeSave()) return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    study::StudyReadResult read = study::read_study_file(absolute.toStdString());
    if (!read.study) {
        QString text;
        for (const auto& p : read.problems)
            text += QString::fromStdString(p.format()) + "\n";
        QMessageBox::warning(&dialog_parent_, tr("Open study"), tr("%1 cannot be read:\n%2").arg(path, text));
        return false;
    }
    for (const auto& p : read.problems)
        emit message(QString("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(p.format())),
                     p.severity == study::ProblemSeverity::Error);
    // Read before the study is applied: the document is whole once its state says it changed.
    QString error;
    loadBranches(read_text(absolute, error).value_or(QString()), QFileInfo(path).fileName());
    if (!applyStudy(*read.study, absolute)) return false;
    emit fileUsed(absolute);
    return true;
}

bool DocumentController::applyStudy(const study::Study& s, const QString& study_path) {
    state_.study_path = study_path;
    if (!s.model.path.empty()) {
        QString model_path = QString::fromStdString(s.model.path);
        if (QFileInfo(model_path).isRelative())
            model_path = QDir(QFileInfo(study_path).absolutePath()).filePath(model_path);
        QString error;
        const auto text = read_text(model_path, error);
        if (!text) {
            QMessageBox::warning(&dialog_parent_, tr("Open study"), tr("The study's model: %1").arg(error));
            return false;
        }
        setModelText(*text, QFileInfo(model_path).absoluteFilePath());
    } else {
        setModelText(QString::fromStdString(s.model.text), QString());
    }
    study_.setStudy(s);
    takeStudyAsSaved();
    emit stateChanged();
    return true;
}

void DocumentController::restore(const QString& model_text, const QString& model_path,
                                 const QString& study_json, const QString& study_path) {
    state_.study_path = study_path;
    loadBranches(study_json, tr("the recovered study"));
    setModelText(model_text, model_path);
    // The recovered study is unsaved where it is not its study file's (shown through the panel as the
    // file would be, so that both texts are the panel's), or where it has no file.
    saved_study_ = studyText();
    const std::optional<study::Study> recovered =
        study_json.isEmpty() ? std::nullopt : study::read_study_json(study_json.toStdString()).study;
    if (recovered) {
        saved_study_.clear();
        if (!study_path.isEmpty()) {
            const std::optional<study::Study> on_disk =
                study::read_study_file(study_path.toStdString()).study;
            if (on_disk) {
                study_.setStudy(*on_disk);
                saved_study_ = studyText();
            }
        }
        study_.setStudy(*recovered);
    }
    // What was recovered is not on disk yet, its branches included.
    editor_.document()->setModified(true);
    saved_branches_ = std::make_shared<const plot::Overlays>();
    state_.branches_modified = branchesDifferFromSaved();
    state_.study_modified = studyText() != saved_study_;
    emit stateChanged();
}

bool DocumentController::writeModel(const QString& path) {
    QString error;
    if (!write_text(path, editor_.text(), error)) {
        QMessageBox::warning(&dialog_parent_, tr("Save model"), error);
        return false;
    }
    state_.model_path = QFileInfo(path).absoluteFilePath();
    editor_.document()->setModified(false);
    emit fileUsed(state_.model_path);
    emit stateChanged();
    return true;
}

bool DocumentController::save() {
    return state_.model_path.isEmpty() ? saveAs() : writeModel(state_.model_path);
}

bool DocumentController::saveAs() {
    const QString start =
        state_.model_path.isEmpty() ? QDir::home().filePath("model.ode") : state_.model_path;
    const QString path =
        QFileDialog::getSaveFileName(&dialog_parent_, tr("Save model as"), start, tr(model_filter));
    return !path.isEmpty() && writeModel(path);
}

bool DocumentController::saveStudyAs() {
    QString start = state_.study_path;
    if (start.isEmpty())
        start = QDir(state_.base_directory())
                    .filePath(QFileInfo(state_.model_display_name()).baseName() + "_study.json");
    const QString path =
        QFileDialog::getSaveFileName(&dialog_parent_, tr("Save study as"), start, tr(study_filter));
    return !path.isEmpty() && saveStudy(path);
}

bool DocumentController::saveStudy(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QString error;
    if (!write_text(absolute, documentJson(studyForFile(absolute)), error)) {
        QMessageBox::warning(&dialog_parent_, tr("Save study"), error);
        return false;
    }
    state_.study_path = absolute;
    takeBranchesAsSaved();
    takeStudyAsSaved();
    emit fileUsed(absolute);
    emit stateChanged();
    return true;
}

void DocumentController::setPhasePlanes(PhasePlaneDocuments* planes) {
    planes_ = planes;
    if (!planes_) return;
    connect(planes_, &PhasePlaneDocuments::modifiedChanged, this, [this] {
        state_.phase_plane_modified = planes_->modified();
        emit stateChanged();
    });
    state_.phase_plane_modified = planes_->modified();
}

bool DocumentController::maybeSave() {
    return askToSave(false);
}

bool DocumentController::maybeSaveBeforeClosing() {
    return askToSave(true);
}

bool DocumentController::askToSave(bool with_phase_planes) {
    const bool document =
        editor_.document()->isModified() || state_.study_modified || state_.branches_modified;
    const bool planes = with_phase_planes && planes_ && planes_->modified();
    if (!document && !planes) return true;
    const auto answer = QMessageBox::warning(
        &dialog_parent_, tr("Unsaved changes"), unsavedChangesText(with_phase_planes),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return (!document || saveModified()) && (!planes || planes_->saveModified());
    return answer == QMessageBox::Discard;
}

QString DocumentController::unsavedChangesText(bool with_phase_planes) const {
    const QString study =
        state_.study_path.isEmpty() ? tr("any study file") : QFileInfo(state_.study_path).fileName();
    QStringList parts;
    if (editor_.document()->isModified())
        parts << tr("%1 has unsaved changes.").arg(state_.model_display_name());
    if (state_.study_modified && state_.branches_modified)
        parts << tr("The study's settings and the branches drawn over its result have changes not saved in "
                    "%1.")
                     .arg(study);
    else if (state_.study_modified)
        parts << tr("The study's settings have changes not saved in %1.").arg(study);
    else if (state_.branches_modified)
        parts << tr("The branches drawn over the study's result have changes not saved in %1.").arg(study);
    if (with_phase_planes && planes_ && planes_->modified()) {
        const QStringList names = planes_->modifiedNames();
        parts << (names.size() == 1 ? tr("The phase-plane study %1 has unsaved changes.").arg(names.front())
                                    : tr("The phase-plane studies %1 have unsaved changes.")
                                          .arg(names.join(QStringLiteral(", "))));
    }
    parts << tr("Save them?");
    return parts.join(' ');
}

bool DocumentController::saveModified() {
    // The model first: a study saved after it names the model by its path rather than inline.
    if (editor_.document()->isModified() && !save()) return false;
    if (!state_.study_modified && !state_.branches_modified) return true;
    // The study and its branches go into the study file the document came from; one that cannot be written
    // (an installed example) or none yet: the user picks where.
    const QFileInfo study(state_.study_path);
    if (state_.study_path.isEmpty() || !study.isWritable()) return saveStudyAs();
    return saveStudy(state_.study_path);
}

study::Study DocumentController::studyForRun() const {
    study::Study s = study_.study();
    s.model = {};
    s.model.text = editor_.text().toStdString();
    return s;
}

QString DocumentController::documentJson(const study::Study& study) const {
    return plot::document_json_with(study::write_study_json(study), *branches_);
}

study::Study DocumentController::studyForFile(const QString& study_path) const {
    study::Study s = studyForRun();
    if (!state_.model_path.isEmpty() && !editor_.document()->isModified()) {
        s.model = {};
        s.model.path =
            QDir(QFileInfo(study_path).absolutePath()).relativeFilePath(state_.model_path).toStdString();
    }
    return s;
}

} // namespace bif::ui
