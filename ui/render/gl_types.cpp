#include "ui/render/gl_types.h"

#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <map>
#include <memory>
#include <mutex>

namespace bif::render {

bool Gl::load(const GlResolver& resolve, std::string* missing) {
#define BIF_GL_LOAD(ret, name, params)                                                                       \
    name = reinterpret_cast<ret(APIENTRYP) params>(resolve(#name));                                          \
    if (!name) {                                                                                             \
        if (missing) *missing = #name;                                                                       \
        return false;                                                                                        \
    }
    BIF_GL_FUNCTIONS(BIF_GL_LOAD)
#undef BIF_GL_LOAD
    return true;
}

namespace {

thread_local Gl* named_current = nullptr;

// The tables of the QOpenGLContexts seen so far, each dropped when its context goes.
Gl* table_of(QOpenGLContext* context) {
    static std::mutex mutex;
    static std::map<QOpenGLContext*, std::unique_ptr<Gl>> tables;
    const std::lock_guard lock(mutex);
    if (auto found = tables.find(context); found != tables.end()) return found->second.get();
    const QSurfaceFormat format = context->format();
    if (context->isOpenGLES() || format.version() < qMakePair(3, 3)) return nullptr;
    auto gl = std::make_unique<Gl>();
    if (!gl->load([context](const char* name) { return context->getProcAddress(name); })) return nullptr;
    QObject::connect(context, &QObject::destroyed, [context] {
        const std::lock_guard lock(mutex);
        tables.erase(context);
    });
    return tables.emplace(context, std::move(gl)).first->second.get();
}

} // namespace

Gl* current_gl() {
    if (named_current) return named_current;
    QOpenGLContext* context = QOpenGLContext::currentContext();
    return context ? table_of(context) : nullptr;
}

void set_current_gl(Gl* gl) {
    named_current = gl;
}

} // namespace bif::render
