#!/usr/bin/env bash
# One GPU round on the device machine, from the repository root with .device/ carried (and
# .device-gui/ for gui). tests/device/README.md says what each mode does and costs.
#   bash tests/device/round.sh MODE[,MODE...] [options]
#   MODE: tests bench compile multigpu scaleout gui stiff overhead orbits all
# Builds only what the modes need (Release, no GUI, benchmarks on) in one build folder, runs it,
# prints a row per step as it comes and the table last; logs go to $OUT (logs.tar.gz, summary.txt).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

usage() {
  sed -n '/^# Options/,/^[^#]/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}
# Options:
#   --out DIR              logs, summary.txt, pictures (default $OUT, else build-round-logs)
#   --build DIR            the build folder (default /tmp/bifscope-round; a warm machine keeps it)
#   --source DIR           the tree to build (default this checkout; e.g. an older commit unpacked
#                          into an ignored folder and carried, to compare in the same machine start)
#   --tests "T ..."        tests: these programs (default every gpu-labelled test); other modes:
#                          these GPU tests first
#   --engine               tests: also the engine-labelled tests (builds everything)
#   --sanitize             tests: compute-sanitizer memcheck and racecheck on each GPU test
#   --benches "B ..."      bench, stiff: these benchmark programs instead of the mode's own
#   --nvrtc "OPTS;OPTS"    bench: the Lorenz and Duffing benchmarks again under each NVRTC option
#                          set (BENCH_NVRTC_OPTIONS; kernel-header switches such as -DBIF_OUTLINE_MATH);
#                          stiff: bench_cuda_stiff's kernels again (-DBIF_LU_RECIPROCAL_PIVOTS)
#   --sass                 bench: kernel_report's cubins, local loads/stores per function in the SASS
#   --ncu "WHAT ..."       bench: Nsight Compute on lorenz, duffing, or duffing-source
#   --settings "L:V=v ...;L2:..."  compile: environments compared, interleaved in every run
#                          (default separate:BIFSCOPE_NVRTC_SEPARATE=1;whole:BIFSCOPE_NVRTC_SEPARATE=0)
#   --variants "L:B:OPTS;..."  compile: NVRTC option variants of bench_cuda_compile
#                          (BENCH_COMPILE_VARIANTS: label, register bound or empty, options)
#   --runs N               compile: cold-compile runs per setting (default 3)
#   --models "m ..."       compile: models whose file names contain these words (default: every
#                          bundled model of up to 4 states)
#   --pleiades             compile: Pleiades (28 states) once per setting too
#   --kernels "B ..."      compile: kernel benchmarks under each setting (BENCH_FIRST_TIER=1)
#   --studies "S ..."      compile: bundled studies (resources/studies/S.json) through bifscope-cli
#                          under each setting: a cold run, cached runs, results compared;
#                          overhead: bench_auto_backend on these studies only (default all)
#   --phases               compile: NVRTC's phases of three dumped programs (nvrtc_phases.py)
#   --threshold            compile: CPU against GPU wall time of small studies (the auto threshold)
#   --count N              stiff: systems of the Robertson study (default 1048576)
#   --skip "PART ..."      multigpu: tests cli bench; scaleout: tests multi mpi big same host;
#                          stiff: cli (the benchmark programs alone);
#                          gui: xvfb (EGL steps only); overhead: job progressive
#   --gui-study FILE       gui: the study the app runs (default the Duffing period map)
#   -h, --help

[[ $# -ge 1 ]] || usage 2
ROUND_MODES=${1//,/ }
shift
ROUND_OUT=${OUT:-$root/build-round-logs}
ROUND_BUILD=/tmp/bifscope-round
ROUND_SOURCE=$root
opt_tests="" opt_engine="" opt_sanitize="" opt_benches="" opt_nvrtc="" opt_sass="" opt_ncu=""
opt_settings="separate:BIFSCOPE_NVRTC_SEPARATE=1;whole:BIFSCOPE_NVRTC_SEPARATE=0"
opt_variants="" opt_runs=3 opt_models="" opt_pleiades="" opt_kernels="" opt_studies="" opt_phases="" opt_threshold=""
opt_count=1048576 opt_skip="" opt_gui_study=""
while (($#)); do
  case $1 in
  --out) ROUND_OUT=$2; shift ;;
  --build) ROUND_BUILD=$2; shift ;;
  --source) ROUND_SOURCE=$(cd "$2" && pwd); shift ;;
  --tests) opt_tests=$2; shift ;;
  --engine) opt_engine=1 ;;
  --sanitize) opt_sanitize=1 ;;
  --benches) opt_benches=$2; shift ;;
  --nvrtc) opt_nvrtc=$2; shift ;;
  --sass) opt_sass=1 ;;
  --ncu) opt_ncu=$2; shift ;;
  --settings) opt_settings=$2; shift ;;
  --variants) opt_variants=$2; shift ;;
  --runs) opt_runs=$2; shift ;;
  --models) opt_models=$2; shift ;;
  --pleiades) opt_pleiades=1 ;;
  --kernels) opt_kernels=$2; shift ;;
  --studies) opt_studies=$2; shift ;;
  --phases) opt_phases=1 ;;
  --threshold) opt_threshold=1 ;;
  --count) opt_count=$2; shift ;;
  --skip) opt_skip=$2; shift ;;
  --gui-study) opt_gui_study=$2; shift ;;
  -h | --help) usage ;;
  *) echo "round.sh: unknown option $1" >&2; usage 2 ;;
  esac
  shift
done

source "$here/round_lib.sh"
for m in "$here"/modes/*.sh; do source "$m"; done

# skipped PART: whether --skip names PART.
skipped() { [[ " $opt_skip " == *" $1 "* ]]; }

cd "$root"
round_init
use_device_libraries "$root"
machine_info
if [[ " $ROUND_MODES " == *" all "* ]]; then
  ROUND_MODES="tests bench compile stiff"
  (($(gpu_count) > 1)) && ROUND_MODES+=" multigpu scaleout"
  [[ -f $root/.device-gui/gui.tar.xz ]] && ROUND_MODES+=" gui"
fi
for mode in $ROUND_MODES; do
  declare -F "mode_$mode" >/dev/null || { echo "round.sh: no mode '$mode'" >&2; usage 2; }
done
# gui runs the programs packed by prep-gui.sh; every other mode builds here.
if [[ " $ROUND_MODES " != " gui " ]]; then
  configure || { finish_round; exit 1; }
fi
for mode in $ROUND_MODES; do
  echo "== $mode"
  "mode_$mode"
done
finish_round
