#include "ui/editor/model_checker.h"

#include "engine/model/parse.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace bif::ui {

namespace {

struct CheckResult {
    std::shared_ptr<const model::Model> model;
    std::vector<model::Diagnostic> diagnostics;
};

} // namespace

void registerModelMetaTypes() {
    qRegisterMetaType<std::shared_ptr<const bif::model::Model>>();
    qRegisterMetaType<std::vector<bif::model::Diagnostic>>();
}

ModelChecker::ModelChecker(QObject* parent) : QObject(parent) {
    registerModelMetaTypes();
    delay_.setSingleShot(true);
    delay_.setInterval(300);
    connect(&delay_, &QTimer::timeout, this, &ModelChecker::start);
}

void ModelChecker::setText(const QString& text) {
    if (hasText_ && text == text_) return;
    hasText_ = true;
    text_ = text;
    ++generation_;
    delay_.start();
}

void ModelChecker::checkNow() {
    delay_.stop();
    start();
}

void ModelChecker::start() {
    const quint64 generation = generation_;
    auto* watcher = new QFutureWatcher<CheckResult>(this);
    connect(watcher, &QFutureWatcher<CheckResult>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != generation_) return; // a newer text exists; its own check will report
        CheckResult result = watcher->result();
        announced_ = generation;
        emit checked(std::move(result.model), std::move(result.diagnostics));
    });
    watcher->setFuture(QtConcurrent::run([text = text_.toStdString(), file = fileName_.toStdString()] {
        model::ParseResult parsed = model::parse_model(text, file);
        CheckResult result;
        if (parsed.model) result.model = std::make_shared<const model::Model>(std::move(*parsed.model));
        result.diagnostics = std::move(parsed.diagnostics);
        return result;
    }));
}

} // namespace bif::ui
