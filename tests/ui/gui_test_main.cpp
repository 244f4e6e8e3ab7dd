// Catch2 main for the GUI tests: one QApplication for the whole program (widgets need it), made
// before any test case runs. The platform comes from QT_QPA_PLATFORM (offscreen on CI).
#include "catch_session.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Bifscope-tests");
    QApplication::setApplicationName("bifscope-tests");
    return bif::test::run_catch_session(argc, argv);
}
