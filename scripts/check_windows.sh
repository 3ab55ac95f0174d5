#!/usr/bin/env bash
# The C core on Windows (LLP64: long is 32 bits), with its AVX2 and AVX-512
# readers and writers: the harnesses of scripts/cross.sh built with
# mingw-w64 twice, GCC's way (per-function targets, <cpuid.h>) and MSVC's
# way (FASTXFEN_MSVC_STYLE: CPU detection by __cpuidex and _xgetbv from
# <intrin.h>, no per-function targets, avx2.c and avx512.c given their
# instruction sets by file as MSVC's /arch would), run under wine and
# compared with this machine's build: the placement readers against the
# exact one (and the 8-wide readers' counts against this machine's), the
# reader choice, the row loop, the line finder, and every row of the bench
# corpus, widened and mutated, read and written by each reader.  Exit 0 when
# all agree.
# Installs gcc-mingw-w64-x86-64 and wine when missing; needs python-chess
# for the corpus (PYTHON=... a Python that has it).
#
#   bash scripts/check_windows.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cross.sh"
WORK="$(mktemp -d -t fastxfen-windows.XXXXXXXX)"
export WINEDEBUG=-all WINEPREFIX="$WORK/wine"
# this prefix's wine server ends before its folder goes
trap 'wineserver -k >/dev/null 2>&1 || true; wineserver -w >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

need x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
need wine wine wine64

step "rows"
make_rows "$WORK/rows.fen"
echo "  $(wc -l <"$WORK/rows.fen") rows"

step "build: this machine; Windows x86-64, GCC's way and MSVC's way"
MINGW=(x86_64-w64-mingw32-gcc -O3 -std=c11 -static -Wall -Wvla -Wno-unused-function)
build_harnesses "$WORK/native" "${CC:-cc}" -O3 -std=c11
EXE=.exe
build_harnesses "$WORK/gcc" "${MINGW[@]}"
AVX2_FLAGS="-mavx2 -mbmi -mpopcnt" \
    AVX512_FLAGS="-mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mbmi -mbmi2 -mpopcnt" \
    build_harnesses "$WORK/msvc" "${MINGW[@]}" -DFASTXFEN_MSVC_STYLE

step "this machine"
EXE="" run_harnesses "" "$WORK/native"
EXE="" dumps "" "$WORK/native" "$WORK/rows.fen"
wineboot -i >/dev/null 2>&1 || true  # make the prefix before the first timed run
for build in gcc msvc; do
    step "Windows ($build style) under wine"
    run_harnesses wine "$WORK/$build"
    compare_readers "$WORK/native/readers.out" "$WORK/$build/readers.out"
    same "$WORK/native/batch.out" "$WORK/$build/batch.out" "row loop"
    same "$WORK/native/lines.out" "$WORK/$build/lines.out" "line finder and byte sets"
    same "$WORK/native/cells.out" "$WORK/$build/cells.out" "rows into cells"
    dumps wine "$WORK/$build" "$(winepath -w "$WORK/rows.fen")" "$WORK/native/dump.auto"
done
step "Windows: every output agrees"
