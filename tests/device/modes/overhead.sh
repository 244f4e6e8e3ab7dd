# round.sh overhead: what a job costs beyond its kernels (issues 33 and 36). bench_job_overhead
# (a tiny study's warm jobs and each per-job step, CPU and the CUDA host side), bench_auto_backend
# once per bundled study (each its own step and row, so that a round cut off at the end of a lease
# keeps the studies it finished; --studies "NAME ...": only those), and bench_cuda_progressive (a
# progressive map against one pass), again with BIFSCOPE_CUDA_KEEP=0 (nothing kept between runs, as
# before the backend's staging pool and module shelf). The rows end with auto's worst ratio per study.
mode_overhead() {
  local s name studies=()
  build_targets bench_job_overhead bench_auto_backend bench_cuda_progressive $opt_tests
  for t in $opt_tests; do run_program "$t" 300; done
  skipped job || run_program bench_job_overhead 120
  if [[ -n $opt_studies ]]; then
    studies=($opt_studies)
  else
    for s in "$src"/resources/studies/*.json; do
      name=$(basename "$s" .json)
      studies+=("$name")
    done
  fi
  for name in "${studies[@]}"; do
    run_step "bench_auto_backend $name" 240 "$(exe bench_auto_backend)" --only "$name"
  done
  skipped progressive && return
  run_program bench_cuda_progressive 150
  # the same with nothing kept from run to run (each run pins its staging and loads its module)
  BIFSCOPE_CUDA_KEEP=0 run_step "bench_cuda_progressive, BIFSCOPE_CUDA_KEEP=0" 150 "$(exe bench_cuda_progressive)"
}
