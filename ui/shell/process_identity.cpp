#include "ui/shell/process_identity.h"

#include <QCoreApplication>
#include <QFile>
#include <QStringList>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <unistd.h>
#endif

namespace bif::ui {

qint64 current_process_id() {
    return QCoreApplication::applicationPid();
}

#ifdef Q_OS_LINUX
namespace {

// /proc/stat's "btime": the boot time in seconds since the epoch.
qint64 boot_time_s() {
    QFile file("/proc/stat");
    if (!file.open(QIODevice::ReadOnly)) return 0;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray& line : lines)
        if (line.startsWith("btime ")) return line.mid(6).trimmed().toLongLong();
    return 0;
}

} // namespace

qint64 process_start_ms(qint64 pid) {
    QFile file(QString("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly)) return 0;
    const QByteArray stat = file.readAll();
    // Field 2, the command name, is in parentheses and may hold spaces: count fields after its end.
    const qsizetype name_end = stat.lastIndexOf(')');
    if (name_end < 0) return 0;
    const QList<QByteArray> fields = stat.mid(name_end + 2).split(' ');
    // proc(5): field 22, starttime, in clock ticks after boot; fields[0] here is field 3.
    constexpr int starttime_index = 22 - 3;
    if (fields.size() <= starttime_index) return 0;
    const qint64 ticks = fields[starttime_index].toLongLong();
    const long ticks_per_s = sysconf(_SC_CLK_TCK);
    const qint64 boot = boot_time_s();
    if (ticks_per_s <= 0 || boot == 0) return 0;
    return boot * 1000 + ticks * 1000 / ticks_per_s;
}
#else
qint64 process_start_ms(qint64) {
    return 0;
}
#endif

#ifdef Q_OS_UNIX
namespace {

// A killed process stays a zombie until its parent reaps it; it runs no more.
bool is_zombie(qint64 pid) {
#ifdef Q_OS_LINUX
    QFile file(QString("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly)) return false;
    const QByteArray stat = file.readAll();
    const qsizetype name_end = stat.lastIndexOf(')');
    return name_end >= 0 && stat.mid(name_end + 2, 1) == "Z";
#else
    Q_UNUSED(pid);
    return false;
#endif
}

} // namespace

bool process_is_running(qint64 pid) {
    if (pid <= 0) return false;
    // Signal 0 checks only; EPERM means it exists but belongs to someone else.
    const bool exists = kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
    return exists && !is_zombie(pid);
}
#else
bool process_is_running(qint64 pid) {
    return pid == current_process_id();
}
#endif

} // namespace bif::ui
