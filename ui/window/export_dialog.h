// Asks where to export a picture and at what size (PNG up to 8192 px wide; SVG's size sets its
// view box and the embedded image's resolution). The size is remembered between exports.
#pragma once

#include <QDialog>

class QLineEdit;
class QSpinBox;

namespace bif::ui {

class ExportDialog : public QDialog {
    Q_OBJECT
  public:
    ExportDialog(bool svg, const QString& title, const QString& directory, QWidget* parent = nullptr);

    QString path() const;
    QSize size() const;

    static constexpr int max_width = 8192;

  private:
    void browse();
    void accept() override;

    bool svg_;
    QLineEdit* path_;
    QSpinBox* width_;
    QSpinBox* height_;
};

} // namespace bif::ui
