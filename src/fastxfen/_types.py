"""The types of the public signatures.

Every option is a ``Literal`` of its allowed values, so that a type checker
refuses a wrong one (``castling="shreder"``) before the call is made.
pyarrow and pandas ship no type information: their arrays and Series are
``Any`` to a type checker, and a call on them gives ``Any``.  polars Series
are typed; they match the Arrow stream protocol below and give a Series back.

The module is imported at run time too (``help()`` shows these aliases
expanded), so it uses only what Python 3.9 can evaluate.
"""

from typing import Any, Iterator, Literal, Protocol, Sequence, TypeVar, Union

import numpy as np
import numpy.typing as npt

__all__ = [
    "ArrowArrayT",
    "ArrowStreamT",
    "Buffer",
    "Castling",
    "EnPassant",
    "Errors",
    "Extra",
    "Fields",
    "Output",
    "PackFormat",
    "Perspective",
    "PlaneDType",
    "Positions",
    "RecordErrors",
    "RecordFields",
    "Records",
    "Rows",
    "SeriesT",
    "Texts",
    "Width",
]

Castling = Literal["xfen", "shredder"]
EnPassant = Literal["fen", "xfen", "legal"]
Errors = Literal["raise", "coerce", "ignore"]
#: ``errors`` where the result is records or binary rows (no text to pass on).
RecordErrors = Literal["raise", "coerce"]
Output = Literal["list", "bytes", "arrow"]
Fields = Literal[4, 6, "same"]
RecordFields = Literal[4, 6]
Width = Literal[8, 10]
PackFormat = Literal["lichess", "stockfish"]
Perspective = Literal["white", "side_to_move"]
Extra = Literal["turn", "castling", "castling_rooks", "en_passant", "halfmove", "halfmove_scaled"]
#: The element type of plane tensors: a numpy bool, integer or float type,
#: its name, or a dtype (checked at run time: 1 to 8 bytes, native order).
PlaneDType = Union[
    type[int],
    type[float],
    type[np.bool_],
    type[np.integer[Any]],
    type[np.floating[Any]],
    np.dtype[Any],
    Literal[
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
    ],
]

Buffer = Union[bytes, bytearray, memoryview]
#: The classes of a Buffer, for isinstance.
BUFFERS = (bytes, bytearray, memoryview)
#: Rows read one by one: a list, tuple or other sequence, or an iterator.
Rows = Union[Sequence[str], Iterator[str]]
Records = Union[npt.NDArray[np.void], np.void]


class _ArrowStream(Protocol):
    """An Arrow chunked column (pyarrow ChunkedArray, polars or pandas Series)."""

    def __arrow_c_stream__(self, requested_schema: Any = ...) -> Any: ...


class _ArrowArray(Protocol):
    """One Arrow array (pyarrow Array)."""

    def __arrow_c_array__(self, requested_schema: Any = ...) -> Any: ...


class _Series(Protocol):
    """A pandas or polars Series: a named Arrow-exportable column."""

    @property
    def name(self) -> Any: ...
    @property
    def dtype(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Any = ...) -> Any: ...


ArrowStreamT = TypeVar("ArrowStreamT", bound=_ArrowStream)
ArrowArrayT = TypeVar("ArrowArrayT", bound=_ArrowArray)
SeriesT = TypeVar("SeriesT", bound=_Series)

#: Every kind of text input.
Texts = Union[str, Buffer, npt.NDArray[Any], Rows, _ArrowStream, _ArrowArray]
#: What the export and key functions read: records, or text as ``encode``
#: reads it.
Positions = Union[Records, Texts]
