// The background model check: only the newest text's result is announced, bursts of edits are
// checked once, and a large model's parse does not hold up the caller or typing.
#include "engine/model/parse.h"
#include "gui_test_support.h"
#include "ui/editor/model_checker.h"
#include "ui/editor/model_editor.h"
#include "ui/editor/model_editor_panel.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <catch2/catch.hpp>

using namespace bif;
using bif::test::wait_until;

namespace {

using Model = std::shared_ptr<const model::Model>;
using Diagnostics = std::vector<model::Diagnostic>;

// A chain of `states` coupled oscillators, two lines each plus parameters: large and valid.
QString largeModel(int states) {
    QString text = "# a long chain of coupled oscillators\npar k=0.3, c=0.05, w=1.1\n";
    for (int i = 0; i < states; ++i) {
        const int left = (i + states - 1) % states;
        const int right = (i + 1) % states;
        text += QString("x%1'=v%1\n").arg(i);
        text += QString("v%1'=-w*w*sin(x%1)-c*v%1+k*(x%2-2*x%1+x%3)+0.01*cos(t+%1)*exp(-x%1^2)\n")
                    .arg(i)
                    .arg(left)
                    .arg(right);
    }
    return text;
}

std::string firstStateName(const QList<QVariant>& emission) {
    const Model model = emission.at(0).value<Model>();
    return model && !model->states.empty() ? model->states.front().name : std::string();
}

} // namespace

TEST_CASE("results of older texts are dropped: the last text's result is the only one",
          "[editor][checker][gui]") {
    ui::ModelChecker checker;
    QSignalSpy spy(&checker, &ui::ModelChecker::checked);
    // The first text is the slowest to parse, so its result tends to arrive last.
    checker.setText(largeModel(1500));
    checker.checkNow();
    checker.setText("x'=1+\n");
    checker.checkNow();
    checker.setText("zeta'=-zeta\n");
    checker.checkNow();
    REQUIRE(wait_until([&] { return !checker.isPending(); }, 10000));
    QTest::qWait(300); // room for stale results to (wrongly) arrive
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    REQUIRE(spy.count() == 1);
    CHECK(firstStateName(spy.front()) == "zeta");
    CHECK(spy.front().at(1).value<Diagnostics>().empty());
}

TEST_CASE("a burst of edits is checked once, after the quiet spell", "[editor][checker][gui]") {
    ui::ModelChecker checker;
    QSignalSpy spy(&checker, &ui::ModelChecker::checked);
    QString text = "x'=";
    for (const char* piece : {"-", "a", "*", "x", "\npar a=2\n"}) {
        text += piece;
        checker.setText(text);
        QTest::qWait(40); // faster than the 300 ms quiet spell
    }
    CHECK(spy.isEmpty());
    REQUIRE(wait_until([&] { return !checker.isPending(); }, 5000));
    QTest::qWait(400);
    REQUIRE(spy.count() == 1);
    CHECK(firstStateName(spy.front()) == "x");
    const Model model = spy.front().at(0).value<Model>();
    REQUIRE(model);
    CHECK(model->parameters.size() == 1);
}

TEST_CASE("errors arrive with a null model and the parser's own diagnostics", "[editor][checker][gui]") {
    ui::ModelChecker checker;
    checker.setFileName("bad.ode");
    QSignalSpy spy(&checker, &ui::ModelChecker::checked);
    const std::string text = "x'=y\ny'=-x+foo\n";
    checker.setText(QString::fromStdString(text));
    REQUIRE(spy.wait(5000));
    const model::ParseResult direct = model::parse_model(text, "bad.ode");
    const Diagnostics got = spy.front().at(1).value<Diagnostics>();
    CHECK_FALSE(spy.front().at(0).value<Model>());
    REQUIRE(got.size() == direct.diagnostics.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        CHECK(got[i].format() == direct.diagnostics[i].format());
}

TEST_CASE("a large model is parsed off the UI thread, also while typing", "[editor][checker][gui]") {
    const QString text = largeModel(1000); // 2003 lines
    const model::ParseResult direct = model::parse_model(text.toStdString());
    REQUIRE(direct.model);

    ui::ModelChecker checker;
    QSignalSpy spy(&checker, &ui::ModelChecker::checked);
    checker.setText(text);
    checker.checkNow();
    // Off the UI thread: the call returns with the check still pending, and its result comes only
    // through the event loop (a parse on this thread would have announced it before returning).
    // Not a timing: a ratio of the call's time to the parse's failed on a loaded CI machine.
    CHECK(checker.isPending());
    CHECK(spy.isEmpty());
    REQUIRE(spy.wait(20000));
    CHECK(spy.front().at(0).value<Model>()->states.size() == direct.model->states.size());

    ui::ModelEditorPanel panel;
    panel.resize(700, 500);
    panel.show();
    panel.setText(text);
    panel.editor()->setFocus();
    panel.editor()->moveCursor(QTextCursor::End);
    // Typing does not parse on the UI thread: the keys return with the check pending and nothing
    // announced, and the burst is checked once after it (not a timing: those failed on loaded CI).
    QSignalSpy panelChecks(panel.checker(), &ui::ModelChecker::checked);
    QTest::keyClicks(panel.editor(), "aux energy=v0^2+v1^2");
    CHECK(panel.checker()->isPending());
    CHECK(panelChecks.isEmpty());
    REQUIRE(wait_until([&] { return !panel.checker()->isPending(); }, 20000));
    QTest::qWait(400);
    CHECK(panelChecks.count() == 1);
    CHECK(panel.model() != nullptr);
    CHECK(panel.model()->aux.size() == 1);
}
