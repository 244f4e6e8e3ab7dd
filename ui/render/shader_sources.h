// GLSL 3.30 core sources of the renderer's programs: one vertex shader that places a layer's
// quad, and one fragment shader per layer kind that turns cell data into colours.
#pragma once

namespace bif::render::shaders {

extern const char* const layer_vertex;
extern const char* const density_fragment;
extern const char* const map_fragment;

} // namespace bif::render::shaders
