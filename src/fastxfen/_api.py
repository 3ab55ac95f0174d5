"""The public functions normalize, encode, decode and validate: their
options built into values, the kind of input found, and both handed to the
way that kind goes through the kernels (``_paths``).  No per-row work
happens here."""

from typing import Any, Literal, Optional, overload

import numpy as np
import numpy.typing as npt

from fastxfen import _bulk, _codec, _legality, _options, _paths
from fastxfen._columns import arrow_messages, arrow_text, numpy_out
from fastxfen._inputs import (
    ARROW,
    BUFFER,
    FIXED,
    STR,
    Kind,
    as_text,
    kind_of,
    read_as_text,
    shares_memory,
)
from fastxfen._types import (
    ArrowArrayT,
    ArrowStreamT,
    Buffer,
    Castling,
    EnPassant,
    Errors,
    Fields,
    Output,
    RecordErrors,
    RecordFields,
    Records,
    Rows,
    SeriesT,
    Texts,
    Width,
)

__all__ = ["decode", "encode", "normalize", "validate"]


# A str is also a Sequence[str]: the first matching overload wins.
@overload
def normalize(  # type: ignore[overload-overlap]
    fens: str,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
) -> str: ...
@overload
def normalize(
    fens: Buffer,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
    out: bytearray,
) -> bytearray: ...
@overload
def normalize(
    fens: Buffer,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
    out: None = ...,
) -> bytes: ...
@overload
def normalize(
    fens: npt.NDArray[Any],
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
    out: Optional[npt.NDArray[Any]] = ...,
) -> npt.NDArray[Any]: ...
@overload
def normalize(
    fens: ArrowStreamT,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
) -> ArrowStreamT: ...
@overload
def normalize(
    fens: ArrowArrayT,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
) -> ArrowArrayT: ...
@overload
def normalize(
    fens: Rows,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
    fields: Fields = ...,
) -> list[Optional[str]]: ...
def normalize(
    fens: Texts,
    *,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    errors: Errors = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
    fields: Fields = 6,
    out: Any = None,
) -> Any:
    """Canonical text of chess positions (FEN, X-FEN, Shredder-FEN).

    Each row is read, checked and written back in one canonical form: the
    placement with runs of empty squares merged, castling rights repaired
    (a right whose king or rook is not on its square is dropped) and written
    in the chosen style, the en-passant target kept or dropped as chosen, and
    the counters as ``fields`` says.  For 8x8 positions the text is what
    python-chess writes (``chess.Board(fen, chess960=True)``); the complete
    rules are in docs/semantics.md of the source distribution.

    Parameters
    ----------
    fens : str, iterable of str, bytes-like, numpy array or Arrow column
        One ``str``; a list, tuple or other iterable of ``str``; a
        ``bytes``, ``bytearray`` or ``memoryview`` holding one row per line
        (``\\n`` or ``\\r\\n``); a numpy array of ``str`` (``U``), ``bytes``
        (``S``) or objects; a pyarrow ``string``, ``large_string`` or
        ``string_view`` array or chunked array; a pandas or polars Series.
    castling : {"xfen", "shredder"}, default "xfen"
        "xfen" writes ``KQkq``, naming a rook by its file letter only when it
        is not the outermost one; "shredder" always writes rook files
        (``HAha``).
    en_passant : {"xfen", "fen", "legal"}, default "xfen"
        Which en-passant targets are kept: "fen" every target behind a pawn
        that just made a double step (as FEN writes it), "xfen" only those an
        enemy pawn stands next to, "legal" only those a legal capture uses.
    errors : {"raise", "coerce", "ignore"}, default "raise"
        A bad row raises ``FenError`` ("raise"), becomes ``None`` ("coerce";
        an empty string in ``S``/``U`` arrays, an empty line in buffers, null
        in Arrow) or passes through unchanged ("ignore").
    threads : int or None, default None
        None splits batches of 131,072 rows or more over the CPUs (a list is
        read row by row); an int of at least 1 sets the number of threads,
        capped to the CPUs.  The result does not depend on it.
    epd : bool, default False
        Rows are EPD: the four position fields, then operations
        (``bm Nf3; id "x";``) written back as they came.
    fields : {6, 4, "same"}, default 6
        6 writes both counters, 4 none (placement, side, castling, en
        passant: a position key), "same" as many fields as each row had
        (4, 5 or 6).  EPD rows never get counters.
    out : bytearray or numpy array, optional
        Where to write the result, for callers that loop: memory already in use
        is not faulted in again.  For a buffer, a ``bytearray``, resized to the
        text (its memory is kept for the next call); for a numpy ``S`` or ``U``
        array, a writeable C-contiguous array of the same shape and kind, any width
        (rows are zero padded; a row longer than the width is a ``ValueError``).
        Other inputs take no ``out``.

    Returns
    -------
    str, list, bytes, numpy array, Arrow column or Series
        The same kind of value as ``fens``: a ``str`` for a ``str``, a ``list`` of
        ``str`` (``None`` for a coerced row) for an iterable, ``bytes`` in the same
        line layout for a buffer, an array of the same kind and shape, an Arrow
        column of the same type (nulls kept), a Series of the same kind (pandas
        keeps the index); ``out`` when given.

    Raises
    ------
    FenError
        A row is not a valid position (``errors="raise"``): the error names
        the row, the 0-based column, the field and the reason.
    ValueError
        An option is not one of its allowed values, or ``out`` is not one
        the input takes.
    TypeError
        An Arrow column is not of a string type, or a polars Series not of
        a text type (String, Categorical, Enum, Null).

    Notes
    -----
    ``None`` (and an Arrow null, a pandas missing value, a polars null) is a
    missing value, not a bad row: it stays missing under every ``errors``
    mode (``None``, null; an empty string in ``S``/``U`` arrays, an empty
    line in buffers).  Any other row that is not text (an ``int`` or
    ``bytes`` item in a list) is a bad row, field ``input``.

    Examples
    --------
    >>> import fastxfen as fx
    >>> fx.normalize("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ...              en_passant="legal")
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    >>> fx.normalize(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "bad"],
    ...              castling="shredder", errors="coerce")
    ['4k3/8/8/8/8/8/8/R3K2R w HA - 0 1', None]
    >>> fx.normalize(b"8/8/8/8/8/8/8/8 w - -\\n")
    b'8/8/8/8/8/8/8/8 w - - 0 1\\n'
    """
    text = _options.text_options(castling, en_passant, fields, epd)
    mode = _options.errors(errors)
    asked = _options.threads_of(threads)
    kind = _check_text_out(fens, kind_of(fens), out)
    if kind is STR:  # one row, straight to the glue
        return _codec.normalize_rows([fens], text=text, errors=mode)[0]
    return _paths.normalize(fens, as_text(kind, fens, text.epd), text, mode, asked, out)


def _check_text_out(fens: Any, kind: Kind, out: Any) -> Kind:
    """``kind``, once normalize's ``out`` (if given) is known to fit ``fens``:
    a bytearray none holds a view of (it is resized) for a buffer, numpy_out's
    array for an S or U array."""
    if out is None:
        return kind
    if shares_memory(fens, out):
        raise ValueError("out must not share memory with the input")
    if kind is BUFFER:
        if type(out) is not bytearray:
            raise ValueError(f"out must be a bytearray for a buffer, not {type(out).__name__}")
        try:
            out.extend(b"")
            out.append(0)
            out.pop()
        except BufferError:
            raise ValueError(
                "out is exported (a memoryview or array of it is alive): it cannot be resized"
            ) from None
    elif kind is FIXED:
        numpy_out(fens, out)
    else:
        raise ValueError(
            "out is taken for a buffer (a bytearray) or a numpy S or U array "
            f"(an array like it), not for {type(fens).__name__}"
        )
    return kind


def encode(
    fens: Texts,
    *,
    width: Width = 8,
    errors: RecordErrors = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
    out: Optional[npt.NDArray[np.void]] = None,
) -> npt.NDArray[np.void]:
    """Fixed-size numpy records of chess positions.

    Each record holds the board (one byte per square, a1 first; the codes
    are ``PIECE_CODES``), the width, side to move, castling prefix, the
    en-passant square, the castling rook files and both counters.  The
    layout is described in docs/records.md of the source distribution and
    by ``POSITION_DTYPE`` itself.

    Parameters
    ----------
    fens : str, iterable of str, bytes-like, numpy array or Arrow column
        Text rows, as for ``normalize``.
    width : {8, 10}, default 8
        8 gives ``POSITION_DTYPE`` (64 squares) and refuses 10-wide rows;
        10 gives ``POSITION_DTYPE_10x8`` (80 squares), which holds both.
    errors : {"raise", "coerce"}, default "raise"
        A bad row raises ``FenError`` or becomes the null record (all
        zero, width 0).
    threads : int or None, default None
        As for ``normalize``.
    epd : bool, default False
        Rows are EPD; ``hmvc`` and ``fmvn`` operations give the counters.
    out : numpy.ndarray, optional
        Where to write the records, for callers that loop: a writeable
        C-contiguous 1-d array of the width's dtype with one record per
        row (buffers, numpy and Arrow inputs are written in place).

    Returns
    -------
    numpy.ndarray
        A 1-d array of records, one per row in order (of length 1 for one
        ``str``); ``out`` when given.  Every kind of input gives numpy
        records: they have no Arrow or Series type (``Expr.fen.encode`` of
        ``fastxfen.polars`` and ``fen_encode`` in SQL give each record's
        bytes).

    Raises
    ------
    FenError
        A row is not a valid position (``errors="raise"``); a row that is not
        text is one (field ``input``), while ``None`` or an Arrow null is a
        missing value and gives the null record.
    ValueError
        An option is not one of its allowed values, or ``out`` is not an
        array of the records asked for.
    TypeError
        An Arrow column or a polars Series is not of a text type.

    Examples
    --------
    >>> import fastxfen as fx
    >>> records = fx.encode(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"])
    >>> records.shape, records["board"].shape, int(records["turn"][0])
    ((1,), (1, 64), 0)
    >>> fx.decode(records, castling="shredder")
    ['4k3/8/8/8/8/8/8/R3K2R w HA - 0 1']
    """
    records = _options.record_options(width, epd)
    mode = _options.record_errors(errors)
    asked = _options.threads_of(threads)
    kind = read_as_text(fens, records.epd)
    return _paths.encode(fens, kind, records, mode, asked, out)


@overload
def decode(
    records: np.void,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: RecordErrors = ...,
    output: Literal["list"] = ...,
    threads: Optional[int] = ...,
    fields: RecordFields = ...,
) -> Optional[str]: ...
@overload
def decode(
    records: npt.NDArray[np.void],
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: RecordErrors = ...,
    output: Literal["list"] = ...,
    threads: Optional[int] = ...,
    fields: RecordFields = ...,
) -> list[Optional[str]]: ...
@overload
def decode(
    records: Records,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: RecordErrors = ...,
    output: Literal["bytes"],
    threads: Optional[int] = ...,
    fields: RecordFields = ...,
) -> bytes: ...
@overload
def decode(
    records: Records,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: RecordErrors = ...,
    output: Literal["arrow"],
    threads: Optional[int] = ...,
    fields: RecordFields = ...,
) -> Any: ...
def decode(
    records: Records,
    *,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    errors: RecordErrors = "raise",
    output: Output = "list",
    threads: Optional[int] = None,
    fields: RecordFields = 6,
) -> Any:
    """Text of position records, the inverse of ``encode``.

    Parameters
    ----------
    records : numpy array or numpy.void
        Records of ``POSITION_DTYPE`` or ``POSITION_DTYPE_10x8``, any shape
        (read in C order), or one record.
    castling : {"xfen", "shredder"}, default "xfen"
        How castling rights are written, as for ``normalize``.
    en_passant : {"xfen", "fen", "legal"}, default "xfen"
        Which en-passant targets are written, as for ``normalize``.
    errors : {"raise", "coerce"}, default "raise"
        A record that is not a valid position (a corrupted one) raises
        ``FenError`` or gives ``None`` / an empty line / null.  The null
        record (width 0: a missing value, or a row ``encode`` coerced) gives
        ``None`` / an empty line / null under either mode (docs/failures.md
        in the source distribution, "Missing values").
    output : {"list", "bytes", "arrow"}, default "list"
        "list": a ``list`` of ``str`` (one ``str`` for a single record).
        "bytes": one newline-terminated line per record.  "arrow": a pyarrow
        ``string`` array (``large_string`` past 2 GiB of text; needs
        ``pip install "fastxfen[arrow]"``).  "bytes" and "arrow" are written
        with the GIL released, over ``threads``.
    threads : int or None, default None
        As for ``normalize``.
    fields : {6, 4}, default 6
        6 writes both counters, 4 none.  Records keep no count of the
        fields their text had, so "same" is an error.

    Returns
    -------
    list of str, str, bytes or pyarrow.Array
        As ``output`` says.

    Raises
    ------
    FenError
        A record is not a valid position (``errors="raise"``).
    ValueError
        An option is not one of its allowed values, or ``records`` has
        another dtype.

    Examples
    --------
    >>> import fastxfen as fx
    >>> records = fx.encode(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"])
    >>> fx.decode(records)
    ['4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1']
    >>> fx.decode(records, output="bytes", fields=4)
    b'4k3/8/8/8/8/8/8/R3K2R w KQ -\\n'
    """
    text = _options.record_text_options(castling, en_passant, fields)
    mode = _options.record_errors(errors)
    _options.output(output)
    kernel_threads = _options.threads_of(threads).kernel
    if output == "list":
        return _codec.decode_records(records, text=text, errors=mode)
    flat = np.ascontiguousarray(np.asarray(records).reshape(-1))
    batch = _bulk.records(flat)
    if output == "bytes":
        return batch.decode(
            text, mode, threads=kernel_threads, terminators=True, ends=False, missing=True
        )[0]
    wide = batch.output_bound() > np.iinfo(np.int32).max
    offsets = np.int64 if wide else np.int32
    result = batch.decode(
        text,
        mode,
        threads=kernel_threads,
        terminators=False,
        ends=True,
        offsets=offsets,
        missing=True,
    )
    return arrow_text(result, mode, _null_records(flat))


def _null_records(flat: np.ndarray) -> Optional[np.ndarray]:
    """Where the records are the null record (every byte 0), or None."""
    rows = np.flatnonzero(flat["width"] == 0)
    if len(rows):
        rows = rows[~flat[rows].view(np.uint8).reshape(len(rows), -1).any(axis=1)]
    if not len(rows):
        return None
    missing = np.zeros(len(flat), bool)
    missing[rows] = True
    return missing


@overload
def validate(  # type: ignore[overload-overlap]
    fens: str, *, threads: Optional[int] = ..., epd: bool = ..., legal: bool = ...
) -> Optional[str]: ...
@overload
def validate(  # type: ignore[overload-overlap]
    fens: SeriesT, *, threads: Optional[int] = ..., epd: bool = ..., legal: bool = ...
) -> SeriesT: ...
@overload
def validate(  # type: ignore[overload-overlap]
    fens: ArrowStreamT, *, threads: Optional[int] = ..., epd: bool = ...
) -> ArrowStreamT: ...
@overload
def validate(  # type: ignore[overload-overlap]
    fens: ArrowArrayT, *, threads: Optional[int] = ..., epd: bool = ...
) -> ArrowArrayT: ...
@overload
def validate(
    fens: Texts, *, threads: Optional[int] = ..., epd: bool = ..., legal: bool = ...
) -> list[Optional[str]]: ...
def validate(
    fens: Texts, *, threads: Optional[int] = None, epd: bool = False, legal: bool = False
) -> Any:
    """Why each row is not a valid position, or ``None`` where it is.

    The rows are read exactly as ``normalize`` reads them (the same rules,
    the same messages), but nothing is written.  With ``legal=True`` each
    position read is also checked as python-chess's ``Board(fen,
    chess960=True).status()`` checks it.

    Parameters
    ----------
    fens : str, iterable of str, bytes-like, numpy array or Arrow column
        Text rows, as for ``normalize``.
    threads : int or None, default None
        As for ``normalize``.
    epd : bool, default False
        Rows are EPD.
    legal : bool, default False
        Also give a message for each position that cannot occur in a game:
        ``"illegal position: "`` and what ``status()`` finds, in words (no
        white king, too many kings, pawns on backrank, opposite check,
        impossible check, bad castling rights, invalid ep square, ...),
        at the column of the castling or en-passant field for those, else
        of the placement.  8x8 positions only: a 10-wide row gets a
        message.  ``normalize`` never checks this.

    Returns
    -------
    str, None, list, Arrow column or Series
        Per row, ``None`` (null, missing) or ``"column C (field): reason"``
        (C is the 0-based offset in the row where reading stopped); a
        missing row is valid.  For one ``str``: ``None`` or the reason.  For
        an Arrow column: an Arrow column of the same type and chunks.  For a
        pandas or polars Series: a Series of the same kind.  Otherwise a
        ``list``, in C order for a numpy array (an ``S`` or ``U`` array
        cannot hold ``None``) and one per line for a buffer.

    Raises
    ------
    ValueError
        ``threads`` is not ``None`` or a positive int.
    TypeError
        An Arrow column or a polars Series is not of a text type.

    Examples
    --------
    >>> import fastxfen as fx
    >>> fx.validate(["8/8/8/8/8/8/8/8 w - - 0 1", "8/8/9/8/8/8/8/8 w - -"])
    [None, 'column 4 (placement): rank 6 covers 9 squares, expected 8']
    >>> print(fx.validate("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
    None
    >>> fx.validate(["4k3/8/8/8/8/8/8/4K3 w K - 0 1"], legal=True)
    ['column 22 (castling): illegal position: bad castling rights']
    """
    asked = _options.threads_of(threads)
    checked = _options.legal(legal)
    kind = read_as_text(fens, epd)
    if kind is STR:  # one row, straight to the glue
        messages = _codec.validate_rows([fens], epd=epd)
        return (_legality.with_illegal(fens, STR, messages, epd) if checked else messages)[0]
    messages = _paths.validate(fens, kind, epd, asked, checked)
    return arrow_messages(fens, messages) if kind is ARROW else messages
