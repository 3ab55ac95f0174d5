"""Build the Cython extension around the C core in src/fastxfen/core."""

import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

READERS = [f"readers/{name}.c" for name in ("choose", "scalar", "sse2", "avx2", "avx512")]
CORE = ["tables.c", "parse.c", "tail.c", *READERS, "rules.c", "write.c", "record.c", "batch.c"]


def compile_args():
    if sys.platform == "win32":
        return ["/O2", "/std:c11"], []
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
    ext_modules=cythonize(
        [
            extension("_codec"),
            extension("_bulk", ["lines.c"]),
            extension("_export", ["export.c"]),
            extension("_pgn", ["pgnscan.c"], core=()),
            extension("_keys", ["zobrist.c", "zobrist_keys.c", "dedupe.c"]),
        ],
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
)
