// Help › Examples: the bundled studies and models by title, a filter over titles, descriptions and
// file names, and a preview of the file; Open (or a double click) hands the chosen path on.
#pragma once

#include "ui/shell/example_catalog.h"

#include <QDialog>
#include <QList>
#include <QStringList>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace bif::ui {

class ExamplesGallery : public QDialog {
    Q_OBJECT
  public:
    explicit ExamplesGallery(const QString& resources_directory, QWidget* parent = nullptr);

    const QList<ExampleEntry>& entries() const { return entries_; }
    void setFilter(const QString& text);
    QStringList visiblePaths() const;
    bool select(const QString& path); // false when it is not listed or filtered out
    QString selectedPath() const;
    QString previewText() const;
    // Emits exampleChosen for the selected example and closes.
    void openSelected();

  signals:
    void exampleChosen(const QString& path);

  private:
    void applyFilter();
    void showSelected();

    QList<ExampleEntry> entries_;
    QLineEdit* filter_;
    QListWidget* list_;
    QLabel* title_;
    QLabel* kind_;
    QLabel* description_;
    QPlainTextEdit* preview_;
    QPushButton* open_button_;
};

} // namespace bif::ui
