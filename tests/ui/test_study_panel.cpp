// The study panel against the engine: every bundled study goes through the form and comes out
// with the same study file; problems the engine finds are marked at their field; formulas take
// the model's parameter values; a new model text keeps what still has a name in it.
#include "engine/model/parse.h"
#include "engine/study/model_options.h"
#include "engine/study/study_json.h"
#include "tests/ui/gui_test_support.h"
#include "ui/study/field_marks.h"
#include "ui/study/formula_field.h"
#include "ui/study/number_text.h"
#include "ui/study/study_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QScrollArea>
#include <QSpinBox>
#include <QTest>
#include <catch2/catch.hpp>
#include <filesystem>

namespace fs = std::filesystem;
using namespace bif;
using namespace bif::ui;

namespace {

std::shared_ptr<const model::Model> load_model(const fs::path& path) {
    model::ParseResult r = model::load_model_file(path.string());
    REQUIRE(r.model);
    return std::make_shared<const model::Model>(std::move(*r.model));
}

std::shared_ptr<const model::Model> parse(const std::string& text) {
    model::ParseResult r = model::parse_model(text);
    REQUIRE(r.model);
    return std::make_shared<const model::Model>(std::move(*r.model));
}

struct Checked {
    int count = 0;
    bool ok = false;
};

// Counts the panel's checks, so a test can wait for the one after its edit.
Checked* watch(StudyPanel& panel) {
    auto* c = new Checked;
    QObject::connect(&panel, &StudyPanel::studyChecked, &panel,
                     [c](std::shared_ptr<const study::ResolvedStudy> r, const study::Problems&) {
                         ++c->count;
                         c->ok = r != nullptr;
                     });
    return c;
}

bool wait_check(Checked& c, int before) {
    return test::wait_until([&] { return c.count > before; }, 10000);
}

const char* kDuffing = "y1'=y2\ny2'=-k*y2-y1^3+b*cos(omega*t)\npar k=0.2,b=0.3,omega=2\n"
                       "@ poimap=section,poivar=t,poipln=3.14159,dt=0.02,meth=qualrk,tol=1e-7\n";

void type_into(QLineEdit* edit, const QString& text) {
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

} // namespace

TEST_CASE("every bundled study goes through the panel unchanged", "[gui][study]") {
    const fs::path dir = test::source_path("resources/studies").toStdString();
    int studies = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        INFO(entry.path().filename().string());
        const study::StudyReadResult read = study::read_study_file(entry.path().string());
        REQUIRE(read.study);
        StudyPanel panel;
        panel.setModel(load_model(dir / read.study->model.path), read.study->model,
                       QString::fromStdString(dir.string()));
        panel.setStudy(*read.study);
        CHECK(study::write_study_json(panel.study()) == study::write_study_json(*read.study));
        ++studies;
    }
    CHECK(studies >= 10);
}

TEST_CASE("a continuation gains and loses its rows with the panel's second axis", "[gui][study]") {
    const fs::path dir = test::source_path("resources/studies").toStdString();
    const study::StudyReadResult read =
        study::read_study_file((dir / "forced_vanderpol_continuation.json").string());
    REQUIRE(read.study);
    REQUIRE(read.study->sweep.size() == 1);
    StudyPanel panel;
    panel.setModel(load_model(dir / read.study->model.path), read.study->model,
                   QString::fromStdString(dir.string()));
    panel.setStudy(*read.study);
    QCheckBox* rows = nullptr;
    for (QCheckBox* box : panel.findChildren<QCheckBox*>())
        if (box->text().startsWith("One chain per value")) rows = box;
    REQUIRE(rows);
    CHECK(rows->isEnabled());
    CHECK_FALSE(rows->isChecked());
    rows->setChecked(true);
    study::Study two = panel.study();
    REQUIRE(two.sweep.size() == 2);
    CHECK(two.bifurcation.continuation);
    rows->setChecked(false);
    CHECK(panel.study().sweep.size() == 1);
    // without continuation the rows mean nothing: the box is off and the diagram has one axis
    QCheckBox* continuation = nullptr;
    for (QCheckBox* box : panel.findChildren<QCheckBox*>())
        if (box->text().startsWith("Continuation")) continuation = box;
    REQUIRE(continuation);
    rows->setChecked(true);
    continuation->setChecked(false);
    CHECK_FALSE(rows->isEnabled());
    CHECK(panel.study().sweep.size() == 1);
}
TEST_CASE("a bad count is marked at its field with the engine's message", "[gui][study]") {
    StudyPanel panel;
    Checked& checked = *watch(panel);
    study::ModelSource source;
    source.text = kDuffing;
    panel.setModel(parse(kDuffing), source, {});
    study::Study s = panel.study();
    s.analysis = study::AnalysisKind::Bifurcation;
    s.sweep = {{study::SweepTarget::Parameter, "b", 0.1, 0.5, 0, study::SweepScale::Linear}};
    int before = checked.count;
    panel.setStudy(s);
    REQUIRE(wait_check(checked, before));
    auto* count = qobject_cast<QSpinBox*>(panel.fieldAt("sweep[0].count"));
    REQUIRE(count);
    CHECK(panel.hasErrors());
    CHECK(FieldMarks::isMarked(count));
    // The engine's own message for this study, found independently of the panel.
    const study::ResolveResult reference = study::resolve_study(s, "");
    std::string message;
    for (const auto& p : reference.problems)
        if (p.path == "sweep[0].count") message = p.message;
    REQUIRE(!message.empty());
    CHECK(count->toolTip().toStdString() == message);
    CHECK(panel.errorSummary().contains("sweep[0].count"));
    panel.resize(420, 1600);
    test::save_screenshot(panel, "study_panel_error_count");

    before = checked.count;
    count->setValue(50);
    REQUIRE(wait_check(checked, before));
    CHECK_FALSE(panel.hasErrors());
    CHECK_FALSE(FieldMarks::isMarked(count));
    CHECK(panel.study().sweep[0].count == 50);
}

TEST_CASE("a formula in a numeric field takes the model's parameter values", "[gui][study]") {
    StudyPanel panel;
    study::ModelSource source;
    source.text = kDuffing;
    panel.setModel(parse(kDuffing), source, {});
    FormulaField* t0 = panel.formulaFieldAt("t0");
    REQUIRE(t0);
    type_into(t0->lineEdit(), "2*pi/omega");
    CHECK(t0->error().isEmpty());
    CHECK(panel.study().t0 == Approx(2 * 3.14159265358979323846 / 2.0).epsilon(1e-15));
    type_into(t0->lineEdit(), "0.5*k");
    CHECK(panel.study().t0 == Approx(0.1).epsilon(1e-15));
    type_into(t0->lineEdit(), "1e-9");
    CHECK(panel.study().t0 == 1e-9);
}

TEST_CASE("defaults come from the model's @ options", "[gui][study]") {
    StudyPanel panel;
    study::ModelSource source;
    source.text = kDuffing;
    panel.setModel(parse(kDuffing), source, {});
    const study::Study s = panel.study();
    CHECK(s.solver.method == study::Method::Rkck45);
    CHECK(s.solver.initial_step == 0.02);
    CHECK(s.solver.rtol.all == 1e-7);
    CHECK(s.analysis == study::AnalysisKind::Bifurcation);
    CHECK(s.bifurcation.section.period == "3.14159");
    CHECK(s.model.text == kDuffing);
}

TEST_CASE("a new model text keeps the settings whose names remain", "[gui][study]") {
    StudyPanel panel;
    study::ModelSource source;
    source.text = kDuffing;
    panel.setModel(parse(kDuffing), source, {});
    study::Study s = panel.study();
    s.parameters = {{"k", 0.3}, {"omega", 1.5}};
    s.initial = {{"y1", 0.5}};
    s.sweep = {{study::SweepTarget::Parameter, "omega", 0.5, 2.0, 200, study::SweepScale::Log}};
    s.solver.rtol.all = 1e-9;
    panel.setStudy(s);

    // omega renamed w: its override and the axis over it go; k, y1 and the solver stay.
    const std::string renamed = "y1'=y2\ny2'=-k*y2-y1^3+b*cos(w*t)\npar k=0.2,b=0.3,w=2\n";
    source.text = renamed;
    panel.setModel(parse(renamed), source, {});
    const study::Study after = panel.study();
    CHECK(after.parameters == std::vector<std::pair<std::string, double>>{{"k", 0.3}});
    CHECK(after.initial == s.initial);
    CHECK(after.solver.rtol.all == 1e-9);
    REQUIRE(after.sweep.size() == 1);
    CHECK(after.sweep[0].name != "omega");
    CHECK(parse(renamed)->parameter_index(after.sweep[0].name) >= 0);
    CHECK(after.model.text == renamed);

    // The same names again: the axis over k stays exactly.
    s = after;
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.1, 0.4, 33, study::SweepScale::Linear}};
    panel.setStudy(s);
    panel.setModel(parse(renamed + "aux e=y1^2\n"), source, {});
    CHECK(study::write_study_json(panel.study()) == study::write_study_json(s));
}

TEST_CASE("screenshots of each analysis page", "[gui][study]") {
    const fs::path dir = test::source_path("resources/studies").toStdString();
    for (const char* name : {"duffing_bifurcation", "duffing_lyapunov", "duffing_period_map",
                             "duffing_basins", "lorenz_trajectory", "relief_valve_impacts"}) {
        const study::StudyReadResult read =
            study::read_study_file((dir / (std::string(name) + ".json")).string());
        REQUIRE(read.study);
        QScrollArea area;
        auto* panel = new StudyPanel;
        panel->setModel(load_model(dir / read.study->model.path), read.study->model,
                        QString::fromStdString(dir.string()));
        panel->setStudy(*read.study);
        area.setWidget(panel);
        area.setWidgetResizable(true);
        area.resize(420, 900);
        Checked& checked = *watch(*panel);
        wait_check(checked, 0);
        panel->resize(400, panel->sizeHint().height());
        test::save_screenshot(*panel, QString("study_panel_") + name);
        CHECK_FALSE(panel->hasErrors());
    }
}

namespace {

// Picks `label` in the analysis combo as a user does (an activation, not only a new index).
void choose_analysis(StudyPanel& panel, const QString& label) {
    for (QComboBox* combo : panel.findChildren<QComboBox*>()) {
        const int i = combo->findText(label);
        if (i < 0) continue;
        combo->setCurrentIndex(i);
        emit combo->activated(i);
        return;
    }
    FAIL("no analysis combo with " << label.toStdString());
}

QString field_text(StudyPanel& panel, const std::string& path) {
    auto* edit = qobject_cast<QLineEdit*>(panel.fieldAt(path));
    REQUIRE(edit);
    return edit->text();
}

} // namespace

TEST_CASE("choosing a bifurcation diagram sets up a study that runs as it is", "[gui][study]") {
    struct Case {
        const char* model;
        study::SectionKind kind;
        const char* section; // the period or the condition
    };
    const Case cases[] = {
        // Ueda's oscillator, as the issue typed it: forced by cos(t).
        {"x'=y\ny'=-k*y-x^3+B*cos(t)\npar k=0.05,B=7.5\ninit x=1\n", study::SectionKind::Stroboscopic,
         "2*pi"},
        {"x'=y\ny'=-k*y-x^3+B*cos(omega*t)\npar k=0.05,B=7.5,omega=1.2\n", study::SectionKind::Stroboscopic,
         "2*pi/omega"},
        // No forcing: the model's own Poincare plane, else the first state crossing zero.
        {"x'=y\ny'=x-x^3-d*y+0.3*y*z\nz'=-z+x\npar d=0.2\n@ poivar=z,poipln=0.1\n", study::SectionKind::Event,
         "z-(0.1)"},
        {"x'=s*(y-x)\ny'=x*(r-z)-y\nz'=x*y-b*z\npar r=28,s=10,b=2.6667\n", study::SectionKind::Event, "x"},
    };
    for (const Case& c : cases) {
        INFO(c.model);
        StudyPanel panel;
        Checked& checked = *watch(panel);
        study::ModelSource source;
        source.text = c.model;
        panel.setModel(parse(c.model), source, {});
        study::Study s = panel.study();
        s.analysis = study::AnalysisKind::Trajectory; // as a model without a section starts
        panel.setStudy(s);
        const int before = checked.count;
        choose_analysis(panel, "Bifurcation diagram");
        REQUIRE(wait_check(checked, before));
        const study::Study chosen = panel.study();
        CHECK(chosen.analysis == study::AnalysisKind::Bifurcation);
        CHECK(chosen.bifurcation.section.kind == c.kind);
        CHECK((c.kind == study::SectionKind::Stroboscopic
                   ? chosen.bifurcation.section.period
                   : chosen.bifurcation.section.condition) == c.section);
        CHECK(chosen.bifurcation.transient_sections == 256);
        CHECK(chosen.bifurcation.recorded_sections == 32);
        INFO(panel.errorSummary().toStdString());
        CHECK(checked.ok);
        CHECK_FALSE(panel.hasErrors());
        CHECK_FALSE(FieldMarks::isMarked(panel.fieldAt("analysis.section.period")));
    }
}

TEST_CASE("a default sweep range reads as short decimals", "[gui][study]") {
    // k = 0.05: half and one and a half of it are 0.025 and 1.5 * 0.05 = 0.07500000000000001.
    const char* ueda = "x'=y\ny'=-k*y-x^3+B*cos(t)\npar k=0.05,B=7.5\n";
    StudyPanel panel;
    study::ModelSource source;
    source.text = ueda;
    panel.setModel(parse(ueda), source, {});
    choose_analysis(panel, "Bifurcation diagram");
    const study::Study s = panel.study();
    REQUIRE(s.sweep.size() == 1);
    CHECK(s.sweep[0].name == "k");
    CHECK(field_text(panel, "sweep[0].from") == "0.025");
    CHECK(field_text(panel, "sweep[0].to") == "0.075");
    CHECK(s.sweep[0].to == 0.075);
    panel.resize(420, panel.sizeHint().height());
    test::save_screenshot(panel, "study_panel_new_bifurcation");
}

TEST_CASE("numbers in the fields are the shortest text that reads back to the same double", "[gui][study]") {
    struct Case {
        double value;
        const char* text;
    };
    const Case cases[] = {{0.075, "0.075"},
                          {1.5 * 0.05, "0.07500000000000001"},
                          {1e-6, "1e-6"},
                          {1e8, "1e8"},
                          {-2.5e-12, "-2.5e-12"},
                          {0.1 + 0.2, "0.30000000000000004"},
                          {6.02214076e23, "6.02214076e23"},
                          {100.0, "100"}};
    for (const Case& c : cases) {
        INFO(c.text);
        CHECK(number_text(c.value) == c.text);
        CHECK(plain_number(number_text(c.value)) == c.value); // reads back exactly
        // and agrees with Qt's own shortest round trip, up to the exponent's spelling
        CHECK(QString::number(c.value, 'g', QLocale::FloatingPointShortest).toDouble() == c.value);
    }
}

TEST_CASE("a suggested section follows a new model text; one the user wrote stays", "[gui][study]") {
    const std::string forced = "x'=y\ny'=-a*x-c*y+b*cos(w*t)\npar a=1,b=0.5,c=0.1,w=1.2\n";
    const std::string ueda = "x'=y\ny'=-k*y-x^3+B*cos(t)\npar k=0.05,B=7.5\n";
    StudyPanel panel;
    study::ModelSource source;
    source.text = forced;
    panel.setModel(parse(forced), source, {});
    choose_analysis(panel, "Bifurcation diagram");
    CHECK(panel.study().bifurcation.section.period == "2*pi/w");
    source.text = ueda;
    panel.setModel(parse(ueda), source, {});
    CHECK(panel.study().bifurcation.section.period == "2*pi"); // w is gone with the old model

    study::Study s = panel.study();
    s.bifurcation.section.period = "pi";
    panel.setStudy(s);
    source.text = forced;
    panel.setModel(parse(forced), source, {});
    CHECK(panel.study().bifurcation.section.period == "pi");
}

TEST_CASE("a model's set blocks are offered, and one gives the study its values", "[gui][study]") {
    const char* text = "x'=-a*x+b\npar a=1,b=0\nx(0)=1\nset fast {a=3,x=2,total=5}\nset shifted {b=2}\n";
    StudyPanel panel;
    study::ModelSource source;
    source.text = text;
    panel.setModel(parse(text), source, {});
    QComboBox* sets = nullptr;
    for (QComboBox* box : panel.findChildren<QComboBox*>())
        if (box->count() == 3 && box->itemText(1) == "set fast") sets = box;
    REQUIRE(sets);
    CHECK(sets->isVisibleTo(&panel));
    sets->setCurrentIndex(1);
    emit sets->activated(1);
    study::Study s = panel.study();
    CHECK(s.parameters == std::vector<std::pair<std::string, double>>{{"a", 3.0}});
    CHECK(s.initial == std::vector<std::pair<std::string, double>>{{"x", 2.0}});
    emit sets->activated(0);
    s = panel.study();
    CHECK(s.parameters.empty());
    CHECK(s.initial.empty());

    const char* plain = "x'=-x\n";
    source.text = plain;
    panel.setModel(parse(plain), source, {});
    CHECK(!sets->isVisibleTo(&panel));
}
