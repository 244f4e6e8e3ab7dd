// The study as a form: the analysis and its settings (a page per analysis kind), the sweep axes,
// the model's parameters and initial values, the solver. Every edit is checked against the model
// off the UI thread; each problem is shown at its field (red frame, the message as tooltip), the
// rest in a summary line under the form.
#pragma once

#include "engine/model/model.h"
#include "engine/study/resolved_study.h"
#include "ui/study/field_marks.h"
#include "ui/study/formula_evaluator.h"

#include <QWidget>
#include <array>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QStackedWidget;

namespace bif::ui {

class FormulaField;
class NameValueTable;
class RowTable;
class SectionEditor;
class StudyChecker;
class SweepAxisEditor;

class StudyPanel : public QWidget {
    Q_OBJECT
  public:
    explicit StudyPanel(QWidget* parent = nullptr);

    // Called whenever the model parses. Settings whose names the new model still has are kept;
    // the others are dropped, and fields a study has not set come from the model's `@` options.
    void setModel(std::shared_ptr<const model::Model> model, study::ModelSource source,
                  QString baseDirectory);
    // Fills every field exactly as the study says (its model source is kept until setModel).
    void setStudy(const study::Study& study);
    study::Study study() const;

    bool hasErrors() const;
    QString errorSummary() const;
    // Marks the widget holding `path`, or nullptr (for tests and the main window's messages).
    QWidget* fieldAt(const std::string& path) const;
    FormulaField* formulaFieldAt(const std::string& path) const;

  signals:
    void studyEdited(); // by the user, in the form
    // study() may now differ: an edit, or a study or model set from outside (a zoom's ranges, a
    // model's new text). The document compares it with its file's.
    void studyChanged();
    void studyChecked(std::shared_ptr<const bif::study::ResolvedStudy> resolved,
                      bif::study::Problems problems);
    void validityChanged(bool ok);

  private:
    void buildForm();
    QWidget* buildCommon();
    QWidget* buildBifurcationPage();
    QWidget* buildLyapunovPage();
    QWidget* buildMapPage();
    QWidget* buildBasinsPage();
    QWidget* buildTrajectoryPage();
    QWidget* buildSolver();
    FormulaField* formula(const std::string& path, const QString& tip = {});
    QSpinBox* counter(const std::string& path, int minimum = 0);
    void connectEdits();

    void fill(const study::Study& s);
    void fillAnalysis(const study::Study& s);
    void readAnalysis(study::Study& s) const;
    int axisCount() const;
    void showAxes();
    void showParameterSets();
    void applyParameterSet(int index);
    void defaultAxesFor(study::AnalysisKind kind);
    void defaultSectionFor(study::AnalysisKind kind);
    void registerPaths();
    void refreshFormulas();

    void edited();
    void check();
    void showProblems(const study::ResolveResult& result);

    FormulaEvaluator evaluator_;
    std::shared_ptr<const model::Model> model_;
    study::ModelSource source_;
    QString base_directory_;
    // What the form does not edit, carried through unchanged (per-state tolerances, output times).
    study::Study carried_;

    FieldMarks marks_;
    StudyChecker* checker_;
    study::Problems problems_; // the latest check's, plus fields that hold no number
    bool valid_ = false;
    bool filling_ = false;

    QLineEdit* title_;
    QPlainTextEdit* description_;
    QComboBox* kind_;
    QStackedWidget* pages_;
    QSpinBox* lyapunov_axes_;
    std::array<SweepAxisEditor*, 2> axes_;
    FormulaField* t0_;
    QComboBox* parameter_set_; // the file's values, or one of its `set` blocks
    NameValueTable* parameters_;
    NameValueTable* initial_;
    QLabel* summary_;
    std::vector<FormulaField*> formula_fields_;
    // Paths of the fields common to all analyses, and of each analysis page's own fields.
    using Paths = std::vector<std::pair<std::string, QWidget*>>;
    Paths common_paths_;
    std::array<Paths, 5> page_paths_;
    Paths* building_ = &common_paths_; // where the field being built registers its path

    // Sections and phases: bifurcation, map, basins in that order.
    std::array<SectionEditor*, 3> sections_;
    std::array<QSpinBox*, 3> transient_;
    std::array<QSpinBox*, 3> recorded_;
    RowTable* bifurcation_record_;
    QCheckBox* continuation_;
    QCheckBox* chain_rows_; // continuation: one chain per value of a second axis
    QComboBox* lyapunov_mode_;
    FormulaField* lyapunov_transient_;
    FormulaField* lyapunov_averaging_;
    FormulaField* lyapunov_renormalization_;
    FormulaField* lyapunov_convergence_;
    QCheckBox* detect_period_;
    FormulaField* map_period_tolerance_;
    QSpinBox* map_max_period_;
    QCheckBox* largest_exponent_;
    FormulaField* map_renormalization_;
    RowTable* accessories_;
    QCheckBox* count_events_;
    FormulaField* basin_period_tolerance_;
    QSpinBox* basin_max_period_;
    FormulaField* match_tolerance_;
    QSpinBox* max_attractors_;
    FormulaField* t_end_;
    QSpinBox* output_count_;
    RowTable* trajectory_record_;

    QComboBox* method_;
    FormulaField* rtol_;
    FormulaField* atol_;
    FormulaField* initial_step_;
    FormulaField* min_step_;
    FormulaField* max_step_;
    FormulaField* max_growth_;
    FormulaField* min_shrink_;
    FormulaField* max_steps_;
    FormulaField* bound_;
    QComboBox* precision_;
    QComboBox* backend_;
};

} // namespace bif::ui
