// bifscope: the desktop explorer. `bifscope [MODEL.ode | STUDY.json] [--run]` opens the file (a study
// fills the study panel) and with --run starts it at once. `--screenshot FILE` saves the window as an
// image once that run ends, and `--quit-after-run` then quits (runs on a display-less server).
#include "ui/shell/theme.h"
#include "ui/window/main_window.h"
#include "ui/window/result_tab.h"
#include "ui/window/run_controller.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Bifscope");
    QApplication::setApplicationName("bifscope");
    QApplication::setApplicationVersion("0.1.0");
    bif::ui::applyTheme(app);

    QCommandLineParser options;
    options.setApplicationDescription("Bifscope: a bifurcation explorer for XPPAUT models");
    options.addHelpOption();
    options.addVersionOption();
    options.addPositionalArgument("file", "a model (.ode) or a study (.json) to open");
    const QCommandLineOption run_option("run", "run the opened study at once");
    options.addOption(run_option);
    const QCommandLineOption screenshot_option(
        "screenshot", "with --run: save the window to FILE when the run ends", "FILE");
    options.addOption(screenshot_option);
    const QCommandLineOption quit_option("quit-after-run", "with --run: quit when the run ends");
    options.addOption(quit_option);
    options.process(app);

    bif::ui::MainWindow window;
    window.show();
    const QString screenshot = options.value(screenshot_option);
    const bool quit_after_run = options.isSet(quit_option);
    QObject::connect(&window.runs(), &bif::ui::RunController::runFinished, &window, [&] {
        // The last blocks and the status line are painted on the next event loop turns.
        QTimer::singleShot(500, &window, [&] {
            if (!screenshot.isEmpty() && !window.grab().save(screenshot))
                qWarning("bifscope: cannot save the screenshot to %s", qPrintable(screenshot));
            if (quit_after_run) QApplication::exit(0);
        });
    });
    const QStringList files = options.positionalArguments();
    const bool opened = !files.isEmpty() && window.openFile(files.first());
    if (opened && options.isSet(run_option))
        QTimer::singleShot(0, &window, [&window] { window.runStudy(); });
    else
        QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
    return app.exec();
}
