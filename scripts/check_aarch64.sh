#!/usr/bin/env bash
# The C core on AArch64, with its NEON placement reader and writer: the
# harnesses of scripts/cross.sh cross-built with Debian's aarch64 compiler,
# with NEON and without SIMD (FASTXFEN_NO_SIMD), run under qemu-aarch64
# (user mode) and compared with this machine's build: the placement readers
# against the exact one (and the 8-wide reader's counts against this
# machine's), the reader choice, the row loop, the line finder, and every
# row of the bench corpus, widened and mutated, read and written by each
# reader.  Exit 0 when all agree.  Installs gcc-aarch64-linux-gnu and
# qemu-user when missing; needs python-chess for the corpus (PYTHON=... a
# Python that has it).
#
#   bash scripts/check_aarch64.sh
#   bash scripts/check_aarch64.sh --count   # and instructions per row, NEON and scalar
#   bash scripts/check_aarch64.sh --python [PYTEST ARGS]   # and the Python tests
#
# --python runs the test suite (or PYTEST ARGS; default: the reader parity
# and API tests) on an aarch64 CPython 3.11 under qemu: Debian's arm64
# packages of Python and its libraries are downloaded (dpkg learns the
# arm64 architecture; nothing arm64 is installed) and unpacked into a
# sysroot, numpy and the test dependencies come as aarch64 wheels (pip
# --platform), and the extension modules are cross-compiled from the
# Cython output of this machine's build (run `pip install -e .` first).
# The harnesses of the C tests (they run a C compiler) are left out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cross.sh"
WORK="$(mktemp -d -t fastxfen-aarch64.XXXXXXXX)"
trap 'rm -rf "$WORK"' EXIT

need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross
need qemu-aarch64 qemu-user

step "rows"
make_rows "$WORK/rows.fen"
echo "  $(wc -l <"$WORK/rows.fen") rows"

step "build: this machine; aarch64 with NEON; aarch64 without SIMD"
build_harnesses "$WORK/native" "${CC:-cc}" -O3 -std=c11
build_harnesses "$WORK/neon" aarch64-linux-gnu-gcc -O3 -std=c11 -static
build_harnesses "$WORK/plain" aarch64-linux-gnu-gcc -O3 -std=c11 -static -DFASTXFEN_NO_SIMD

step "this machine"
run_harnesses "" "$WORK/native"
dumps "" "$WORK/native" "$WORK/rows.fen"
for build in neon plain; do
    step "aarch64 ($build) under qemu-aarch64"
    run_harnesses qemu-aarch64 "$WORK/$build"
    compare_readers "$WORK/native/readers.out" "$WORK/$build/readers.out"
    same "$WORK/native/batch.out" "$WORK/$build/batch.out" "row loop"
    same "$WORK/native/lines.out" "$WORK/$build/lines.out" "line finder and byte sets"
    same "$WORK/native/cells.out" "$WORK/$build/cells.out" "rows into cells"
    dumps qemu-aarch64 "$WORK/$build" "$WORK/rows.fen" "$WORK/native/dump.auto"
done

if [[ "${1:-}" == "--count" ]]; then
    step "instructions per row under qemu-aarch64 (executed blocks x their length)"
    head -1000 "$WORK/rows.fen" >"$WORK/count.fen"  # corpus rows, all valid
    for run in neon:neon scalar:neon scalar:plain; do
        reader="${run%:*}" build="${run#*:}"
        line="  $reader reader ($build build):"
        for case in parse normalize write; do
            for rounds in 1 3; do
                FASTXFEN_READER=$reader qemu-aarch64 -d in_asm,exec,nochain -D "$WORK/log" \
                    "$WORK/$build/kernel" "$WORK/count.fen" "$rounds" "$case" >/dev/null
                "$PYTHON" "$ROOT/scripts/qemu_count.py" "$WORK/log" >"$WORK/count.$rounds"
            done
            line+=" $case $(( ($(cat "$WORK/count.3") - $(cat "$WORK/count.1")) / 2000 ))"
        done
        echo "$line"
    done
    rm -f "$WORK/log"
fi
if [[ "${1:-}" == "--python" ]]; then
    shift
    step "Python tests on aarch64 under qemu-aarch64"
    bash "$ROOT/scripts/aarch64_python.sh" "$WORK/py" "${@:-tests/test_reader_parity.py tests/test_api.py}"
fi
step "aarch64: every output agrees"
