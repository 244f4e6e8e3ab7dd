// The model's parameters (or initial values) with the study's overrides: every name of the model
// with its value, overridden ones in bold. Names the model does not have are kept while a study
// sets them (shown in italics), so that the engine's problem about them shows and nothing is lost.
#pragma once

#include <QWidget>
#include <string>
#include <utility>
#include <vector>

class QTableWidget;
class QTableWidgetItem;

namespace bif::ui {

using NamedValues = std::vector<std::pair<std::string, double>>;

class NameValueTable : public QWidget {
    Q_OBJECT
  public:
    explicit NameValueTable(const QString& name_title, QWidget* parent = nullptr);

    // The model's names and values; overrides of names the model lacks are dropped.
    void setDefaults(const NamedValues& defaults);
    void setOverrides(const NamedValues& overrides);
    const NamedValues& overrides() const { return overrides_; }
    QTableWidget* table() const { return table_; }
    // The row of `name`, or -1.
    int row(const std::string& name) const;

  signals:
    void edited();

  private:
    void rebuild();
    void onItemChanged(QTableWidgetItem* item);

    QTableWidget* table_;
    NamedValues defaults_;
    NamedValues overrides_; // in the order they were set
};

} // namespace bif::ui
