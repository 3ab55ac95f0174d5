#!/bin/sh
# Build a copy of the package for fuzzing, outside the work tree.
#
#   tests/fuzz/build.sh coverage DIR   # clang, libFuzzer coverage of the C code
#   tests/fuzz/build.sh sanitize DIR   # gcc or clang, ASan + UBSan (-O1 -g)
#
# Then run the harnesses with PYTHONPATH=DIR/src (see README.md).  The copy
# takes the current files of src/ (committed or not), setup.py and
# pyproject.toml.
set -eu
mode=${1:?usage: build.sh coverage|sanitize DIR}
dir=${2:?usage: build.sh coverage|sanitize DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PYTHON:-python3}
mkdir -p "$dir"
(cd "$root" && tar -c --exclude='*.so' --exclude='__pycache__' --exclude=build \
    src setup.py pyproject.toml) | tar -x -C "$dir"
# Cython output is regenerated from the .pyx files
rm -f "$dir"/src/fastxfen/_*.c
cd "$dir"
case $mode in
coverage)
    # inline 8-bit counters + PC table + comparison hooks: what libFuzzer
    # (inside atheris) reads.  Not -fsanitize=fuzzer-no-link: its stack-depth
    # counter (__sancov_lowest_stack) is not exported by atheris's libFuzzer.
    CC=${CC:-clang} LDSHARED="${CC:-clang} -shared" \
    CFLAGS="-g -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp" \
        "$python" setup.py build_ext --inplace --force
    ;;
sanitize)
    FASTXFEN_SANITIZE=address,undefined "$python" setup.py build_ext --inplace --force
    ;;
*)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
