// bifscope: the desktop explorer. `bifscope [MODEL.ode | STUDY.json] [--run]` opens the file (a study
// fills the study panel) and with --run starts it at once.
#include "ui/shell/theme.h"
#include "ui/window/main_window.h"

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
    options.process(app);

    bif::ui::MainWindow window;
    window.show();
    const QStringList files = options.positionalArguments();
    const bool opened = !files.isEmpty() && window.openFile(files.first());
    if (opened && options.isSet(run_option))
        QTimer::singleShot(0, &window, [&window] { window.runStudy(); });
    else
        QTimer::singleShot(0, &window, [&window] { window.offerRecovery(); });
    return app.exec();
}
