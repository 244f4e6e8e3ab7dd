// Catch2 main for the GUI tests: one QApplication for the whole program (widgets need it), made
// before any test case runs. The platform comes from QT_QPA_PLATFORM (offscreen on CI).
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Bifscope-tests");
    QApplication::setApplicationName("bifscope-tests");
    return Catch::Session().run(argc, argv);
}
