#include "ui/render/shader_sources.h"

namespace bif::render::shaders {

// A triangle strip of four vertices, no vertex buffer: corner (0,0), (1,0), (0,1), (1,1) from
// gl_VertexID. `quad` holds the layer's corners in NDC: left, bottom, right, top.
const char* const layer_vertex = R"(#version 330 core
uniform vec4 quad;
out vec2 uv;
void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    uv = corner;
    gl_Position = vec4(mix(quad.xy, quad.zw, corner), 0.0, 1.0);
}
)";

// uv (0,0) is the layer's bottom-left corner; rows of the counts run from the top.
const char* const density_fragment = R"(#version 330 core
uniform usamplerBuffer counts;
uniform sampler1D ramp;
uniform ivec2 size;
uniform float most;
uniform bool log_scale;
uniform ivec2 run; // columns to the left and to the right a pixel looks at
in vec2 uv;
out vec4 colour;
void main() {
    ivec2 cell = clamp(ivec2(floor(uv * vec2(size))), ivec2(0), size - 1);
    int row = (size.y - 1 - cell.y) * size.x;
    uint n = 0u;
    for (int x = max(0, cell.x - run.x); x <= min(size.x - 1, cell.x + run.y); ++x)
        n = max(n, texelFetch(counts, row + x).r);
    if (n == 0u) discard;
    float level = log_scale ? log(1.0 + float(n)) / log(1.0 + most) : float(n) / most;
    colour = texelFetch(ramp, min(255, int(level * 255.0 + 0.5)), 0);
}
)";

// uv (0,0) is cell (0,0), the grid's first point along both axes.
const char* const map_fragment = R"(#version 330 core
uniform samplerBuffer values;
uniform usamplerBuffer statuses;
uniform sampler1D lut;
uniform ivec2 size;
uniform bool categorical;
uniform vec2 span; // from, to
uniform uint failed[8]; // a bit per status value
uniform vec4 failed_colour;
in vec2 uv;
out vec4 colour;
void main() {
    ivec2 cell = clamp(ivec2(floor(uv * vec2(size))), ivec2(0), size - 1);
    int k = cell.y * size.x + cell.x;
    uint status = texelFetch(statuses, k).r;
    if (status == 255u) discard;
    float v = texelFetch(values, k).r;
    if (((failed[status >> 5] >> (status & 31u)) & 1u) != 0u || isnan(v) || isinf(v)) {
        colour = failed_colour;
        return;
    }
    if (categorical) {
        int n = textureSize(lut, 0);
        int category = int(sign(v) * floor(abs(v) + 0.5)); // rounded half away from zero, as lround
        colour = texelFetch(lut, clamp(category, -1, n - 2) + 1, 0);
        return;
    }
    float t = (v - span.x) / (span.y - span.x);
    int i = t > 0.0 ? (t >= 1.0 ? 255 : int(t * 255.0 + 0.5)) : 0;
    colour = texelFetch(lut, i, 0);
}
)";

} // namespace bif::render::shaders
