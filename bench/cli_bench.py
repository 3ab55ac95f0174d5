"""``fastxfen normalize`` file to file, against this machine's limits, in one run.

Builds a plain FEN file of the requested size (default 1.1 GB) from the
benchmark corpus (corpus.py: 100,000 positions, repeated, each copy rotated
by a random number of lines), and, for the compressed cases, a .gz and a .zst
copy of its first ``--compressed-size`` bytes (default 64 MB; gzip level 6
and zstd level 3, the command's defaults), and those bytes as a plain file
for the compressed outputs.  Then, in rounds that take turns between the cases,
it times:

* the command, ``python -m fastxfen normalize IN -o OUT --quiet`` in a child
  process (start-up included; its automatic threads unless ``--threads N``),
  for this tree's build and, with ``--before COMMIT`` (built outside the
  tree, in the files' folder) or ``--before SRC``, for another build's
  ``src`` folder; cases ``plain``
  (FEN to FEN), ``gz-in`` / ``zst-in`` (compressed FEN to plain FEN) and
  ``gz-out`` / ``zst-out`` (plain FEN to compressed FEN); and case
  ``dedupe``, ``fastxfen dedupe`` of the plain file (the corpus's 100,000
  rows repeated: most rows are dropped), with its ratio to ``plain``;
* the limits measured in the same rounds:

  - ``memcpy``: numpy copying a 256 MB buffer (one core);
  - ``copy``: the input copied to a file next to the output (8 MB reads and
    writes, then fsync, as the command publishes) in this process: what
    reading and writing the bytes costs on this disk; and the same with the
    writes made with O_DIRECT, as the command makes them;
  - process start: the command on an empty input;
  - ``kernel``: the library normalizing the first 256 MB of the input, held
    in memory, in chunks of 8 MB with 2 threads (a child process per build):
    the command's work without its input and output;
  - ``inflate`` / ``zstd -d``: decompressing the compressed input to nothing
    (zlib with 1 MB reads; zstandard's stream reader), one core; and the
    ``zstd`` program's ``zstd -d -c IN > /dev/null``, where it is installed.
    A compressed input's bound is the slower of that decompression (the
    program's, else zstandard's) and the plain file's run.  The program is
    also timed as a user runs it, ``zstd -d IN -o FILE``, writing the
    decompressed file next to the command's output: the same bytes written
    to the same disk as the command writes, on top of the decompression
    (the ratio to it is printed too);
  - ``deflate`` / ``zstd``: compressing the plain input, held in memory, to
    nothing at the command's default level, one core.

Speeds are MB/s (10^6 bytes) of uncompressed FEN text: medians over the
rounds, with the lowest and highest.  Not part of the test suite.  Usage::

    python bench/cli_bench.py                          # 1.1 GB, plain case
    python bench/cli_bench.py --cases plain,gz-in,zst-in,gz-out,zst-out
    python bench/cli_bench.py --before ../main/src --rounds 5
    python bench/cli_bench.py 300M --dir /var/tmp/b --keep   # reuse the files
"""

from __future__ import annotations

import argparse
import fcntl
import gzip
import mmap
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

from builds import build_commit, check_cli, describe_child
from builds import run as run_checked

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "src")
CASES = ("plain", "gz-in", "zst-in", "gz-out", "zst-out", "dedupe")
KERNEL_BYTES = 256 << 20
CHUNK = 8 << 20


def parse_size(text: str) -> int:
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:].lower(), 1)
    return int(float(text[:-1] if scale != 1 else text) * scale)


# ------------------------------------------------------------------ inputs


def write_plain(path: str, size: int, seed: int) -> int:
    """A FEN file of at least ``size`` bytes: the corpus repeated, each copy
    rotated by a random number of lines."""
    sys.path.insert(0, HERE)
    import corpus

    lines = [fen.encode() + b"\n" for fen in corpus.load()]
    rng = random.Random(seed)
    written = 0
    with open(path, "wb") as f:
        while written < size:
            at = rng.randrange(len(lines))
            block = b"".join(lines[at:]) + b"".join(lines[:at])
            f.write(block)
            written += len(block)
    return written


def compress_copy(plain: str, path: str, size: int) -> None:
    """The first ``size`` bytes of ``plain`` (whole lines), compressed by
    the extension of ``path`` at the command's default level."""
    with open(plain, "rb") as f:
        data = f.read(size)
    data = data[: data.rfind(b"\n") + 1]
    if path.endswith(".gz"):
        with gzip.open(path, "wb", compresslevel=6) as out:
            out.write(data)
    else:
        import zstandard

        with open(path, "wb") as out:
            out.write(zstandard.ZstdCompressor(level=3, write_checksum=True).compress(data))


def inputs(folder: str, size: int, cases, compressed_size: int, seed: int) -> dict:
    """Paths of the inputs, made unless a file of that name is there."""
    plain = os.path.join(folder, "in.fen")
    if not os.path.exists(plain):
        started = time.perf_counter()
        write_plain(plain, size, seed)
        print(f"wrote {plain} in {time.perf_counter() - started:.1f} s")
    paths = {"plain": plain}
    if any(case.endswith("-out") for case in cases):
        head = os.path.join(folder, "head.fen")
        if not os.path.exists(head):
            with open(plain, "rb") as f:
                data = f.read(compressed_size)
            with open(head, "wb") as f:
                f.write(data[: data.rfind(b"\n") + 1])
        paths["head"] = head
    for kind in ("gz", "zst"):
        if any(case.startswith(kind) for case in cases):
            path = os.path.join(folder, f"in.fen.{kind}")
            if not os.path.exists(path):
                started = time.perf_counter()
                compress_copy(plain, path, compressed_size)
                print(f"wrote {path} in {time.perf_counter() - started:.1f} s")
            paths[kind] = path
    return paths


def plain_size(path: str) -> int:
    """Bytes of FEN text in ``path`` (decompressed)."""
    if path.endswith(".gz"):
        total = 0
        with gzip.open(path, "rb") as f:
            while chunk := f.read(CHUNK):
                total += len(chunk)
        return total
    if path.endswith(".zst"):
        import zstandard

        total = 0
        with open(path, "rb") as raw:
            reader = zstandard.ZstdDecompressor().stream_reader(raw)
            while chunk := reader.read(CHUNK):
                total += len(chunk)
        return total
    return os.path.getsize(path)


# ------------------------------------------------------------------ limits


def memcpy_seconds(size: int = 256 << 20) -> float:
    import numpy as np

    src = np.ones(size, np.uint8)
    dst = np.ones(size, np.uint8)
    started = time.perf_counter()
    np.copyto(dst, src)
    return time.perf_counter() - started


def copy_seconds(path: str, out: str, direct: bool = False) -> float:
    """Read ``path`` and write it to ``out`` with fsync, as the command does;
    with ``direct``, whole 4 KiB blocks written with O_DIRECT (Linux) from a
    page-aligned buffer, the last partial one through the page cache."""
    buf = mmap.mmap(-1, CHUNK)
    view = memoryview(buf)
    started = time.perf_counter()
    with open(path, "rb", buffering=0) as f, open(out, "wb", buffering=0) as g:
        flags = fcntl.fcntl(g.fileno(), fcntl.F_GETFL)
        if direct:
            fcntl.fcntl(g.fileno(), fcntl.F_SETFL, flags | os.O_DIRECT)
        while n := f.readinto(view):
            if n % 4096 and direct:  # the last block
                fcntl.fcntl(g.fileno(), fcntl.F_SETFL, flags)
            g.write(view[:n])
        os.fsync(g.fileno())
    seconds = time.perf_counter() - started
    os.remove(out)
    view.release()
    buf.close()
    return seconds


def inflate_seconds(path: str) -> float:
    started = time.perf_counter()
    if path.endswith(".gz"):
        with open(path, "rb", buffering=0) as f:
            d = zlib.decompressobj(wbits=31)
            while data := f.read(1 << 20):
                while data:
                    d.decompress(data, CHUNK)
                    data = d.unconsumed_tail
                    if d.eof:  # a next gzip member
                        data = d.unused_data + data
                        d = zlib.decompressobj(wbits=31)
    else:
        import zstandard

        buf = bytearray(CHUNK)
        with open(path, "rb") as raw:
            reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
            while reader.readinto(buf):
                pass
    return time.perf_counter() - started


def deflate_seconds(data: bytes, kind: str) -> float:
    view = memoryview(data)
    started = time.perf_counter()
    if kind == "gz":
        c = zlib.compressobj(6, zlib.DEFLATED, 31)
        for at in range(0, len(view), CHUNK):
            c.compress(view[at : at + CHUNK])
        c.flush()
    else:
        import zstandard

        c = zstandard.ZstdCompressor(level=3, write_checksum=True).compressobj()
        for at in range(0, len(view), CHUNK):
            c.compress(view[at : at + CHUNK])
        c.flush()
    return time.perf_counter() - started


KERNEL_SCRIPT = """
import sys, time
from fastxfen import _bulk
from fastxfen._options import ErrorsMode, TextOptions
path, size, chunk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "rb") as f:
    data = f.read(size)
data = data[: data.rfind(b"\\n") + 1]
cuts, at = [], 0
while at < len(data):
    end = data.rfind(b"\\n", at, at + chunk) + 1
    cuts.append((at, end))
    at = end
data = memoryview(data)
into = [bytearray(_bulk.text_bound(chunk + (1 << 16))) for _ in range(2)]
best = []
for _ in range(2):
    started = time.perf_counter()
    for k, (lo, hi) in enumerate(cuts):
        b = _bulk.lines(data[lo:hi], threads=0, count=False)
        b.normalize(TextOptions(), ErrorsMode.COERCE, threads=2, terminators=True,
                    ends=False, into=into[k % 2])
    best.append(time.perf_counter() - started)
print(len(data), min(best))
"""


def kernel_seconds(src: str, path: str) -> tuple:
    """(bytes, seconds) of the library normalizing the start of ``path`` in
    memory, 8 MB at a time with 2 threads, with the build in ``src``."""
    env = dict(os.environ, PYTHONPATH=src)
    out = run_checked(
        [sys.executable, "-c", KERNEL_SCRIPT, path, str(KERNEL_BYTES), str(CHUNK)],
        env=env,
        what=f"the library in memory ({src})",
    ).stdout.split()
    return int(out[0]), float(out[1])


# ------------------------------------------------------------------ the command


def program_seconds(path: str, out: str | None = None) -> float:
    """Seconds of ``zstd -d -c path`` writing to /dev/null, or with ``out``
    of ``zstd -d path -o out`` (the file removed after)."""
    started = time.perf_counter()
    if out is None:
        with open(os.devnull, "wb") as sink:
            subprocess.run(["zstd", "-d", "-c", "-q", path], stdout=sink, check=True)
    else:
        subprocess.run(["zstd", "-d", "-q", "-f", path, "-o", out], check=True)
    seconds = time.perf_counter() - started
    if out is not None:
        os.unlink(out)
    return seconds


def command_seconds(
    src: str, source: str, out: str, extra: list, command: str = "normalize"
) -> tuple:
    """(wall, CPU) seconds of one run of the command."""
    env = dict(os.environ, PYTHONPATH=src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "fastxfen", command, source, "-o", out, "--quiet"] + extra,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    check_cli(proc, f"fastxfen normalize {source} ({src})")
    os.remove(out)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu


def case_paths(case: str, paths: dict, folder: str) -> tuple:
    if case in ("plain", "dedupe"):
        return paths["plain"], os.path.join(folder, "out.fen")
    kind, way = case.split("-")
    if way == "in":
        return paths[kind], os.path.join(folder, "out.fen")
    return paths["head"], os.path.join(folder, f"out.fen.{kind}")


# ------------------------------------------------------------------ report


def summary(name: str, mb: float, seconds: list) -> float:
    speeds = sorted(mb / s for s in seconds)
    median = statistics.median(speeds)
    print(f"  {name:<26} {median:8,.0f} MB/s  ({speeds[0]:,.0f} to {speeds[-1]:,.0f})")
    return median


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("size", nargs="?", default="1100M", help="plain input (default 1100M)")
    parser.add_argument("--cases", default="plain", help=f"comma-separated, of {','.join(CASES)}")
    parser.add_argument(
        "--compressed-size", default="64M", help="text in the compressed cases (default 64M)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--before", help="a commit to build outside the tree, or a built src folder, to compare"
    )
    parser.add_argument("--dir", help="folder for the files (default: a new temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--threads", type=int, help="the command's --threads (default: its automatic choice)"
    )
    parser.add_argument("extra", nargs="*", help="options for fastxfen normalize (after --)")
    args = parser.parse_args(argv)
    cases = args.cases.split(",")
    options = ([] if args.threads is None else ["--threads", str(args.threads)]) + args.extra
    program = "zst-in" in cases and shutil.which("zstd")
    for case in cases:
        if case not in CASES:
            parser.error(f"unknown case {case}")

    folder = args.dir or tempfile.mkdtemp(prefix="fastxfen-cli-bench-")
    os.makedirs(folder, exist_ok=True)
    builds = {"after": os.path.abspath(SRC)}
    if args.before:
        before = args.before
        if not os.path.isdir(before):
            before = str(build_commit(before, os.path.join(folder, "before-build")))
        builds = {"before": os.path.abspath(before), **builds}
    for build, src in builds.items():
        print(f"{build}: {describe_child(dict(os.environ, PYTHONPATH=src))}")
    try:
        paths = inputs(folder, parse_size(args.size), cases, parse_size(args.compressed_size), 1)
        sizes = {kind: plain_size(path) for kind, path in paths.items()}
        print(
            f"input: {sizes['plain'] / 1e6:,.0f} MB plain"
            + "".join(
                f", {sizes[k] / 1e6:,.0f} MB in .{k} ({os.path.getsize(paths[k]) / 1e6:,.0f} MB)"
                for k in ("gz", "zst")
                if k in paths
            )
            + f"; {os.cpu_count()} CPUs; {args.rounds} rounds"
        )
        head = b""
        if "head" in paths:
            with open(paths["head"], "rb") as f:
                head = f.read()
        times: dict = {}

        def timed(key, seconds):
            times.setdefault(key, []).append(seconds)

        for r in range(args.rounds):
            order = list(builds.items())
            if r % 2:
                order.reverse()
            timed("memcpy", memcpy_seconds())
            timed("copy", copy_seconds(paths["plain"], os.path.join(folder, "copy.fen")))
            copy_out = os.path.join(folder, "copy.fen")
            timed("direct copy", copy_seconds(paths["plain"], copy_out, direct=True))
            for kind in ("gz", "zst"):
                if kind in paths:
                    timed(f"decompress {kind}", inflate_seconds(paths[kind]))
                if kind == "zst" and program:
                    timed("zstd program", program_seconds(paths[kind]))
                    to_file = os.path.join(folder, "zstd-out.fen")
                    timed("zstd program file", program_seconds(paths[kind], to_file))
                if f"{kind}-out" in cases:
                    timed(f"compress {kind}", deflate_seconds(head, kind))
            for build, src in order:
                empty = os.path.join(folder, "empty.fen")
                open(empty, "wb").close()
                timed(f"start {build}", command_seconds(src, empty, empty + ".out", [])[0])
                kernel_mb, seconds = kernel_seconds(src, paths["plain"])
                timed(f"kernel {build}", seconds)
                for case in cases:
                    source, out = case_paths(case, paths, folder)
                    command = "dedupe" if case == "dedupe" else "normalize"
                    wall, cpu = command_seconds(src, source, out, options, command)
                    timed(f"{case} {build}", wall)
                    timed(f"{case} {build} cpu", cpu)
            print(f"round {r + 1} done")

        mb = sizes["plain"] / 1e6
        print("limits (one core unless said):")
        memcpy = summary("memcpy", (256 << 20) / 1e6, times["memcpy"])
        copy = summary("copy + fsync (same disk)", mb, times["copy"])
        direct = summary("same, O_DIRECT writes", mb, times["direct copy"])
        kernel = {
            b: summary(f"kernel, 2 threads ({b})", kernel_mb / 1e6, times[f"kernel {b}"])
            for b in builds
        }
        bound = {}
        for kind in ("gz", "zst"):
            if f"decompress {kind}" in times:
                bound[f"{kind}-in"] = summary(
                    f"decompress {kind}", sizes[kind] / 1e6, times[f"decompress {kind}"]
                )
            if kind == "zst" and "zstd program" in times:  # the bound, where installed
                bound["zst-in"] = summary(
                    "zstd -d (the program)", sizes[kind] / 1e6, times["zstd program"]
                )
                bound["zst-in file"] = summary(
                    "zstd -d IN -o FILE", sizes[kind] / 1e6, times["zstd program file"]
                )
            if f"compress {kind}" in times:
                bound[f"{kind}-out"] = summary(
                    f"compress {kind} (level {6 if kind == 'gz' else 3})",
                    len(head) / 1e6,
                    times[f"compress {kind}"],
                )
        for b in builds:
            start = sorted(times[f"start {b}"])
            print(f"  process start, empty input ({b}) {statistics.median(start):.2f} s")
        threads = "automatic threads" if args.threads is None else f"--threads {args.threads}"
        print(f"fastxfen normalize (dedupe) IN -o OUT, {threads} (process start included):")
        plain: dict = {}  # the plain case's speeds, for dedupe's ratio
        for case in cases:
            source, _ = case_paths(case, paths, folder)
            text = sizes["plain"] if case in ("plain", "dedupe") else sizes[case.split("-")[0]]
            if case.endswith("-out"):
                text = sizes["head"]
            got = {b: summary(f"{case} ({b})", text / 1e6, times[f"{case} {b}"]) for b in builds}
            if case == "plain":
                plain = got
            for b in builds:
                cpu = statistics.median(times[f"{case} {b} cpu"])
                print(f"    {b}: CPU time (user + system) {cpu / (text / 1e9):.2f} s per GB")
            after = got["after"]
            ratios = [f"{after / kernel['after']:.2f} of the kernel"]
            if case == "plain":
                ratios += [
                    f"{after / copy:.2f} of copy",
                    f"{after / direct:.2f} of direct copy",
                    f"{after / memcpy:.3f} of memcpy",
                ]
            elif case == "dedupe":
                ratios += [f"{got[b] / plain[b]:.2f} of normalize's speed ({b})" for b in plain]
            else:
                what = "decompression" if case.endswith("in") else "one-core compression"
                ratios.append(f"{after / bound[case]:.2f} of {what}")
                if case.endswith("in") and "plain after" in times:
                    slower = min(bound[case], mb / statistics.median(times["plain after"]))
                    ratios.append(f"{after / slower:.2f} of the slower of that and plain")
                to_file = bound.get(f"{case} file")
                if to_file:
                    ratios.append(f"{after / to_file:.2f} of zstd -d writing its file")
            if "before" in got:
                ratios.insert(0, f"{after / got['before']:.2f}x before")
            print("    after: " + ", ".join(ratios))
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
