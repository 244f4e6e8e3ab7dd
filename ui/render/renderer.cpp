#include "ui/render/renderer.h"

#include "ui/render/shader_sources.h"

#include <array>
#include <string>

namespace bif::render {

namespace {

// The info log of a shader or a program, one line (GL logs end in newlines).
template <class GetLength, class GetLog>
QString info_log(GLuint object, GetLength length_of, GetLog log_of) {
    GLint length = 0;
    length_of(object, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<std::size_t>(std::max(length, 1)), '\0');
    log_of(object, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return QString::fromUtf8(log.c_str()).simplified();
}

// A compiled shader, or 0 with the compiler's log in `error`.
GLuint compile(Gl& gl, GLenum type, const char* source, QString* error) {
    const GLuint shader = gl.glCreateShader(type);
    gl.glShaderSource(shader, 1, &source, nullptr);
    gl.glCompileShader(shader);
    GLint ok = GL_FALSE;
    gl.glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok == GL_TRUE) return shader;
    if (error)
        *error = QStringLiteral("%1 shader: ").arg(type == GL_VERTEX_SHADER ? "vertex" : "fragment") +
                 info_log(shader, gl.glGetShaderiv, gl.glGetShaderInfoLog);
    gl.glDeleteShader(shader);
    return 0;
}

// The layer vertex shader and `fragment` linked, or 0 with the log in `error`.
GLuint build(Gl& gl, const char* fragment, QString* error) {
    const GLuint vertex = compile(gl, GL_VERTEX_SHADER, shaders::layer_vertex, error);
    const GLuint pixel = vertex ? compile(gl, GL_FRAGMENT_SHADER, fragment, error) : 0;
    if (!pixel) {
        if (vertex) gl.glDeleteShader(vertex);
        return 0;
    }
    GLuint program = gl.glCreateProgram();
    gl.glAttachShader(program, vertex);
    gl.glAttachShader(program, pixel);
    gl.glLinkProgram(program);
    gl.glDeleteShader(vertex); // flagged: freed with the program
    gl.glDeleteShader(pixel);
    GLint ok = GL_FALSE;
    gl.glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        if (error)
            *error = QStringLiteral("link: ") + info_log(program, gl.glGetProgramiv, gl.glGetProgramInfoLog);
        gl.glDeleteProgram(program);
        program = 0;
    }
    return program;
}

// Position of display coordinate `d` in NDC when [from, to] fills [-1, 1].
float ndc(double d, double from, double to) {
    return static_cast<float>(-1.0 + 2.0 * (d - from) / (to - from));
}

} // namespace

bool Renderer::initialize(QString* error) {
    Gl* gl = current_gl();
    if (!gl) {
        if (error) *error = QStringLiteral("no current OpenGL 3.3 core context");
        return false;
    }
    return initialize(*gl, error);
}

bool Renderer::initialize(Gl& gl, QString* error) {
    density_ = build(gl, shaders::density_fragment, error);
    map_ = density_ ? build(gl, shaders::map_fragment, error) : 0;
    if (!map_) {
        if (density_) gl.glDeleteProgram(density_);
        density_ = 0;
        return false;
    }
    gl.glGenVertexArrays(1, &vao_);
    gl_ = &gl;
    return true;
}

void Renderer::release() {
    if (gl_) {
        if (vao_) gl_->glDeleteVertexArrays(1, &vao_);
        gl_->glDeleteProgram(density_);
        gl_->glDeleteProgram(map_);
    }
    vao_ = density_ = map_ = 0;
    gl_ = nullptr;
}

void Renderer::drawQuad(GLuint program, const DataRect& extent, const DataRect& view) {
    gl_->glUniform4f(at(program, "quad"), ndc(extent.left, view.left, view.right),
                     ndc(extent.bottom, view.bottom, view.top), ndc(extent.right, view.left, view.right),
                     ndc(extent.top, view.bottom, view.top));
    gl_->glEnable(GL_BLEND);
    gl_->glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl_->glBindVertexArray(vao_);
    gl_->glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    gl_->glBindVertexArray(0);
    gl_->glUseProgram(0);
}

void Renderer::draw(const DensityLayer& layer, const DataRect& extent, const DataRect& view) {
    if (!gl_ || layer.size().isEmpty()) return;
    gl_->glUseProgram(density_);
    layer.counts().bind(*gl_, 0);
    layer.ramp().bind(*gl_, 1);
    gl_->glUniform1i(at(density_, "counts"), 0);
    gl_->glUniform1i(at(density_, "ramp"), 1);
    gl_->glUniform2i(at(density_, "size"), layer.size().width(), layer.size().height());
    gl_->glUniform2i(at(density_, "run"), layer.runLeft(), layer.runRight());
    gl_->glUniform1f(at(density_, "most"), static_cast<GLfloat>(std::max(layer.mostCount(), 1u)));
    gl_->glUniform1i(at(density_, "log_scale"), layer.scaling() == DensityScaling::Log);
    drawQuad(density_, extent, view);
}

void Renderer::draw(const MapLayer& layer, const DataRect& extent, const DataRect& view) {
    if (!gl_ || layer.size().isEmpty()) return;
    gl_->glUseProgram(map_);
    layer.values().bind(*gl_, 0);
    layer.statuses().bind(*gl_, 1);
    layer.lut().bind(*gl_, 2);
    gl_->glUniform1i(at(map_, "values"), 0);
    gl_->glUniform1i(at(map_, "statuses"), 1);
    gl_->glUniform1i(at(map_, "lut"), 2);
    gl_->glUniform2i(at(map_, "size"), layer.size().width(), layer.size().height());
    gl_->glUniform1i(at(map_, "categorical"), layer.categorical());
    gl_->glUniform2f(at(map_, "span"), layer.from(), layer.to());
    std::array<GLuint, 8> failed{};
    for (std::size_t s = 0; s < 256; ++s)
        if (layer.failedStatuses()[s]) failed[s / 32] |= 1u << (s % 32);
    gl_->glUniform1uiv(at(map_, "failed"), 8, failed.data());
    const Rgba c = to_rgba(layer.failedColour());
    gl_->glUniform4f(at(map_, "failed_colour"), c.r, c.g, c.b, c.a);
    drawQuad(map_, extent, view);
}

} // namespace bif::render
