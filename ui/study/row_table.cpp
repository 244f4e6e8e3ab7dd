#include "ui/study/row_table.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bif::ui {

RowTable::RowTable(std::vector<Column> columns, QWidget* parent)
    : QWidget(parent), columns_(std::move(columns)), table_(new QTableWidget(this)) {
    table_->setColumnCount(static_cast<int>(columns_.size()));
    QStringList titles;
    for (const Column& c : columns_)
        titles << c.title;
    table_->setHorizontalHeaderLabels(titles);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // Columns stretch to the width, so a horizontal bar would only hide the last row.
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(table_, &QTableWidget::itemChanged, this, &RowTable::edited);

    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        appendRow({});
        emit edited();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow() >= 0 ? table_->currentRow() : table_->rowCount() - 1;
        if (row < 0) return;
        table_->removeRow(row);
        fitHeight();
        emit edited();
    });
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(table_);
    layout->addLayout(buttons);
    fitHeight();
}

void RowTable::appendRow(const QStringList& cells) {
    const QSignalBlocker block(table_);
    const int row = table_->rowCount();
    table_->insertRow(row);
    for (int c = 0; c < static_cast<int>(columns_.size()); ++c) {
        const QString text = c < cells.size() ? cells[c] : QString();
        if (columns_[c].choices.isEmpty()) {
            table_->setItem(row, c, new QTableWidgetItem(text));
            continue;
        }
        auto* combo = new QComboBox(table_);
        combo->addItems(columns_[c].choices);
        if (!text.isEmpty()) combo->setCurrentText(text);
        connect(combo, &QComboBox::currentIndexChanged, this, &RowTable::edited);
        table_->setCellWidget(row, c, combo);
    }
    fitHeight();
}

void RowTable::setRows(const std::vector<QStringList>& rows) {
    {
        const QSignalBlocker block(table_);
        table_->setRowCount(0);
    }
    for (const QStringList& r : rows)
        appendRow(r);
}

std::vector<QStringList> RowTable::rows() const {
    std::vector<QStringList> out;
    for (int r = 0; r < table_->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < static_cast<int>(columns_.size()); ++c) {
            if (auto* combo = qobject_cast<QComboBox*>(table_->cellWidget(r, c)))
                cells << combo->currentText();
            else
                cells << (table_->item(r, c) ? table_->item(r, c)->text() : QString());
        }
        out.push_back(cells);
    }
    return out;
}

// A table as tall as its rows (up to six), so that the form scrolls as a whole.
void RowTable::fitHeight() {
    const int rows = std::clamp(table_->rowCount(), 1, 6);
    const int row_height = table_->verticalHeader()->defaultSectionSize();
    table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() + rows * row_height + 4);
}

} // namespace bif::ui
