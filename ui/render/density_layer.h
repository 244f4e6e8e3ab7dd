// A point-density image: a histogram of width*height uint32 counts (row 0 at the top), shown
// through a 256-entry ramp scaled linearly or logarithmically against the densest pixel:
//   level = c / most  or  log(1 + c) / log(1 + most),  colour = ramp[min(255, floor(level*255 + 0.5))],
// the rule of ui/plot/result_figure's density pictures; empty pixels stay transparent.
// The counts live in countsBuffer(), a GL buffer the CUDA path can write into directly; setCounts()
// is the host path.
#pragma once

#include "ui/render/cell_buffer.h"
#include "ui/render/lut_texture.h"

#include <QRgb>
#include <QSize>
#include <array>
#include <cstdint>

namespace bif::render {

enum class DensityScaling { Linear, Log };

class DensityLayer {
  public:
    DensityLayer() : counts_(GL_R32UI, sizeof(std::uint32_t)) {}

    // Sizes the histogram (contents undefined until written). Needs a current context.
    void resize(Gl& gl, QSize size);
    // Host path: uploads size().width()*size().height() counts and their maximum.
    void setCounts(Gl& gl, const std::uint32_t* counts, std::uint32_t most);
    // Where a device kernel writes the counts; tell the layer the maximum with setMostCount().
    GLuint countsBuffer() const { return counts_.buffer(); }
    void setMostCount(std::uint32_t most) { most_ = most; }
    void setRamp(Gl& gl, const std::array<QRgb, 256>& ramp);
    void setScaling(DensityScaling scaling) { scaling_ = scaling; }
    // A sparse sweep's points drawn as short runs: a pixel shows the densest count among the columns
    // `left` to its left and `right` to its right (ResultFigure's Run, mirrored).
    void setRun(int left, int right) { run_left_ = left, run_right_ = right; }
    void release();

    QSize size() const { return size_; }
    std::uint32_t mostCount() const { return most_; }
    DensityScaling scaling() const { return scaling_; }
    int runLeft() const { return run_left_; }
    int runRight() const { return run_right_; }
    const CellBuffer& counts() const { return counts_; }
    const LutTexture& ramp() const { return ramp_; }

  private:
    CellBuffer counts_;
    LutTexture ramp_;
    QSize size_;
    std::uint32_t most_ = 1;
    DensityScaling scaling_ = DensityScaling::Log;
    int run_left_ = 0, run_right_ = 0;
};

} // namespace bif::render
