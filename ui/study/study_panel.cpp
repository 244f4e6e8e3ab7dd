#include "ui/study/study_panel.h"

#include "engine/model/parameter_set.h"
#include "engine/study/decimal_rounding.h"
#include "engine/study/model_options.h"
#include "engine/study/section_suggestion.h"
#include "ui/study/formula_field.h"
#include "ui/study/name_value_table.h"
#include "ui/study/row_table.h"
#include "ui/study/section_editor.h"
#include "ui/study/study_checker.h"
#include "ui/study/sweep_axis_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableWidget>
#include <optional>

namespace bif::ui {

using namespace bif::study;

namespace {

bool same_section(const Section& a, const Section& b) {
    return a.kind == b.kind && a.period == b.period && a.condition == b.condition &&
           a.direction == b.direction;
}

} // namespace

StudyPanel::StudyPanel(QWidget* parent) : QWidget(parent), checker_(new StudyChecker(this)) {
    buildForm();
    fill(Study());
    registerPaths();
    connectEdits();
    connect(checker_, &StudyChecker::checked, this, &StudyPanel::showProblems);
}

void StudyPanel::connectEdits() {
    for (FormulaField* f : formula_fields_)
        connect(f, &FormulaField::edited, this, &StudyPanel::edited);
    for (SweepAxisEditor* a : axes_)
        connect(a, &SweepAxisEditor::edited, this, &StudyPanel::edited);
    for (int i = 0; i < 3; ++i) {
        connect(sections_[i], &SectionEditor::edited, this, &StudyPanel::edited);
        connect(transient_[i], &QSpinBox::valueChanged, this, &StudyPanel::edited);
        connect(recorded_[i], &QSpinBox::valueChanged, this, &StudyPanel::edited);
    }
    for (QSpinBox* box : {map_max_period_, basin_max_period_, max_attractors_, output_count_, lyapunov_axes_})
        connect(box, &QSpinBox::valueChanged, this, &StudyPanel::edited);
    for (QCheckBox* box : {continuation_, chain_rows_, detect_period_, largest_exponent_, count_events_})
        connect(box, &QCheckBox::toggled, this, &StudyPanel::edited);
    for (QCheckBox* box : {continuation_, chain_rows_})
        connect(box, &QCheckBox::toggled, this, [this] {
            chain_rows_->setEnabled(continuation_->isChecked());
            showAxes();
        });
    for (QComboBox* box : {lyapunov_mode_, method_, precision_, backend_})
        connect(box, &QComboBox::activated, this, &StudyPanel::edited);
    for (RowTable* t : {bifurcation_record_, accessories_, trajectory_record_})
        connect(t, &RowTable::edited, this, &StudyPanel::edited);
    connect(parameters_, &NameValueTable::edited, this, [this] {
        // Formulas of the parameters follow their new values.
        evaluator_.setParameters(parameters_->overrides());
        refreshFormulas();
        edited();
    });
    connect(initial_, &NameValueTable::edited, this, &StudyPanel::edited);
    connect(parameter_set_, &QComboBox::activated, this, &StudyPanel::applyParameterSet);
    connect(title_, &QLineEdit::textEdited, this, &StudyPanel::edited);
    connect(description_, &QPlainTextEdit::textChanged, this, &StudyPanel::edited);
    connect(kind_, &QComboBox::activated, this, [this] {
        const auto kind = static_cast<AnalysisKind>(kind_->currentData().toInt());
        pages_->setCurrentIndex(int(kind));
        defaultAxesFor(kind);
        defaultSectionFor(kind);
        showAxes();
        registerPaths();
        edited();
    });
}

int StudyPanel::axisCount() const {
    switch (static_cast<AnalysisKind>(kind_->currentData().toInt())) {
    case AnalysisKind::Bifurcation:
        return continuation_->isChecked() && chain_rows_->isChecked() ? 2 : 1;
    case AnalysisKind::Lyapunov:
        return lyapunov_axes_->value();
    case AnalysisKind::ParameterMap:
    case AnalysisKind::Basins:
        return 2;
    case AnalysisKind::Trajectory:
    case AnalysisKind::PhasePlane: // not offered here: the phase-plane view edits it
        return 0;
    }
    return 0;
}

void StudyPanel::showAxes() {
    for (int i = 0; i < 2; ++i)
        axes_[i]->setVisible(i < axisCount());
}

// Switching to an analysis whose axes must sweep something else (basins sweep initial values,
// a bifurcation diagram a parameter) starts those axes on the model's first names.
void StudyPanel::defaultAxesFor(AnalysisKind kind) {
    if (!model_) return;
    const auto want = kind == AnalysisKind::Basins ? SweepTarget::InitialValue : SweepTarget::Parameter;
    const std::size_t available =
        want == SweepTarget::Parameter ? model_->parameters.size() : model_->states.size();
    for (int i = 0; i < axisCount() && i < int(available); ++i) {
        const SweepAxis current = axes_[i]->axis();
        if (current.target == want && !current.name.empty()) continue;
        SweepAxis a;
        a.target = want;
        const double v =
            want == SweepTarget::Parameter ? model_->parameters[i].value : model_->states[i].initial;
        a.name = want == SweepTarget::Parameter ? model_->parameters[i].name : model_->states[i].name;
        // Rounded, so that 1.5 * 0.05 reads 0.075, not 0.07500000000000001.
        a.from = v == 0.0 ? -1.0 : round_significant(0.5 * v, 12);
        a.to = v == 0.0 ? 1.0 : round_significant(1.5 * v, 12);
        a.count = kind == AnalysisKind::Bifurcation ? 101 : 64;
        axes_[i]->setAxis(a);
    }
}

// An analysis that samples a section gets one it can run with as soon as it is chosen: the model's
// forcing period, its poipln, else the first state's upward crossings; and the section counts of
// the bundled studies in place of the bare 0 transient and 1 recorded. A section or counts the
// user set stay.
void StudyPanel::defaultSectionFor(AnalysisKind kind) {
    if (!model_) return;
    const int i = kind == AnalysisKind::Bifurcation    ? 0
                  : kind == AnalysisKind::ParameterMap ? 1
                  : kind == AnalysisKind::Basins       ? 2
                                                       : -1;
    if (i < 0) return;
    const bool was_filling = filling_;
    filling_ = true;
    if (section_is_empty(sections_[i]->section()))
        sections_[i]->setSection(suggested_section(*model_).section);
    if (transient_[i]->value() == 0 && recorded_[i]->value() == 1) {
        transient_[i]->setValue(suggested_transient_sections);
        recorded_[i]->setValue(suggested_recorded_sections);
    }
    filling_ = was_filling;
}

void StudyPanel::registerPaths() {
    marks_.clearPaths();
    for (const auto& [path, widget] : common_paths_)
        marks_.add(path, widget);
    for (const auto& [path, widget] : page_paths_[pages_->currentIndex()])
        marks_.add(path, widget);
    const int kind = pages_->currentIndex();
    if (kind < 3 || kind == int(AnalysisKind::Basins)) {
        const int section = kind == int(AnalysisKind::Bifurcation)    ? 0
                            : kind == int(AnalysisKind::ParameterMap) ? 1
                                                                      : 2;
        if (kind != int(AnalysisKind::Lyapunov)) sections_[section]->addPaths(marks_);
    }
    for (int i = 0; i < 2; ++i)
        axes_[i]->addPaths(marks_, "sweep[" + std::to_string(i) + "]");
    marks_.add("sweep", axes_[0]);
    marks_.add("title", title_);
    // Per-name problems ("parameters.k") mark the table that holds the name.
    for (int r = 0; r < parameters_->table()->rowCount(); ++r)
        marks_.add("parameters." + parameters_->table()->item(r, 0)->text().toStdString(),
                   parameters_->table());
    for (int r = 0; r < initial_->table()->rowCount(); ++r)
        marks_.add("initial." + initial_->table()->item(r, 0)->text().toStdString(), initial_->table());
}

void StudyPanel::setModel(std::shared_ptr<const model::Model> model, ModelSource source,
                          QString baseDirectory) {
    const bool first = model_ == nullptr;
    // A section the panel suggested for the old model follows the model (the new one may not have
    // its forcing's omega); one the user wrote stays.
    const std::optional<Section> suggested =
        first ? std::nullopt : std::optional<Section>(suggested_section(*model_).section);
    // Settings the new model still has names for stay; a setting whose name it lacks is dropped
    // (table rows) or replaced by the new model's defaults (axes).
    model_ = std::move(model);
    source_ = std::move(source);
    base_directory_ = std::move(baseDirectory);
    evaluator_.setModel(model_);
    filling_ = true;
    QStringList parameter_names, state_names;
    NamedValues parameter_values, state_values;
    for (const auto& p : model_->parameters) {
        parameter_names << QString::fromStdString(p.name);
        parameter_values.emplace_back(p.name, p.value);
    }
    for (const auto& s : model_->states) {
        state_names << QString::fromStdString(s.name);
        state_values.emplace_back(s.name, s.initial);
    }
    for (SweepAxisEditor* a : axes_)
        a->setNames(parameter_names, state_names);
    if (first) fill(study_defaults_from_model(*model_));
    showParameterSets();
    parameters_->setDefaults(parameter_values);
    initial_->setDefaults(state_values);
    evaluator_.setParameters(parameters_->overrides());
    for (int i = 0; i < 2; ++i) {
        const SweepAxis a = axes_[i]->axis();
        const bool known = a.target == SweepTarget::Parameter ? model_->parameter_index(a.name) >= 0
                                                              : model_->state_index(a.name) >= 0;
        if (!known) axes_[i]->setAxis({a.target, "", a.from, a.to, a.count, a.scale});
    }
    defaultAxesFor(static_cast<AnalysisKind>(kind_->currentData().toInt()));
    if (suggested) {
        const Section now = suggested_section(*model_).section;
        for (SectionEditor* editor : sections_)
            if (same_section(editor->section(), *suggested)) editor->setSection(now);
    }
    if (first) defaultSectionFor(static_cast<AnalysisKind>(kind_->currentData().toInt()));
    refreshFormulas();
    filling_ = false;
    registerPaths();
    check();
    emit studyChanged();
}

// Every formula field and sweep axis shown again with the evaluator's current parameters.
void StudyPanel::refreshFormulas() {
    for (FormulaField* f : formula_fields_)
        f->refresh();
    for (SweepAxisEditor* a : axes_)
        a->refreshFormulas();
}

// The model's `set` blocks, offered where it has any.
void StudyPanel::showParameterSets() {
    parameter_set_->clear();
    parameter_set_->addItem(tr("the model's own"));
    for (const auto& set : model_->sets)
        parameter_set_->addItem(tr("set %1").arg(QString::fromStdString(set.name)));
    parameter_set_->parentWidget()->setVisible(!model_->sets.empty());
}

// A set's parameters and initial values as the study's overrides (index 0: none). Its options
// (total, dt, meth, ...) stay with the batch mode, which runs every set (bifscope-cli run MODEL.ode).
void StudyPanel::applyParameterSet(int index) {
    if (!model_) return;
    NamedValues parameters, initial;
    if (index > 0 && index <= static_cast<int>(model_->sets.size())) {
        const model::ParameterSet& set = model_->sets[static_cast<std::size_t>(index - 1)];
        model::Model with_set = *model_;
        model::apply_parameter_set(with_set, set);
        for (const auto& [name, value] : set.assignments) {
            if (const int p = with_set.parameter_index(name); p >= 0)
                parameters.emplace_back(with_set.parameters[static_cast<std::size_t>(p)].name,
                                        with_set.parameters[static_cast<std::size_t>(p)].value);
            else if (const int s = with_set.state_index(name); s >= 0)
                initial.emplace_back(with_set.states[static_cast<std::size_t>(s)].name,
                                     with_set.states[static_cast<std::size_t>(s)].initial);
        }
    }
    parameters_->setOverrides(parameters);
    initial_->setOverrides(initial);
    evaluator_.setParameters(parameters_->overrides());
    refreshFormulas();
    edited();
}

void StudyPanel::setStudy(const Study& s) {
    filling_ = true;
    if (!model_) source_ = s.model;
    // The form shows the values the study runs with, those a file left to the model's options included.
    Study shown = s;
    if (model_) apply_model_defaults(shown, *model_);
    fill(shown);
    filling_ = false;
    registerPaths();
    check();
    emit studyChanged();
}

void StudyPanel::edited() {
    if (filling_) return;
    emit studyEdited();
    emit studyChanged();
    check();
}

void StudyPanel::check() {
    Study s = study();
    if (s.model.path.empty() && s.model.text.empty()) return;
    checker_->request(std::move(s), base_directory_.toStdString());
}

void StudyPanel::showProblems(const ResolveResult& result) {
    marks_.unmarkAll();
    problems_ = result.problems;
    // Fields whose text has no value: the study holds their last good value, so say so here.
    for (const Paths* paths : {&common_paths_, &page_paths_[pages_->currentIndex()]})
        for (const auto& [path, widget] : *paths)
            if (auto* f = formulaFieldAt(path); f && !f->error().isEmpty())
                problems_.push_back({ProblemSeverity::Error, path, f->error().toStdString()});
    QStringList unplaced;
    for (const Problem& p : problems_) {
        const QString message = QString::fromStdString(p.message);
        if (!marks_.mark(p.path, message)) unplaced << QString::fromStdString(p.format());
    }
    summary_->setText(unplaced.join("\n"));
    summary_->setVisible(!unplaced.isEmpty());
    const bool ok = !has_errors(problems_);
    emit studyChecked(ok ? result.resolved : nullptr, problems_);
    if (ok != valid_) {
        valid_ = ok;
        emit validityChanged(ok);
    }
}

bool StudyPanel::hasErrors() const {
    return has_errors(problems_) || !valid_;
}

QString StudyPanel::errorSummary() const {
    QStringList lines;
    for (const Problem& p : problems_)
        if (p.severity == ProblemSeverity::Error) lines << QString::fromStdString(p.format());
    if (lines.isEmpty() && !valid_) lines << tr("The study has not been checked yet");
    return lines.join("\n");
}

QWidget* StudyPanel::fieldAt(const std::string& path) const {
    return marks_.widget(path);
}

FormulaField* StudyPanel::formulaFieldAt(const std::string& path) const {
    QWidget* w = marks_.widget(path);
    for (FormulaField* f : formula_fields_)
        if (f->lineEdit() == w) return f;
    return nullptr;
}

} // namespace bif::ui
