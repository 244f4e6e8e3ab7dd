// Whether the process that wrote a recovery file still runs. A PID alone is not enough: after a
// crash the number can be handed to an unrelated process, so the writer's start time is kept too.
#pragma once

#include <QtGlobal>

namespace bif::ui {

qint64 current_process_id();

// The start time of process `pid` in milliseconds since the epoch; 0 when it does not run or the
// system does not say (then only liveness counts).
qint64 process_start_ms(qint64 pid);

bool process_is_running(qint64 pid);

} // namespace bif::ui
