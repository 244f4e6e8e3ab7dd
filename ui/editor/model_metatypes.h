// The parser's results as Qt metatypes, so that they travel through queued signals.
#pragma once

#include "engine/model/diagnostic.h"
#include "engine/model/model.h"

#include <QMetaType>
#include <memory>
#include <vector>

Q_DECLARE_METATYPE(std::shared_ptr<const bif::model::Model>)
Q_DECLARE_METATYPE(std::vector<bif::model::Diagnostic>)

namespace bif::ui {

// Registers the types above by name; idempotent.
void registerModelMetaTypes();

} // namespace bif::ui
