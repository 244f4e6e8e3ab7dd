// The examples gallery lists every bundled model and study, titled, filters them and hands on the
// chosen path.
#include "gui_test_support.h"
#include "ui/shell/examples_gallery.h"
#include "ui/shell/resources_dir.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <catch2/catch.hpp>

using bif::ui::ExampleEntry;
using bif::ui::ExamplesGallery;

namespace {

// The bundled files, listed independently of the catalog.
QStringList bundled(const QString& folder, const QString& pattern) {
    QStringList paths;
    const QDir directory(bif::test::source_path("resources/" + folder));
    for (const QFileInfo& info : directory.entryInfoList({pattern}, QDir::Files))
        paths.append(info.absoluteFilePath());
    return paths;
}

} // namespace

TEST_CASE("resources_dir finds the bundled resources", "[shell][gallery]") {
    const QString found = bif::ui::resources_dir();
    REQUIRE(!found.isEmpty());
    CHECK(QFileInfo(found) == QFileInfo(bif::test::source_path("resources")));
}

TEST_CASE("the gallery lists every bundled model and study with its title", "[shell][gallery]") {
    ExamplesGallery gallery(bif::ui::resources_dir());
    const QStringList models = bundled("models", "*.ode");
    const QStringList studies = bundled("studies", "*.json");
    REQUIRE(models.size() >= 10);
    REQUIRE(studies.size() >= 10);

    QStringList listed;
    for (const ExampleEntry& entry : gallery.entries()) {
        listed.append(entry.path);
        INFO(entry.path.toStdString());
        CHECK(!entry.title.trimmed().isEmpty());
        CHECK(!entry.title.startsWith('#'));
        if (entry.kind == ExampleEntry::Kind::Study) {
            QFile file(entry.path);
            REQUIRE(file.open(QIODevice::ReadOnly));
            const QJsonObject study = QJsonDocument::fromJson(file.readAll()).object();
            CHECK(entry.title == study.value("title").toString());
            CHECK(entry.description == study.value("description").toString());
            // Studies without a description are still told apart by what they do.
            CHECK(entry.details.startsWith(study.value("analysis").toObject().value("kind").toString() +
                                           " · "));
        }
    }
    QStringList expected = models + studies;
    expected.sort();
    listed.sort();
    CHECK(listed == expected);
    CHECK(gallery.visiblePaths().size() == expected.size());

    // A model's title is the first line of its leading comment.
    const QString duffing = bif::test::source_path("resources/models/duffing.ode");
    for (const ExampleEntry& entry : gallery.entries())
        if (QFileInfo(entry.path) == QFileInfo(duffing))
            CHECK(entry.title == "Forced Duffing oscillator (double-well potential)");
}

TEST_CASE("the gallery filters, previews and emits the chosen path", "[shell][gallery]") {
    ExamplesGallery gallery(bif::ui::resources_dir());
    gallery.resize(1000, 640);
    bif::test::save_screenshot(gallery, "shell_gallery");

    gallery.setFilter("lorenz");
    const QStringList visible = gallery.visiblePaths();
    REQUIRE(!visible.isEmpty());
    for (const QString& path : visible) {
        INFO(path.toStdString());
        bool mentions = path.contains("lorenz", Qt::CaseInsensitive);
        for (const ExampleEntry& entry : gallery.entries())
            if (entry.path == path)
                mentions = mentions || entry.title.contains("lorenz", Qt::CaseInsensitive) ||
                           entry.description.contains("lorenz", Qt::CaseInsensitive);
        CHECK(mentions);
    }
    CHECK(visible.size() < gallery.entries().size());
    const QString model = QFileInfo(bif::test::source_path("resources/models/lorenz.ode")).absoluteFilePath();
    CHECK(visible.contains(model));
    REQUIRE(gallery.select(model));
    QFile file(model);
    REQUIRE(file.open(QIODevice::ReadOnly | QIODevice::Text));
    CHECK(gallery.previewText() == QString::fromUtf8(file.readAll()));
    bif::test::save_screenshot(gallery, "shell_gallery_filtered");

    QSignalSpy chosen(&gallery, &ExamplesGallery::exampleChosen);
    gallery.openSelected();
    REQUIRE(chosen.size() == 1);
    CHECK(chosen[0][0].toString() == model);

    gallery.setFilter("no example has this text");
    CHECK(gallery.visiblePaths().isEmpty());
    CHECK(gallery.selectedPath().isEmpty());
    gallery.openSelected();
    CHECK(chosen.size() == 1);
}
