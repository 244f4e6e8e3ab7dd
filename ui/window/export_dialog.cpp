#include "ui/window/export_dialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>

namespace bif::ui {

namespace {

QString file_stem(QString title) {
    title.replace(QRegularExpression("[^A-Za-z0-9_-]+"), "_");
    title = title.left(60);
    return title.isEmpty() ? QStringLiteral("figure") : title;
}

} // namespace

ExportDialog::ExportDialog(bool svg, const QString& title, const QString& directory, QWidget* parent)
    : QDialog(parent), svg_(svg), path_(new QLineEdit(this)), width_(new QSpinBox(this)),
      height_(new QSpinBox(this)) {
    setWindowTitle(svg ? tr("Export SVG") : tr("Export PNG"));
    QSettings settings;
    width_->setRange(200, max_width);
    height_->setRange(150, max_width);
    width_->setValue(settings.value("export/width", 1600).toInt());
    height_->setValue(settings.value("export/height", 1000).toInt());
    width_->setSuffix(" px");
    height_->setSuffix(" px");
    path_->setText(QDir(directory).filePath(file_stem(title) + (svg ? ".svg" : ".png")));
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* file_row = new QHBoxLayout;
    file_row->addWidget(path_, 1);
    file_row->addWidget(browse);
    auto* form = new QFormLayout(this);
    form->addRow(tr("File:"), file_row);
    form->addRow(tr("Width:"), width_);
    form->addRow(tr("Height:"), height_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    resize(520, sizeHint().height());
}

void ExportDialog::browse() {
    const QString path = QFileDialog::getSaveFileName(this, windowTitle(), path_->text(),
                                                      svg_ ? tr("SVG (*.svg)") : tr("PNG (*.png)"));
    if (!path.isEmpty()) path_->setText(path);
}

void ExportDialog::accept() {
    QSettings settings;
    settings.setValue("export/width", width_->value());
    settings.setValue("export/height", height_->value());
    QDialog::accept();
}

QString ExportDialog::path() const {
    return path_->text();
}

QSize ExportDialog::size() const {
    return {width_->value(), height_->value()};
}

} // namespace bif::ui
