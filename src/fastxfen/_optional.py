"""Optional dependencies, imported when first needed, with the package extra
to install when they are missing."""

from __future__ import annotations

DASK_HINT = 'pip install "fastxfen[dask]"  (Dask with distributed, and pyarrow)'
ARROW_HINT = 'pip install "fastxfen[arrow]"  (pyarrow)'


def require_arrow(what: str):
    """Import pyarrow, or raise ImportError saying what needs it and the
    extra that installs it."""
    try:
        import pyarrow
    except ImportError as exc:
        raise ImportError(f"{what} needs pyarrow ({exc}): {ARROW_HINT}") from exc
    return pyarrow


def require_dask(module: str = "dask"):
    """Import a Dask module, or raise ImportError with the install hint."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"fastxfen.dask needs {module.split('.')[0]} ({exc}): {DASK_HINT}"
        ) from exc
