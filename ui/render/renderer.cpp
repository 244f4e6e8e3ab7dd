#include "ui/render/renderer.h"

#include "ui/render/shader_sources.h"

#include <array>

namespace bif::render {

namespace {

std::unique_ptr<QOpenGLShaderProgram> build(const char* fragment, QString* error) {
    auto program = std::make_unique<QOpenGLShaderProgram>();
    if (program->addShaderFromSourceCode(QOpenGLShader::Vertex, shaders::layer_vertex) &&
        program->addShaderFromSourceCode(QOpenGLShader::Fragment, fragment) && program->link())
        return program;
    if (error) *error = program->log();
    return nullptr;
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
    density_ = build(shaders::density_fragment, error);
    map_ = build(shaders::map_fragment, error);
    if (!density_ || !map_) {
        density_.reset(), map_.reset();
        return false;
    }
    gl->glGenVertexArrays(1, &vao_);
    gl_ = gl;
    return true;
}

void Renderer::release() {
    if (gl_ && vao_) gl_->glDeleteVertexArrays(1, &vao_);
    vao_ = 0;
    density_.reset(), map_.reset();
    gl_ = nullptr;
}

void Renderer::drawQuad(QOpenGLShaderProgram& program, const DataRect& extent, const DataRect& view) {
    program.setUniformValue("quad", ndc(extent.left, view.left, view.right),
                            ndc(extent.bottom, view.bottom, view.top),
                            ndc(extent.right, view.left, view.right), ndc(extent.top, view.bottom, view.top));
    gl_->glEnable(GL_BLEND);
    gl_->glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl_->glBindVertexArray(vao_);
    gl_->glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    gl_->glBindVertexArray(0);
    program.release();
}

void Renderer::draw(const DensityLayer& layer, const DataRect& extent, const DataRect& view) {
    if (!gl_ || layer.size().isEmpty()) return;
    density_->bind();
    layer.counts().bind(*gl_, 0);
    layer.ramp().bind(*gl_, 1);
    density_->setUniformValue("counts", 0);
    density_->setUniformValue("ramp", 1);
    gl_->glUniform2i(density_->uniformLocation("size"), layer.size().width(), layer.size().height());
    gl_->glUniform2i(density_->uniformLocation("run"), layer.runLeft(), layer.runRight());
    density_->setUniformValue("most", static_cast<GLfloat>(std::max(layer.mostCount(), 1u)));
    density_->setUniformValue("log_scale", layer.scaling() == DensityScaling::Log);
    drawQuad(*density_, extent, view);
}

void Renderer::draw(const MapLayer& layer, const DataRect& extent, const DataRect& view) {
    if (!gl_ || layer.size().isEmpty()) return;
    map_->bind();
    layer.values().bind(*gl_, 0);
    layer.statuses().bind(*gl_, 1);
    layer.lut().bind(*gl_, 2);
    map_->setUniformValue("values", 0);
    map_->setUniformValue("statuses", 1);
    map_->setUniformValue("lut", 2);
    gl_->glUniform2i(map_->uniformLocation("size"), layer.size().width(), layer.size().height());
    map_->setUniformValue("categorical", layer.categorical());
    map_->setUniformValue("span", layer.from(), layer.to());
    std::array<GLuint, 8> failed{};
    for (std::size_t s = 0; s < 256; ++s)
        if (layer.failedStatuses()[s]) failed[s / 32] |= 1u << (s % 32);
    gl_->glUniform1uiv(map_->uniformLocation("failed"), 8, failed.data());
    const Rgba c = to_rgba(layer.failedColour());
    map_->setUniformValue("failed_colour", c.r, c.g, c.b, c.a);
    drawQuad(*map_, extent, view);
}

} // namespace bif::render
