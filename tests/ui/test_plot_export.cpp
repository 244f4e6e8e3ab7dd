// PNG and SVG export of figures, in-process and through `bifscope-cli plot`.
#include "plot_test_studies.h"
#include "ui/plot/figure_export.h"

#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QProcess>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <thread>

using namespace bif;

namespace {

std::shared_ptr<plot::ResultFigure> filled_map() {
    const auto s = test::map_study(40, 30);
    auto r = std::make_shared<study::Result>(study::allocate_result(*s));
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        r->status[sys] = study::SystemStatus::Ok;
        test::column(*r, "period").values[sys] = double((sys % 40) / 10 + 1);
    }
    auto f = std::make_shared<plot::ResultFigure>(s);
    f->setResult(r);
    return f;
}

// Counts the SVG's elements by name.
std::map<QString, int> svg_elements(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    std::map<QString, int> counts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement) ++counts[xml.name().toString()];
    CHECK_FALSE(xml.hasError());
    return counts;
}

} // namespace

TEST_CASE("PNG export has the requested size and shows the cells", "[plot][export]") {
    QTemporaryDir dir;
    auto f = filled_map();
    const QString path = dir.filePath("map.png");
    for (const QSize size : {QSize(640, 400), QSize(3000, 1800)}) {
        REQUIRE(plot::export_png(*f, f->fullRange(), size, path).isEmpty());
        QImage image(path);
        REQUIRE(image.size() == size);
        // The plot area's centre: cell i = 20 (period 3).
        const plot::FigureLayout l =
            plot::FigurePainter(*f).layout(QRectF(QPointF(0, 0), size), f->fullRange(), &image);
        const QPointF p = plot::FigurePainter::toPixel(l.plot, f->fullRange(), 0.1 + 0.3 * 20.25 / 39, 0.3);
        CHECK(image.pixel(p.toPoint()) == plot::categorical_color(2));
    }
    CHECK_FALSE(plot::export_png(*f, f->fullRange(), QSize(9000, 100), path).isEmpty());
}

TEST_CASE("SVG export is valid, with vector text and the image embedded", "[plot][export]") {
    QTemporaryDir dir;
    auto f = filled_map();
    const QString path = dir.filePath("map.svg");
    REQUIRE(plot::export_svg(*f, f->fullRange(), QSize(800, 500), path).isEmpty());
    QSvgRenderer svg(path);
    CHECK(svg.isValid());
    CHECK(svg.viewBox() == QRect(0, 0, 800, 500));
    const auto elements = svg_elements(path);
    CHECK(elements.count("image") == 1);
    CHECK(elements.at("text") >= 10); // title, labels, ticks, legend
}

#ifdef BIFSCOPE_CLI
TEST_CASE("bifscope-cli plot writes a PNG of the requested size and a valid SVG", "[plot][cli]") {
    QTemporaryDir dir;
    // A small Duffing diagram: the quick study's model and settings at a few values of k.
    study::Study s;
    s.title = "cli diagram";
    s.model.path = test::source_path("resources/models/duffing.ode").toStdString();
    s.parameters = {{"b", 0.3}};
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.2, 0.3, 24, study::SweepScale::Linear}};
    s.bifurcation.section = test::strobe();
    s.bifurcation.transient_sections = 16;
    s.bifurcation.recorded_sections = 8;
    QFile json(dir.filePath("study.json"));
    REQUIRE(json.open(QIODevice::WriteOnly));
    json.write(QByteArray::fromStdString(study::write_study_json(s)));
    json.close();
    const auto run = [&](QStringList args) {
        QProcess p;
        p.start(BIFSCOPE_CLI, QStringList{"plot", json.fileName()} + args);
        REQUIRE(p.waitForFinished(60000));
        INFO(p.readAllStandardError().toStdString());
        return p.exitCode();
    };
    CHECK(run({"--out", dir.filePath("d.png"), "--size", "700x450", "--backend", "cpu"}) == 0);
    CHECK(QImageReader(dir.filePath("d.png")).size() == QSize(700, 450));
    CHECK(run({"--out", dir.filePath("d.svg"), "--quantity", "y2", "--backend", "cpu"}) == 0);
    CHECK(QSvgRenderer(dir.filePath("d.svg")).isValid());
    CHECK(run({"--out", dir.filePath("d.png"), "--quantity", "nope"}) == 2);
    CHECK(run({"--out", dir.filePath("d.txt")}) == 2);
    CHECK(run({"--out", dir.filePath("d.png"), "--size", "12x"}) == 2);
}
#endif

TEST_CASE("exports to a FIFO reach its reader and leave it a FIFO; a full disk is an error", "[plot][export]") {
    QTemporaryDir dir;
    auto f = filled_map();
    const QString fifo = dir.filePath("figure.fifo");
    REQUIRE(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QByteArray received;
    std::thread reader([&] {
        QFile pipe(fifo);
        if (pipe.open(QIODevice::ReadOnly)) received = pipe.readAll();
    });
    CHECK(plot::export_svg(*f, f->fullRange(), QSize(400, 300), fifo).isEmpty());
    reader.join();
    CHECK(received.startsWith("<?xml"));
    CHECK(received.contains("</svg>"));
    struct stat info {};
    REQUIRE(::stat(QFile::encodeName(fifo).constData(), &info) == 0);
    CHECK(S_ISFIFO(info.st_mode));
    CHECK(QFileInfo::exists(fifo + ".partial") == false);
    if (QFileInfo::exists("/dev/full")) {
        const QString why = plot::export_png(*f, f->fullRange(), QSize(400, 300), "/dev/full");
        INFO(why.toStdString());
        CHECK(why.contains("No space left on device"));
        REQUIRE(::stat("/dev/full", &info) == 0);
        CHECK(S_ISCHR(info.st_mode));
    }
}
