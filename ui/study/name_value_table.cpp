#include "ui/study/name_value_table.h"

#include "ui/study/number_text.h"

#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace bif::ui {

namespace {

auto find_name(NamedValues& values, const std::string& name) {
    return std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
}

} // namespace

NameValueTable::NameValueTable(const QString& name_title, QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, 2, this)) {
    table_->setHorizontalHeaderLabels({name_title, tr("Value")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(table_);
    connect(table_, &QTableWidget::itemChanged, this, &NameValueTable::onItemChanged);
}

void NameValueTable::setDefaults(const NamedValues& defaults) {
    defaults_ = defaults;
    std::erase_if(overrides_, [&](const auto& o) {
        return std::none_of(defaults_.begin(), defaults_.end(),
                            [&](const auto& d) { return d.first == o.first; });
    });
    rebuild();
}

void NameValueTable::setOverrides(const NamedValues& overrides) {
    overrides_ = overrides;
    rebuild();
}

int NameValueTable::row(const std::string& name) const {
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, 0)->text().toStdString() == name) return r;
    return -1;
}

void NameValueTable::rebuild() {
    const QSignalBlocker block(table_);
    NamedValues rows = defaults_;
    for (const auto& o : overrides_)
        if (auto it = find_name(rows, o.first); it != rows.end())
            it->second = o.second;
        else
            rows.push_back(o);
    table_->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const auto& [name, value] = rows[r];
        auto* name_item = new QTableWidgetItem(QString::fromStdString(name));
        name_item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        auto* value_item = new QTableWidgetItem(number_text(value));
        QFont font = name_item->font();
        const bool overridden = find_name(overrides_, name) != overrides_.end();
        const bool in_model = find_name(defaults_, name) != defaults_.end();
        font.setBold(overridden);
        font.setItalic(!in_model);
        name_item->setFont(font);
        value_item->setFont(font);
        name_item->setToolTip(in_model ? QString() : tr("The model has no such name"));
        table_->setItem(r, 0, name_item);
        table_->setItem(r, 1, value_item);
    }
    const int shown = std::clamp(table_->rowCount(), 1, 8);
    table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                           shown * table_->verticalHeader()->defaultSectionSize() + 4);
}

void NameValueTable::onItemChanged(QTableWidgetItem* item) {
    if (item->column() != 1) return;
    const std::string name = table_->item(item->row(), 0)->text().toStdString();
    const auto value = plain_number(item->text());
    if (!value) {
        // Not a number: the cell goes back to the value the study holds.
        double held = 0.0;
        if (auto it = find_name(overrides_, name); it != overrides_.end())
            held = it->second;
        else if (auto d = find_name(defaults_, name); d != defaults_.end())
            held = d->second;
        const QSignalBlocker block(table_);
        item->setText(number_text(held));
        return;
    }
    if (auto it = find_name(overrides_, name); it != overrides_.end())
        it->second = *value;
    else
        overrides_.emplace_back(name, *value);
    QFont font = item->font();
    font.setBold(true);
    const QSignalBlocker block(table_);
    item->setFont(font);
    table_->item(item->row(), 0)->setFont(font);
    emit edited();
}

} // namespace bif::ui
