// The bundled examples, read from resources/models/*.ode and resources/studies/*.json: a study's
// title and description are its JSON keys; a model's are its leading `#` comment (first line the
// title, the rest the description).
#pragma once

#include <QList>
#include <QString>

namespace bif::ui {

struct ExampleEntry {
    enum class Kind { Model, Study };
    Kind kind = Kind::Model;
    QString path; // absolute
    QString title;
    QString description;
    QString details; // studies: the analysis, model and swept values, read from the file
};

// Studies first (they run as they are), then models; each group sorted by file name.
QList<ExampleEntry> scan_examples(const QString& resources_directory);

ExampleEntry read_model_example(const QString& path);
ExampleEntry read_study_example(const QString& path);

} // namespace bif::ui
