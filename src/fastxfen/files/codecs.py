"""Compression by file name: .gz, .bz2, .xz and .zst (with the zstandard
package), the streams that read and write each, and what they raise on bad
data or a failing device.  A new codec goes here: an extension in
``EXTENSIONS``, a branch in ``reader`` and ``writer``."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import sys
import zlib

from fastxfen.files.errors import RunError
from fastxfen.files.gzip_members import GzipMembers
from fastxfen.files.zstd_frames import BadFrame, ZstdFrames

#: The codec each compression extension names.
EXTENSIONS = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}
#: The levels a compressed output takes: (lowest, highest, default).
LEVELS = {"gzip": (0, 9, 6), "bzip2": (1, 9, 9), "xz": (0, 9, 6), "zstd": (0, 22, 3)}


def is_stdio(path: str | None) -> bool:
    """Whether ``path`` stands for stdin or stdout (``-`` or None)."""
    return path is None or path == "-"


def compression(path: str | None) -> str | None:
    """The codec a file name's extension names, or None (stdin and stdout
    are never compressed)."""
    if is_stdio(path):
        return None
    return EXTENSIONS.get(os.path.splitext(path)[1].lower())


def zstandard():
    """The zstandard package, or a RunError saying how to install it."""
    try:
        import zstandard
    except ImportError:
        raise RunError(
            ".zst files need the zstandard package, a dependency of fastxfen missing here "
            "(pip install zstandard)"
        ) from None
    return zstandard


#: What Python's gzip says of a member cut after its first byte (any other
#: cut of a member header is an EOFError).
GZIP_HALF_MAGIC = "Not a gzipped file (b'\\x1f')"


def stream_errors() -> tuple:
    """What reading or writing a (compressed) stream raises on bad data or a
    failing device."""
    errors = [OSError, EOFError, lzma.LZMAError, zlib.error, BadFrame]
    module = sys.modules.get("zstandard")
    if module is not None:
        errors.append(module.ZstdError)
    return tuple(errors)


def reader(kind: str, raw, stack):
    """(the decompressed stream of ``raw``, the ZstdFrames it is read
    through, if any) for codec ``kind``; ``stack`` closes the stream."""
    if kind == "gzip":
        return stack.enter_context(gzip.GzipFile(fileobj=raw, mode="rb")), None
    if kind == "bzip2":
        return stack.enter_context(bz2.BZ2File(raw, "rb")), None
    if kind == "xz":
        return stack.enter_context(lzma.LZMAFile(raw, "rb")), None
    zstd = zstandard()
    frames = ZstdFrames(raw)
    stream = zstd.ZstdDecompressor().stream_reader(frames, read_across_frames=True, closefd=False)
    return stack.enter_context(stream), frames


def writer(kind: str, raw, level: int | None, threads: int):
    """The compressing stream onto ``raw`` for codec ``kind``: a .gz or .zst
    output is compressed by ``threads`` threads."""
    if level is None:
        level = LEVELS[kind][2]
    if kind == "gzip":
        return GzipMembers(raw, level, threads)
    if kind == "bzip2":
        return bz2.BZ2File(raw, "wb", compresslevel=level)
    if kind == "xz":
        return lzma.LZMAFile(raw, "wb", preset=level)
    return (
        zstandard()
        .ZstdCompressor(
            level=level,
            write_checksum=True,
            threads=threads if threads > 1 else 0,  # 1 would be one worker
        )
        .stream_writer(raw, closefd=False)
    )


def check_level(level: int | None, kind: str | None) -> None:
    """A RunError unless ``level`` is None or fits the output's codec."""
    if level is None:
        return
    if kind is None:
        raise RunError("--level applies to a compressed OUT (.gz, .bz2, .xz, .zst)")
    low, high, _ = LEVELS[kind]
    if not low <= level <= high:
        raise RunError(f"--level for {kind} is between {low} and {high}, not {level}")
