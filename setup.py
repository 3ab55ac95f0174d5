"""Build the Cython extension around the C core in src/fastxfen/core."""

import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

READERS = [f"readers/{name}.c" for name in ("choose", "scalar", "sse2", "avx2", "avx512", "neon")]
EXPORT = [
    f"export/{name}.c"
    for name in ("shared", "bitboards", "planes", "packed", "lichess", "stockfish")
]
CORE = ["tables.c", "parse.c", "tail.c", *READERS, "rules.c", "write.c", "record.c", "batch.c"]


# MSVC compiles the AVX2 and AVX-512 intrinsics under any /arch, but only a
# file's /arch makes it encode that file's SSE intrinsics as AVX ones (no
# SSE/AVX transitions); GCC and Clang take per-function targets instead
# (core/readers/readers.h).  These files hold nothing but the readers and
# writers run once the CPU is known to have the instructions.
MSVC_ARCH = {"readers/avx2.c": "/arch:AVX2", "readers/avx512.c": "/arch:AVX512"}


class BuildExt(build_ext):
    """Under MSVC, the AVX2 and AVX-512 reader files are compiled apart,
    each with its /arch; the rest of the core assumes SSE2 only."""

    def build_extension(self, ext):
        if self.compiler.compiler_type == "msvc":
            for name, arch in MSVC_ARCH.items():
                source = f"src/fastxfen/core/{name}"
                if source in ext.sources:
                    ext.sources.remove(source)
                    ext.extra_objects += self.compiler.compile(
                        [source],
                        output_dir=self.build_temp,
                        macros=ext.define_macros,
                        include_dirs=ext.include_dirs,
                        extra_postargs=[*ext.extra_compile_args, arch],
                    )
        super().build_extension(ext)


# the move generator and the engine training formats (.binpack, .bin, .plain)
TRAINING = [
    "attacks.c",
    "movegen.c",
    "notation.c",
    "status.c",
    "sfpack.c",
    "ply_bmi2.c",
    "emit.c",
    "entries.c",
    "binpack.c",
    "binpack_write.c",
    "sfbin.c",
    "plain.c",
]


def compile_args():
    if sys.platform == "win32":  # /W3: MSVC's usual warnings; C11 for _Static_assert
        return ["/O2", "/std:c11", "/W3"], []
    # hidden: the core's functions are private to each module, so calls between
    # them are direct (no PLT) and can be inlined
    args = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function", "-fvisibility=hidden"]
    # no debug info (Python's own CFLAGS ask for -g): it was four fifths of
    # the installed size; on Linux the linker also drops the symbol table
    args.append("-g0")
    link = ["-s"] if sys.platform.startswith("linux") else []
    sanitize = os.environ.get("FASTXFEN_SANITIZE")
    if sanitize:  # e.g. FASTXFEN_SANITIZE=address,undefined
        flag = f"-fsanitize={sanitize}"
        args = ["-O1", "-g", "-fno-omit-frame-pointer", flag]
        link = [flag]
    return args, link


cflags, ldflags = compile_args()
macros = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
if os.environ.get("FASTXFEN_NO_SIMD"):  # the scalar code paths on every CPU
    macros.append(("FASTXFEN_NO_SIMD", "1"))


def extension(name, extra=(), core=CORE):
    """One extension module: its Cython glue plus the C core (`core`; the
    PGN scanner needs none of it) and the core files only it uses (`extra`)."""
    return Extension(
        f"fastxfen.{name}",
        sources=[f"src/fastxfen/{name}.pyx"] + [f"src/fastxfen/core/{c}" for c in [*core, *extra]],
        include_dirs=["src/fastxfen/core", numpy.get_include()],
        define_macros=macros,
        extra_compile_args=cflags,
        extra_link_args=ldflags,
    )


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        [
            extension("_codec"),
            extension("_jobs", ["lines.c"]),
            extension("_bulk", ["lines.c", "cells.c"], core=()),
            extension("_export", EXPORT),
            extension("_pgn", ["pgnscan.c"], core=()),
            extension("_keys", ["zobrist.c", "zobrist_keys.c", "dedupe.c"]),
            extension("_training", TRAINING),
        ],
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
