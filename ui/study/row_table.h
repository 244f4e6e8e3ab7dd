// A short editable list of rows (recorded quantities, accessories): text columns and choice
// columns, with buttons to add and remove rows.
#pragma once

#include <QStringList>
#include <QWidget>
#include <vector>

class QTableWidget;

namespace bif::ui {

class RowTable : public QWidget {
    Q_OBJECT
  public:
    struct Column {
        QString title;
        QStringList choices; // empty: free text
    };
    RowTable(std::vector<Column> columns, QWidget* parent = nullptr);

    void setRows(const std::vector<QStringList>& rows);
    std::vector<QStringList> rows() const;
    QTableWidget* table() const { return table_; }

  signals:
    void edited();

  private:
    void appendRow(const QStringList& cells);
    void fitHeight();

    std::vector<Column> columns_;
    QTableWidget* table_;
};

} // namespace bif::ui
