# Shared by check_aarch64.sh and check_windows.sh (sourced, not run): build
# the C core's harnesses with a given compiler, make the rows they read, and
# compare a foreign build's outputs with this machine's.
#
# The harnesses: tests/c/placement_readers.c (every reader against the exact
# one), tests/c/reader_choice.c (the choice of reader), tests/c/batch.c (the
# row loop and an export kernel), tests/c/lines.c (the line finder and the
# byte sets of bits.h), tests/c/cells.c (rows into numpy cells) and
# bench/c/kernel.c in its "dump" case (each row's answer, written from the
# board, or its error).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORE="$ROOT/src/fastxfen/core"
PYTHON="${PYTHON:-python3}"
SEED=20261122
ROWS=300000
EXE=""  # what executables end with: .exe for Windows

step() { printf '\n==> %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

# Install Debian packages whose commands are missing: need COMMAND PACKAGE...
need() {
    local command="$1"
    shift
    command -v "$command" >/dev/null 2>&1 && return 0
    step "installing $*"
    local sudo=""
    [[ "$(id -u)" == 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# build_harnesses DIR COMPILER FLAGS...: every file of the core
# compiled on its own (readers/avx2.c and readers/avx512.c with AVX2_FLAGS
# and AVX512_FLAGS too, for a build that gives them their instruction sets
# by file, as MSVC does), then the six harnesses linked into DIR.
build_harnesses() {
    local dir="$1"
    shift
    mkdir -p "$dir/obj"
    local src obj extra
    for src in "$CORE"/*.c "$CORE"/readers/*.c "$CORE"/export/*.c; do
        obj="$dir/obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o"
        case "$src" in
            */readers/avx2.c) extra="${AVX2_FLAGS:-}" ;;
            */readers/avx512.c) extra="${AVX512_FLAGS:-}" ;;
            *) extra="" ;;
        esac
        # shellcheck disable=SC2086  # extra holds flags, split on purpose
        "$@" $extra -I"$CORE" -c "$src" -o "$obj"
    done
    local o="$dir/obj/" readers=("$dir"/obj/readers_*.o) export=("$dir"/obj/export_*.o)
    local base=("${o}core_tables.o" "${o}core_tail.o" "${o}core_rules.o" "${o}core_write.o"
        "${o}core_record.o")
    "$@" -I"$CORE" "$ROOT/tests/c/placement_readers.c" "${readers[@]}" "${base[@]}" \
        -o "$dir/readers$EXE"
    "$@" -I"$CORE" "$ROOT/tests/c/reader_choice.c" "${readers[@]}" "${o}core_tables.o" \
        -o "$dir/choice$EXE"
    "$@" -I"$CORE" "$ROOT/tests/c/lines.c" "${o}core_lines.o" -o "$dir/lines$EXE"
    "$@" -I"$CORE" "$ROOT/tests/c/cells.c" "${o}core_cells.o" -o "$dir/cells$EXE"
    "$@" -I"$CORE" "$ROOT/tests/c/batch.c" "${o}core_batch.o" "${o}core_parse.o" \
        "${readers[@]}" "${base[@]}" "${export[@]}" -lm -o "$dir/batch$EXE"
    # (clock_gettime is in winpthreads on mingw-w64)
    "$@" -I"$CORE" "$ROOT/bench/c/kernel.c" "${o}core_parse.o" "${o}core_batch.o" \
        "${readers[@]}" "${base[@]}" -lpthread -o "$dir/kernel$EXE"
}

# make_rows FILE: the bench corpus (20,000 positions of random games, needs
# python-chess), the same positions widened to 10x8, and mutated copies
# (most of them errors), one row a line.
make_rows() {
    "$PYTHON" -c "import chess" 2>/dev/null \
        || fail "the bench corpus needs python-chess: pip install chess, or PYTHON=..."
    "$PYTHON" - "$ROOT/bench" "$1" <<'EOF'
import random
import sys

sys.path.insert(0, sys.argv[1])
import corpus  # noqa: E402

rows = corpus.load(20000)
rnd = random.Random(20261127)


def widen(rank):
    """Two empty squares more at the end of a rank."""
    if rank[-1].isdigit():
        return rank[:-1] + str(int(rank[-1]) + 2)
    return rank + "2"


out = list(rows)
for row in rows[:4000]:
    placement, rest = row.split(" ", 1)
    out.append("/".join(map(widen, placement.split("/"))) + " " + rest)
alphabet = "PNBRQKACpnbrqkacxz0123456789/ \t-wb"
for row in rnd.sample(out, 8000):
    chars = list(row)
    for _ in range(rnd.randint(1, 3)):
        at = rnd.randrange(len(chars) + 1)
        kind = rnd.randrange(3)
        if kind == 0 and at < len(chars):
            chars[at] = rnd.choice(alphabet)
        elif kind == 1:
            chars.insert(at, rnd.choice(alphabet))
        elif at < len(chars):
            del chars[at]
    out.append("".join(chars))
open(sys.argv[2], "w").write("\n".join(out) + "\n")
EOF
}

# run_harnesses RUN DIR: the placement readers, the choice, the row loop,
# the line finder and the cells of DIR's build, run by RUN (nothing: this
# machine; qemu-aarch64, wine), into DIR/*.out; each must pass.
run_harnesses() {
    local run="$1" dir="$2"
    $run "$dir/readers$EXE" "$ROWS" "$SEED" >"$dir/readers.out" || fail "$dir: placement readers"
    $run "$dir/choice$EXE" >"$dir/choice.out" || fail "$dir: choice: $(cat "$dir/choice.out")"
    $run "$dir/batch$EXE" >"$dir/batch.out" || fail "$dir: row loop: $(cat "$dir/batch.out")"
    $run "$dir/lines$EXE" >"$dir/lines.out" || fail "$dir: lines: $(cat "$dir/lines.out")"
    $run "$dir/cells$EXE" >"$dir/cells.out" || fail "$dir: cells: $(cat "$dir/cells.out")"
    echo "  reader choice: $(tr -d '\r' <"$dir/choice.out")"
}

# dumps RUN DIR ROWS REFERENCE: the kernel's dump of ROWS with each reader
# DIR's build has and the CPU runs (FASTXFEN_READER), each the same as
# REFERENCE (the first, with no REFERENCE, becomes it).
dumps() {
    local run="$1" dir="$2" rows="$3" reference="${4:-$2/dump.auto}" name
    for name in auto scalar sse2 avx2 avx512 neon; do
        if FASTXFEN_READER=$name $run "$dir/kernel$EXE" "$rows" 1 dump 2>"$dir/dump.err" \
            | tr -d '\r' >"$dir/dump.$name" && [[ -s "$dir/dump.$name" ]]; then
            same "$reference" "$dir/dump.$name" "kernel dump, reader $name"
        else
            echo "  reader $name: $(tr -d '\r' <"$dir/dump.err")"
        fi
    done
}

# compare_readers NATIVE FOREIGN: both harness runs found no mismatch, the
# scalar reader read the same rows, and every 8-wide reader the foreign
# build runs accepted and wrote what this machine's did.
compare_readers() {
    local native="$1" foreign="$2"
    tr -d '\r' <"$foreign" >"$foreign.txt"
    foreign="$foreign.txt"
    grep -qx "rows $ROWS mismatches 0" "$native" || fail "native readers: $(tail -1 "$native")"
    grep -qx "rows $ROWS mismatches 0" "$foreign" || fail "foreign readers: $(cat "$foreign")"
    [[ "$(grep '^scalar ' "$native")" == "$(grep '^scalar ' "$foreign")" ]] \
        || fail "scalar readers differ: $(grep '^scalar ' "$native") / $(grep '^scalar ' "$foreign")"
    local reference
    reference="$(grep -E '^(avx512|avx2|neon) runs 1' "$native" | head -1 | cut -d' ' -f4-)"
    local name rest
    while read -r name _ _ rest; do
        [[ -z "$reference" || "$rest" == "$reference" ]] \
            || fail "$name reader: $rest, this machine's: $reference"
        echo "  $name reader: $rest (as this machine's)"
    done < <(grep -E '^(avx512|avx2|neon) runs 1' "$foreign" || true)
}

# same FILE_A FILE_B WHAT: the files are equal (line ends aside).
same() {
    cmp -s <(tr -d '\r' <"$1") <(tr -d '\r' <"$2") || { diff "$1" "$2" | head -5; fail "$3 differs"; }
    echo "  $3: same ($(wc -l <"$1") lines)"
}
