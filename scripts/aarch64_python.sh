#!/usr/bin/env bash
# The Python tests on an aarch64 CPython under qemu-aarch64 (called by
# check_aarch64.sh --python, which says how): DIR is a scratch folder, the
# other arguments go to pytest.
#
#   bash scripts/aarch64_python.sh DIR [PYTEST ARGS]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/cross.sh"
DIR="$(mkdir -p "$1" && cd "$1" && pwd)"
shift
SYSROOT="$DIR/root" SITE="$DIR/site" PKG="$DIR/pkg"
PACKAGES="libc6 python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
    libpython3.11-dev zlib1g libffi8 libssl3 libexpat1 libbz2-1.0 liblzma5 libsqlite3-0
    libgcc-s1 libstdc++6 libuuid1 libncursesw6 libtinfo6 libreadline8 libdb5.3 libgdbm6
    libnsl2 libtirpc3 libcrypt1"
SUFFIX=cpython-311-aarch64-linux-gnu.so

step "an arm64 sysroot with Debian's Python 3.11"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    apt-get update -qq
fi
mkdir -p "$DIR/debs" "$SYSROOT"
for package in $PACKAGES; do
    (cd "$DIR/debs" && apt-get download -qq "$package:arm64" 2>/dev/null)
done
for deb in "$DIR"/debs/*.deb; do dpkg -x "$deb" "$SYSROOT"; done
cat >"$DIR/python3" <<WRAPPER
#!/bin/sh
exec qemu-aarch64 -L "$SYSROOT" -0 "$DIR/python3" "$SYSROOT/usr/bin/python3.11" "\$@"
WRAPPER
chmod +x "$DIR/python3"

step "aarch64 wheels: numpy (this machine's version), tqdm and the test dependencies"
numpy="$("$PYTHON" -c 'import numpy; print(numpy.__version__)')"
"$PYTHON" -m pip install -q --target "$SITE" --python-version 3.11 --implementation cp \
    --abi cp311 --platform manylinux2014_aarch64 --platform manylinux_2_28_aarch64 \
    --only-binary=:all: "numpy==$numpy" tqdm pytest pytest-xdist hypothesis chess pyarrow zstandard

step "the extension modules, cross-compiled"
ls "$ROOT"/src/fastxfen/_codec.c >/dev/null || fail "no Cython output: pip install -e . first"
rm -rf "$PKG" && mkdir -p "$PKG"
cp -r "$ROOT/src/fastxfen" "$PKG/"
find "$PKG" \( -name "*.so" -o -name "_*.c" \) -delete
flags=(-O2 -shared -fPIC -std=c11 -fvisibility=hidden -I"$SYSROOT/usr/include/python3.11"
    -idirafter "$SYSROOT/usr/include" -I"$SITE/numpy/_core/include" -I"$CORE"
    -DNPY_NO_DEPRECATED_API=NPY_1_7_API_VERSION)
core=("$CORE"/{tables,parse,rules,write,record,batch}.c "$CORE"/readers/*.c)
module() {  # module NAME CORE_FILES...
    local name="$1"
    shift
    aarch64-linux-gnu-gcc "${flags[@]}" "$ROOT/src/fastxfen/$name.c" "$@" -lm \
        -o "$PKG/fastxfen/$name.$SUFFIX"
}
module _codec "${core[@]}"
module _bulk "${core[@]}" "$CORE/lines.c"
module _export "${core[@]}" "$CORE"/export/*.c
module _pgn "$CORE/pgnscan.c"
module _keys "${core[@]}" "$CORE"/{zobrist,zobrist_keys,dedupe}.c
PYTHONPATH="$PKG:$SITE" "$DIR/python3" -c \
    'import fastxfen as fx; about = fx.info(); print("  ", about["machine"], about["reader"])'

step "pytest $*"
cd "$ROOT"
# shellcheck disable=SC2086  # the arguments are pytest's, split on purpose
PYTHONPATH="$PKG:$SITE" HYPOTHESIS_STORAGE_DIRECTORY="$DIR/hypothesis" "$DIR/python3" \
    -m pytest -q -p no:cacheprovider $*
