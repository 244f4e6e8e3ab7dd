// What the renderer's parts share: the OpenGL 3.3 core functions they call, as the project's own
// table filled from any get-proc-address function (Qt's, EGL's), so that the renderer needs only a
// current context and no QOpenGLContext; and the rectangle a layer or a view covers.
#pragma once

#include <functional>
#include <qopengl.h> // GL types and enums only; no Qt GL class is needed
#include <string>

namespace bif::render {

// Every GL entry point ui/render and its tests call: (return type, name, parameters).
#define BIF_GL_FUNCTIONS(X)                                                                                  \
    X(void, glActiveTexture, (GLenum texture))                                                               \
    X(void, glAttachShader, (GLuint program, GLuint shader))                                                 \
    X(void, glBindBuffer, (GLenum target, GLuint buffer))                                                    \
    X(void, glBindFramebuffer, (GLenum target, GLuint framebuffer))                                          \
    X(void, glBindRenderbuffer, (GLenum target, GLuint renderbuffer))                                        \
    X(void, glBindTexture, (GLenum target, GLuint texture))                                                  \
    X(void, glBindVertexArray, (GLuint array))                                                               \
    X(void, glBlendFuncSeparate, (GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha))       \
    X(void, glBufferData, (GLenum target, GLsizeiptr size, const void* data, GLenum usage))                  \
    X(void, glBufferSubData, (GLenum target, GLintptr offset, GLsizeiptr size, const void* data))            \
    X(GLenum, glCheckFramebufferStatus, (GLenum target))                                                     \
    X(void, glClear, (GLbitfield mask))                                                                      \
    X(void, glClearColor, (GLfloat r, GLfloat g, GLfloat b, GLfloat a))                                      \
    X(void, glCompileShader, (GLuint shader))                                                                \
    X(GLuint, glCreateProgram, ())                                                                           \
    X(GLuint, glCreateShader, (GLenum type))                                                                 \
    X(void, glDeleteBuffers, (GLsizei n, const GLuint* buffers))                                             \
    X(void, glDeleteFramebuffers, (GLsizei n, const GLuint* framebuffers))                                   \
    X(void, glDeleteProgram, (GLuint program))                                                               \
    X(void, glDeleteRenderbuffers, (GLsizei n, const GLuint* renderbuffers))                                 \
    X(void, glDeleteShader, (GLuint shader))                                                                 \
    X(void, glDeleteTextures, (GLsizei n, const GLuint* textures))                                           \
    X(void, glDeleteVertexArrays, (GLsizei n, const GLuint* arrays))                                         \
    X(void, glDisable, (GLenum cap))                                                                         \
    X(void, glDrawArrays, (GLenum mode, GLint first, GLsizei count))                                         \
    X(void, glEnable, (GLenum cap))                                                                          \
    X(void, glFinish, ())                                                                                    \
    X(void, glFramebufferRenderbuffer,                                                                       \
      (GLenum target, GLenum attachment, GLenum renderbuffer_target, GLuint renderbuffer))                   \
    X(void, glGenBuffers, (GLsizei n, GLuint * buffers))                                                     \
    X(void, glGenFramebuffers, (GLsizei n, GLuint * framebuffers))                                           \
    X(void, glGenRenderbuffers, (GLsizei n, GLuint * renderbuffers))                                         \
    X(void, glGenTextures, (GLsizei n, GLuint * textures))                                                   \
    X(void, glGenVertexArrays, (GLsizei n, GLuint * arrays))                                                 \
    X(void, glGetBufferSubData, (GLenum target, GLintptr offset, GLsizeiptr size, void* data))               \
    X(GLenum, glGetError, ())                                                                                \
    X(void, glGetIntegerv, (GLenum name, GLint * data))                                                      \
    X(void, glGetProgramInfoLog, (GLuint program, GLsizei size, GLsizei * length, GLchar * log))             \
    X(void, glGetProgramiv, (GLuint program, GLenum name, GLint * value))                                    \
    X(void, glGetShaderInfoLog, (GLuint shader, GLsizei size, GLsizei * length, GLchar * log))               \
    X(void, glGetShaderiv, (GLuint shader, GLenum name, GLint * value))                                      \
    X(const GLubyte*, glGetString, (GLenum name))                                                            \
    X(GLint, glGetUniformLocation, (GLuint program, const GLchar* name))                                     \
    X(void, glLinkProgram, (GLuint program))                                                                 \
    X(void, glPixelStorei, (GLenum name, GLint value))                                                       \
    X(void, glReadPixels,                                                                                    \
      (GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type, void* pixels))           \
    X(void, glRenderbufferStorage, (GLenum target, GLenum format, GLsizei width, GLsizei height))            \
    X(void, glShaderSource,                                                                                  \
      (GLuint shader, GLsizei count, const GLchar* const* source, const GLint* length))                      \
    X(void, glTexBuffer, (GLenum target, GLenum format, GLuint buffer))                                      \
    X(void, glTexImage1D,                                                                                    \
      (GLenum target, GLint level, GLint format, GLsizei width, GLint border, GLenum pixel_format,           \
       GLenum type, const void* pixels))                                                                     \
    X(void, glTexParameteri, (GLenum target, GLenum name, GLint value))                                      \
    X(void, glUniform1f, (GLint location, GLfloat v0))                                                       \
    X(void, glUniform1i, (GLint location, GLint v0))                                                         \
    X(void, glUniform1uiv, (GLint location, GLsizei count, const GLuint* values))                            \
    X(void, glUniform2f, (GLint location, GLfloat v0, GLfloat v1))                                           \
    X(void, glUniform2i, (GLint location, GLint v0, GLint v1))                                               \
    X(void, glUniform4f, (GLint location, GLfloat v0, GLfloat v1, GLfloat v2, GLfloat v3))                   \
    X(void, glUseProgram, (GLuint program))                                                                  \
    X(void, glViewport, (GLint x, GLint y, GLsizei width, GLsizei height))

// A GL function as a get-proc-address function returns it, and such a function (null: not found).
using GlProc = void (*)();
using GlResolver = std::function<GlProc(const char* name)>;

// The GL 3.3 core entry points of one context (call them while it is current), spelt as the GL
// functions so that call sites read `gl.glBindBuffer(...)`.
struct Gl {
#define BIF_GL_MEMBER(ret, name, params) ret(APIENTRYP name) params = nullptr;
    BIF_GL_FUNCTIONS(BIF_GL_MEMBER)
#undef BIF_GL_MEMBER

    // Resolves every entry point through `resolve`; false with the first missing name in `missing`.
    bool load(const GlResolver& resolve, std::string* missing = nullptr);
};

// The table for the context current on this thread, loaded once per context; null when there is
// none or it lacks a 3.3 core entry point. A context that set_current_gl() named comes first, then
// the current QOpenGLContext.
Gl* current_gl();

// Names the table of a context made current without Qt (the EGL device context); null forgets it.
// Only this thread's current_gl() sees it.
void set_current_gl(Gl* gl);

// A rectangle of display coordinates (data values, or their log10 on a log axis). left may exceed
// right (and bottom top) for a reversed axis.
struct DataRect {
    double left = 0.0, bottom = 0.0, right = 1.0, top = 1.0;
};

} // namespace bif::render
