// The study panel's form: its widgets, and the study's values into them and out of them.
#include "engine/study/enum_names.h"
#include "engine/study/model_options.h"
#include "ui/study/formula_field.h"
#include "ui/study/name_value_table.h"
#include "ui/study/row_table.h"
#include "ui/study/section_editor.h"
#include "ui/study/study_panel.h"
#include "ui/study/sweep_axis_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <climits>

namespace bif::ui {

namespace {

using namespace bif::study;

template <class E>
void add_choices(QComboBox* combo, std::initializer_list<std::pair<E, QString>> choices) {
    for (const auto& [value, label] : choices)
        combo->addItem(label, int(value));
}

template <class E>
void select(QComboBox* combo, E value) {
    combo->setCurrentIndex(combo->findData(int(value)));
}

template <class E>
E selected(const QComboBox* combo) {
    return static_cast<E>(combo->currentData().toInt());
}

QFormLayout* compact_form(QWidget* w) {
    auto* form = new QFormLayout(w);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    return form;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}
std::string s(const QString& q) {
    return q.trimmed().toStdString();
}

} // namespace

FormulaField* StudyPanel::formula(const std::string& path, const QString& tip) {
    auto* field = new FormulaField(evaluator_, this);
    if (!tip.isEmpty()) field->lineEdit()->setToolTip(tip);
    formula_fields_.push_back(field);
    building_->emplace_back(path, field->lineEdit());
    return field;
}

QSpinBox* StudyPanel::counter(const std::string& path, int minimum) {
    auto* box = new QSpinBox(this);
    box->setRange(minimum, INT_MAX);
    building_->emplace_back(path, box);
    return box;
}

void StudyPanel::buildForm() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildCommon());
    pages_ = new QStackedWidget(this);
    // Only the shown analysis page takes room (a stacked widget is otherwise as tall as its tallest page).
    connect(pages_, &QStackedWidget::currentChanged, this, [this](int shown) {
        for (int i = 0; i < pages_->count(); ++i)
            pages_->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                             i == shown ? QSizePolicy::Preferred : QSizePolicy::Ignored);
    });
    building_ = &page_paths_[int(AnalysisKind::Bifurcation)];
    pages_->addWidget(buildBifurcationPage());
    building_ = &page_paths_[int(AnalysisKind::Lyapunov)];
    pages_->addWidget(buildLyapunovPage());
    building_ = &page_paths_[int(AnalysisKind::ParameterMap)];
    pages_->addWidget(buildMapPage());
    building_ = &page_paths_[int(AnalysisKind::Basins)];
    pages_->addWidget(buildBasinsPage());
    building_ = &page_paths_[int(AnalysisKind::Trajectory)];
    pages_->addWidget(buildTrajectoryPage());
    building_ = &common_paths_;
    layout->addWidget(pages_);
    for (int i = 0; i < 2; ++i) {
        axes_[i] = new SweepAxisEditor(tr("Sweep axis %1").arg(i + 1), evaluator_, this);
        layout->addWidget(axes_[i]);
    }

    auto* values = new QGroupBox(tr("Parameters and initial values"), this);
    auto* values_form = new QVBoxLayout(values);
    auto* set_box = new QWidget(values); // shown where the model has `set` blocks
    auto* set_row = new QFormLayout(set_box);
    set_row->setContentsMargins(0, 0, 0, 0);
    parameter_set_ = new QComboBox(set_box);
    parameter_set_->setToolTip(
        tr("Take the parameters and initial values of one of the model's `set` blocks"));
    set_row->addRow(tr("Values from"), parameter_set_);
    values_form->addWidget(set_box);
    parameters_ = new NameValueTable(tr("Parameter"), values);
    initial_ = new NameValueTable(tr("State"), values);
    t0_ = formula("t0");
    auto* t0_row = new QFormLayout;
    t0_row->addRow(tr("Start time t0"), t0_);
    values_form->addWidget(parameters_);
    values_form->addWidget(initial_);
    values_form->addLayout(t0_row);
    layout->addWidget(values);
    layout->addWidget(buildSolver());

    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setStyleSheet("color: #c62828;");
    layout->addWidget(summary_);
    layout->addStretch(1);
}

QWidget* StudyPanel::buildCommon() {
    auto* box = new QGroupBox(tr("Study"), this);
    auto* form = compact_form(box);
    title_ = new QLineEdit(box);
    description_ = new QPlainTextEdit(box);
    description_->setFixedHeight(description_->fontMetrics().lineSpacing() * 3 + 10);
    kind_ = new QComboBox(box);
    add_choices<AnalysisKind>(kind_, {{AnalysisKind::Bifurcation, tr("Bifurcation diagram")},
                                      {AnalysisKind::Lyapunov, tr("Lyapunov exponents")},
                                      {AnalysisKind::ParameterMap, tr("Two-parameter map")},
                                      {AnalysisKind::Basins, tr("Basins of attraction")},
                                      {AnalysisKind::Trajectory, tr("One trajectory")}});
    form->addRow(tr("Title"), title_);
    form->addRow(tr("Description"), description_);
    form->addRow(tr("Analysis"), kind_);
    return box;
}

QWidget* StudyPanel::buildBifurcationPage() {
    auto* page = new QGroupBox(tr("Bifurcation diagram"), this);
    auto* form = compact_form(page);
    sections_[0] = new SectionEditor(evaluator_, page);
    transient_[0] = counter("analysis.transient_sections");
    recorded_[0] = counter("analysis.recorded_sections");
    bifurcation_record_ = new RowTable(
        {{tr("Record"), {}}, {tr("Name"), {}}, {tr("Value"), {"section", "max_between", "min_between"}}},
        page);
    building_->emplace_back("analysis.record", bifurcation_record_->table());
    bifurcation_record_->table()->setToolTip(tr("Formulas to record; none: every state at the section"));
    continuation_ = new QCheckBox(tr("Continuation (up, then down)"), page);
    chain_rows_ = new QCheckBox(tr("One chain per value of axis 2 (hysteresis)"), page);
    chain_rows_->setToolTip(
        tr("Each value of sweep axis 2 is a row: its own chain along axis 1, up then down; "
           "the rows run in parallel (on the GPU, one chain per thread)"));
    form->addRow(sections_[0]);
    form->addRow(tr("Transient sections"), transient_[0]);
    form->addRow(tr("Recorded sections"), recorded_[0]);
    form->addRow(bifurcation_record_);
    form->addRow(continuation_);
    form->addRow(chain_rows_);
    return page;
}

QWidget* StudyPanel::buildLyapunovPage() {
    auto* page = new QGroupBox(tr("Lyapunov exponents"), this);
    auto* form = compact_form(page);
    lyapunov_mode_ = new QComboBox(page);
    add_choices<LyapunovMode>(
        lyapunov_mode_, {{LyapunovMode::Largest, tr("largest")}, {LyapunovMode::Spectrum, tr("spectrum")}});
    lyapunov_axes_ = new QSpinBox(page);
    lyapunov_axes_->setRange(0, 2);
    lyapunov_transient_ = formula("analysis.transient_time");
    lyapunov_averaging_ = formula("analysis.averaging_time");
    lyapunov_renormalization_ = formula("analysis.renormalization_interval");
    lyapunov_convergence_ = formula("analysis.convergence_tolerance", tr("0: average the whole time"));
    form->addRow(tr("Exponents"), lyapunov_mode_);
    form->addRow(tr("Sweep axes"), lyapunov_axes_);
    form->addRow(tr("Transient time"), lyapunov_transient_);
    form->addRow(tr("Averaging time"), lyapunov_averaging_);
    form->addRow(tr("Renormalize every"), lyapunov_renormalization_);
    form->addRow(tr("Convergence tol."), lyapunov_convergence_);
    return page;
}

QWidget* StudyPanel::buildMapPage() {
    auto* page = new QGroupBox(tr("Two-parameter map"), this);
    auto* form = compact_form(page);
    sections_[1] = new SectionEditor(evaluator_, page);
    transient_[1] = counter("analysis.transient_sections");
    recorded_[1] = counter("analysis.recorded_sections");
    detect_period_ = new QCheckBox(tr("Detect the period"), page);
    map_period_tolerance_ = formula("analysis.period.tolerance");
    map_max_period_ = counter("analysis.period.max_period");
    largest_exponent_ = new QCheckBox(tr("Largest Lyapunov exponent"), page);
    map_renormalization_ = formula("analysis.renormalization_interval", tr("0: once per section point"));
    accessories_ = new RowTable({{tr("Name"), {}},
                                 {tr("Expression"), {}},
                                 {tr("Reduce"), {"max", "min", "mean"}},
                                 {tr("Over"), {"steps", "sections"}}},
                                page);
    building_->emplace_back("analysis.accessories", accessories_->table());
    count_events_ = new QCheckBox(tr("Count the model's events"), page);
    form->addRow(sections_[1]);
    form->addRow(tr("Transient sections"), transient_[1]);
    form->addRow(tr("Recorded sections"), recorded_[1]);
    form->addRow(detect_period_);
    form->addRow(tr("Period tolerance"), map_period_tolerance_);
    form->addRow(tr("Max period"), map_max_period_);
    form->addRow(largest_exponent_);
    form->addRow(tr("Renormalize every"), map_renormalization_);
    form->addRow(new QLabel(tr("Accessories"), page));
    form->addRow(accessories_);
    form->addRow(count_events_);
    return page;
}

QWidget* StudyPanel::buildBasinsPage() {
    auto* page = new QGroupBox(tr("Basins of attraction"), this);
    auto* form = compact_form(page);
    sections_[2] = new SectionEditor(evaluator_, page);
    transient_[2] = counter("analysis.transient_sections");
    recorded_[2] = counter("analysis.recorded_sections");
    basin_period_tolerance_ = formula("analysis.period.tolerance");
    basin_max_period_ = counter("analysis.period.max_period");
    match_tolerance_ = formula("analysis.match_tolerance");
    max_attractors_ = counter("analysis.max_attractors");
    form->addRow(sections_[2]);
    form->addRow(tr("Transient sections"), transient_[2]);
    form->addRow(tr("Recorded sections"), recorded_[2]);
    form->addRow(tr("Period tolerance"), basin_period_tolerance_);
    form->addRow(tr("Max period"), basin_max_period_);
    form->addRow(tr("Match tolerance"), match_tolerance_);
    form->addRow(tr("Max attractors"), max_attractors_);
    return page;
}

QWidget* StudyPanel::buildTrajectoryPage() {
    auto* page = new QGroupBox(tr("One trajectory"), this);
    auto* form = compact_form(page);
    t_end_ = formula("analysis.t_end");
    output_count_ = counter("analysis.output_count");
    trajectory_record_ = new RowTable({{tr("Record (none: every state)"), {}}}, page);
    building_->emplace_back("analysis.record", trajectory_record_->table());
    form->addRow(tr("End time"), t_end_);
    form->addRow(tr("Output points"), output_count_);
    form->addRow(trajectory_record_);
    return page;
}

QWidget* StudyPanel::buildSolver() {
    auto* box = new QGroupBox(tr("Solver"), this);
    auto* form = compact_form(box);
    method_ = new QComboBox(box);
    add_choices<Method>(method_, {{Method::Rk4, tr("rk4 (fixed step)")},
                                  {Method::Rkck45, tr("rkck45 (Cash-Karp)")},
                                  {Method::Dopri5, tr("dopri5 (Dormand-Prince)")},
                                  {Method::Rkc, tr("rkc (Chebyshev)")},
                                  {Method::Rosenbrock23, tr("rosenbrock23 (stiff)")},
                                  {Method::Rodas4, tr("rodas4 (stiff)")},
                                  {Method::Iteration, tr("iteration (maps)")}});
    rtol_ = formula("solver.rtol");
    atol_ = formula("solver.atol");
    initial_step_ = formula("solver.initial_step", tr("The first step; rk4's fixed step"));
    min_step_ = formula("solver.min_step");
    max_step_ = formula("solver.max_step", tr("0: no limit"));
    max_growth_ = formula("solver.max_growth");
    min_shrink_ = formula("solver.min_shrink");
    max_steps_ = formula("solver.max_steps", tr("The step budget of each system"));
    bound_ = formula("solver.bound", tr("A system whose state leaves |y| <= bound ends escaped; 0: none"));
    precision_ = new QComboBox(box);
    add_choices<PrecisionChoice>(precision_, {{PrecisionChoice::Auto, tr("auto")},
                                              {PrecisionChoice::Float, tr("float")},
                                              {PrecisionChoice::Double, tr("double")}});
    backend_ = new QComboBox(box);
    add_choices<BackendChoice>(backend_, {{BackendChoice::Auto, tr("auto")},
                                          {BackendChoice::Cpu, tr("CPU")},
                                          {BackendChoice::Cuda, tr("CUDA")}});
    common_paths_.emplace_back("precision", precision_);
    common_paths_.emplace_back("backend", backend_);
    form->addRow(tr("Method"), method_);
    form->addRow(tr("Relative tol."), rtol_);
    form->addRow(tr("Absolute tol."), atol_);
    form->addRow(tr("Initial step"), initial_step_);
    form->addRow(tr("Min step"), min_step_);
    form->addRow(tr("Max step"), max_step_);
    form->addRow(tr("Max growth"), max_growth_);
    form->addRow(tr("Min shrink"), min_shrink_);
    form->addRow(tr("Max steps"), max_steps_);
    form->addRow(tr("Bound"), bound_);
    form->addRow(tr("Precision"), precision_);
    form->addRow(tr("Backend"), backend_);
    return box;
}

void StudyPanel::fill(const Study& st) {
    carried_ = st;
    title_->setText(q(st.title));
    description_->setPlainText(q(st.description));
    select(kind_, st.analysis);
    pages_->setCurrentIndex(int(st.analysis));
    for (std::size_t i = 0; i < axes_.size() && i < st.sweep.size(); ++i)
        axes_[i]->setAxis(st.sweep[i]);
    lyapunov_axes_->setValue(st.analysis == AnalysisKind::Lyapunov ? int(st.sweep.size()) : 1);
    parameters_->setOverrides(st.parameters);
    initial_->setOverrides(st.initial);
    evaluator_.setParameters(st.parameters);
    t0_->setValue(st.t0);
    fillAnalysis(st);
    const SolverSettings& v = st.solver;
    select(method_, v.method);
    rtol_->setValue(v.rtol.all);
    atol_->setValue(v.atol.all);
    initial_step_->setValue(v.initial_step);
    min_step_->setValue(v.min_step);
    max_step_->setValue(v.max_step);
    max_growth_->setValue(v.max_growth);
    min_shrink_->setValue(v.min_shrink);
    max_steps_->setValue(static_cast<double>(v.max_steps));
    bound_->setValue(v.bound);
    select(precision_, st.precision);
    select(backend_, st.backend);
    showAxes();
}

void StudyPanel::fillAnalysis(const Study& st) {
    const std::array<const Section*, 3> sections{&st.bifurcation.section, &st.map.section,
                                                 &st.basins.section};
    const std::array<int, 3> transient{st.bifurcation.transient_sections, st.map.transient_sections,
                                       st.basins.transient_sections};
    const std::array<int, 3> recorded{st.bifurcation.recorded_sections, st.map.recorded_sections,
                                      st.basins.recorded_sections};
    for (int i = 0; i < 3; ++i) {
        sections_[i]->setSection(*sections[i]);
        transient_[i]->setValue(transient[i]);
        recorded_[i]->setValue(recorded[i]);
    }
    std::vector<QStringList> record;
    for (const auto& r : st.bifurcation.record)
        record.push_back({q(r.expression), q(r.name), name_of(r.value)});
    bifurcation_record_->setRows(record);
    continuation_->setChecked(st.bifurcation.continuation);
    chain_rows_->setChecked(st.analysis == AnalysisKind::Bifurcation && st.bifurcation.continuation &&
                            st.sweep.size() == 2);
    chain_rows_->setEnabled(continuation_->isChecked());

    const LyapunovSettings& l = st.lyapunov;
    select(lyapunov_mode_, l.mode);
    lyapunov_transient_->setValue(l.transient_time);
    lyapunov_averaging_->setValue(l.averaging_time);
    lyapunov_renormalization_->setValue(l.renormalization_interval);
    lyapunov_convergence_->setValue(l.convergence_tolerance);

    const ParameterMapSettings& m = st.map;
    detect_period_->setChecked(m.detect_period);
    map_period_tolerance_->setValue(m.period.tolerance);
    map_max_period_->setValue(m.period.max_period);
    largest_exponent_->setChecked(m.largest_exponent);
    map_renormalization_->setValue(m.renormalization_interval);
    std::vector<QStringList> accessories;
    for (const auto& a : m.accessories)
        accessories.push_back({q(a.name), q(a.expression), name_of(a.reduce), name_of(a.over)});
    accessories_->setRows(accessories);
    count_events_->setChecked(m.count_events);

    const BasinSettings& b = st.basins;
    basin_period_tolerance_->setValue(b.period.tolerance);
    basin_max_period_->setValue(b.period.max_period);
    match_tolerance_->setValue(b.match_tolerance);
    max_attractors_->setValue(b.max_attractors);

    t_end_->setValue(st.trajectory.t_end);
    output_count_->setValue(st.trajectory.output_count);
    std::vector<QStringList> texts;
    for (const auto& r : st.trajectory.record)
        texts.push_back({q(r)});
    trajectory_record_->setRows(texts);
}

void StudyPanel::readAnalysis(Study& st) const {
    std::array<Section*, 3> sections{&st.bifurcation.section, &st.map.section, &st.basins.section};
    std::array<int*, 3> transient{&st.bifurcation.transient_sections, &st.map.transient_sections,
                                  &st.basins.transient_sections};
    std::array<int*, 3> recorded{&st.bifurcation.recorded_sections, &st.map.recorded_sections,
                                 &st.basins.recorded_sections};
    for (int i = 0; i < 3; ++i) {
        *sections[i] = sections_[i]->section();
        *transient[i] = transient_[i]->value();
        *recorded[i] = recorded_[i]->value();
    }
    st.bifurcation.record.clear();
    for (const QStringList& row : bifurcation_record_->rows())
        if (!row[0].trimmed().isEmpty())
            st.bifurcation.record.push_back(
                {s(row[0]), s(row[1]),
                 enum_from_name<IntervalValue>(s(row[2])).value_or(IntervalValue::AtSection)});
    st.bifurcation.continuation = continuation_->isChecked();

    st.lyapunov.mode = selected<LyapunovMode>(lyapunov_mode_);
    st.lyapunov.transient_time = lyapunov_transient_->value();
    st.lyapunov.averaging_time = lyapunov_averaging_->value();
    st.lyapunov.renormalization_interval = lyapunov_renormalization_->value();
    st.lyapunov.convergence_tolerance = lyapunov_convergence_->value();

    st.map.detect_period = detect_period_->isChecked();
    st.map.period = {map_period_tolerance_->value(), map_max_period_->value()};
    st.map.largest_exponent = largest_exponent_->isChecked();
    st.map.renormalization_interval = map_renormalization_->value();
    st.map.accessories.clear();
    for (const QStringList& row : accessories_->rows())
        if (!row[1].trimmed().isEmpty())
            st.map.accessories.push_back(
                {s(row[0]), s(row[1]), enum_from_name<Reduction>(s(row[2])).value_or(Reduction::Max),
                 enum_from_name<ReductionDomain>(s(row[3])).value_or(ReductionDomain::Steps)});
    st.map.count_events = count_events_->isChecked();

    st.basins.period = {basin_period_tolerance_->value(), basin_max_period_->value()};
    st.basins.match_tolerance = match_tolerance_->value();
    st.basins.max_attractors = max_attractors_->value();

    st.trajectory.t_end = t_end_->value();
    st.trajectory.output_count = output_count_->value();
    st.trajectory.record.clear();
    for (const QStringList& row : trajectory_record_->rows())
        if (!row[0].trimmed().isEmpty()) st.trajectory.record.push_back(s(row[0]));
}

Study StudyPanel::study() const {
    Study st = carried_;
    // The form holds every value: none is left for the model's options to fill over an edit.
    st.given.reset();
    st.model = source_;
    st.title = title_->text().toStdString();
    st.description = description_->toPlainText().toStdString();
    st.analysis = selected<AnalysisKind>(kind_);
    st.sweep.clear();
    for (int i = 0; i < axisCount(); ++i)
        st.sweep.push_back(axes_[i]->axis());
    st.parameters = parameters_->overrides();
    st.initial = initial_->overrides();
    st.t0 = t0_->value();
    readAnalysis(st);
    SolverSettings& v = st.solver;
    v.method = selected<Method>(method_);
    v.rtol.all = rtol_->value();
    v.atol.all = atol_->value();
    v.initial_step = initial_step_->value();
    v.min_step = min_step_->value();
    v.max_step = max_step_->value();
    v.max_growth = max_growth_->value();
    v.min_shrink = min_shrink_->value();
    v.max_steps = static_cast<std::int64_t>(max_steps_->value());
    v.bound = bound_->value();
    // the model's own @ bound is the model's, as XPPAUT runs it: the study names a bound of its own only
    if (model_ && v.bound == model_defaults(*model_).study.solver.bound) v.bound = 0.0;
    st.precision = selected<PrecisionChoice>(precision_);
    st.backend = selected<BackendChoice>(backend_);
    return st;
}

} // namespace bif::ui
