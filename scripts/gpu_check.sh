#!/usr/bin/env bash
# For a machine with a CUDA GPU, under 5 minutes: install the `cuda` extra (unless CuPy is already there), run the
# real-GPU tests, run the test suite with LAZYARR_DEVICE=CUDA, run the CUDA benchmark, print a summary.
#   bash scripts/gpu_check.sh [extra pytest args]
set -uo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
PY=${PYTHON:-python3}
T0=$(date +%s)
log() { printf '\n==== %s (%ss)\n' "$1" "$(( $(date +%s) - T0 ))"; }

log "environment"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
if ! $PY -c "import cupy" 2>/dev/null; then
    $PY -m pip install -q -e ".[cuda]" || $PY -m pip install -q --no-build-isolation --no-deps -e . || true
fi
$PY -c "import cupy, numba, numpy; print('cupy', cupy.__version__, '| numba', numba.__version__, '| numpy', numpy.__version__, '| GPU available:', cupy.is_available())" || exit 1
NPROC=$(nproc 2>/dev/null || echo 4); WORKERS=$(( NPROC > 8 ? 8 : NPROC ))

log "real-GPU tests (pytest -m gpu)"
timeout 150 $PY -m pytest -q -m gpu tests/cuda -p no:cacheprovider "$@" 2>&1 | tail -25
GPU_RC=${PIPESTATUS[0]}

log "test suite with LAZYARR_DEVICE=CUDA"
LAZYARR_DEVICE=CUDA timeout 150 $PY -m pytest -q -n "$WORKERS" -p no:cacheprovider --timeout 120 "$@" 2>&1 | tail -40
SUITE_RC=${PIPESTATUS[0]}

log "benchmark"
timeout 90 $PY scripts/cuda_bench.py
BENCH_RC=$?

log "summary"
printf 'real-GPU tests: %s | suite on CUDA: %s | benchmark acceptance: %s | total %ss\n' \
    "$([ "$GPU_RC" = 0 ] && echo PASS || echo "FAIL ($GPU_RC)")" \
    "$([ "$SUITE_RC" = 0 ] && echo PASS || echo "FAIL ($SUITE_RC)")" \
    "$([ "$BENCH_RC" = 0 ] && echo PASS || echo "FAIL ($BENCH_RC)")" "$(( $(date +%s) - T0 ))"
[ "$GPU_RC" = 0 ] && [ "$SUITE_RC" = 0 ] && [ "$BENCH_RC" = 0 ]
