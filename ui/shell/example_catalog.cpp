#include "ui/shell/example_catalog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace bif::ui {

namespace {

QString without_trailing_period(QString text) {
    text = text.trimmed();
    if (text.endsWith('.') && !text.endsWith("..")) text.chop(1);
    return text;
}

// "bifurcation · model duffing.ode · sweep k": what a study does, for studies without a description.
QString study_details(const QJsonObject& study) {
    QStringList parts;
    const QString kind = study.value("analysis").toObject().value("kind").toString();
    if (!kind.isEmpty()) parts.append(kind);
    const QString model = study.value("model").toObject().value("path").toString();
    parts.append(model.isEmpty() ? QObject::tr("model inline")
                                 : QObject::tr("model %1").arg(QFileInfo(model).fileName()));
    QStringList axes;
    for (const QJsonValue& axis : study.value("sweep").toArray()) {
        const QJsonObject object = axis.toObject();
        axes.append(object.contains("parameter") ? object.value("parameter").toString()
                                                 : object.value("initial").toString());
    }
    if (!axes.isEmpty()) parts.append(QObject::tr("sweep %1").arg(axes.join(" × ")));
    return parts.join(" · ");
}

} // namespace

ExampleEntry read_model_example(const QString& path) {
    ExampleEntry entry{ExampleEntry::Kind::Model, QFileInfo(path).absoluteFilePath(), {}, {}, {}};
    QFile file(path);
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        QTextStream in(&file);
        QStringList comment;
        while (!in.atEnd()) {
            const QString line = in.readLine();
            if (!line.startsWith('#')) break;
            QString text = line.mid(1);
            if (text.startsWith(' ')) text.remove(0, 1);
            comment.append(text);
        }
        if (!comment.isEmpty()) entry.title = without_trailing_period(comment.takeFirst());
        entry.description = comment.join('\n');
    }
    if (entry.title.isEmpty()) entry.title = QFileInfo(path).completeBaseName();
    return entry;
}

ExampleEntry read_study_example(const QString& path) {
    ExampleEntry entry{ExampleEntry::Kind::Study, QFileInfo(path).absoluteFilePath(), {}, {}, {}};
    QFile file(path);
    if (file.open(QIODevice::ReadOnly)) {
        const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
        entry.title = object.value("title").toString().trimmed();
        entry.description = object.value("description").toString().trimmed();
        entry.details = study_details(object);
    }
    if (entry.title.isEmpty()) entry.title = QFileInfo(path).completeBaseName();
    return entry;
}

QList<ExampleEntry> scan_examples(const QString& resources_directory) {
    QList<ExampleEntry> entries;
    const QDir studies(resources_directory + "/studies");
    for (const QString& name : studies.entryList({"*.json"}, QDir::Files, QDir::Name))
        entries.append(read_study_example(studies.filePath(name)));
    const QDir models(resources_directory + "/models");
    for (const QString& name : models.entryList({"*.ode"}, QDir::Files, QDir::Name))
        entries.append(read_model_example(models.filePath(name)));
    return entries;
}

} // namespace bif::ui
