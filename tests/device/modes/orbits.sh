# round.sh orbits: issue 34's orbit refinement on the GPU. test_orbit_gpu (the CUDA backend's refined
# orbits against the CPU backend's), test_orbit_source (the module with bif_orbit_refine, compiled
# through NVRTC), then bench_cuda_orbit_refine: the 46080-value MPGOS Duffing diagram and the
# refinement of its period 1-8 orbits (goal: refinement <= 0.1 s on one H200). --tests: other GPU
# tests first; --benches: other benchmark programs instead.
mode_orbits() {
  local t b benches=${opt_benches:-bench_cuda_orbit_refine}
  build_targets $opt_tests test_orbit_gpu test_orbit_source $benches
  for t in $opt_tests test_orbit_source test_orbit_gpu; do run_program "$t" 300; done
  for b in $benches; do run_program "$b" 300; done
}
