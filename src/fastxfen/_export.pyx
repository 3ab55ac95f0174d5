# cython: language_level=3
"""Glue between fastxfen.export and the export kernels (core/export.c).

Every function here takes arrays that export.py has already checked and
shaped, runs one C batch kernel over all rows with the GIL released and, when
a row fails with errors="raise", builds the FenError for it.  Nothing here
loops over rows in Python.
"""
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

cimport numpy as cnp

from fastxfen._codec cimport COERCE, RAISE, _error
from fastxfen._core cimport (FX_STOP_DONE, fx_batch_opts, fx_batch_out, fx_error,
                             fx_failure, fx_null_record, fx_pos, fx_rec8)

import numpy as np

from fastxfen._errors import fen_error
from fastxfen._options import EXTRA_PLANES, EXTRAS, plane_count
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8

cnp.import_array()


cdef extern from "export.h" nogil:
    enum:
        FX_X_E_WIDTH, FX_X_E_OVERLAP, FX_X_E_VALUE, FX_X_E_NOT_CONSTANT,
        FX_X_E_COUNTER, FX_X_E_ROOK_MARK, FX_X_E_EP_MARKS, FX_X_E_PREFIX,
        FX_X_E_TOO_MANY, FX_X_E_NO_BLACK_KING, FX_X_E_CASTLING_ROOK, FX_X_E_NIBBLE,
        FX_X_E_VARINT, FX_X_E_RANGE, FX_X_E_VARIANT, FX_X_E_TRAILING, FX_X_E_LENGTH
        FX_X_F_BITBOARDS, FX_X_F_PLANES, FX_X_F_LICHESS, FX_X_F_STOCKFISH
        FX_X_BOOL, FX_X_UINT, FX_X_INT, FX_X_FLOAT
        FX_X_TURN, FX_X_CASTLING, FX_X_CASTLING_ROOKS, FX_X_EN_PASSANT,
        FX_X_HALFMOVE, FX_X_HALFMOVE_SCALED, FX_X_EXTRA_KINDS
        FX_X_MAX_EXTRA
        FX_X_LICHESS_MAX
        FX_X_LICHESS_READ_MAX
        FX_X_STOCKFISH_SIZE
        FX_X_FRAME_NULL

    ctypedef struct fx_x_planes:
        uint8_t width, flip, kind, size, ep_mode, n_extra
        uint8_t extra[6]

    ctypedef struct fx_x_records:
        const uint8_t *base
        size_t stride
        int wide
        int trusted

    ctypedef struct fx_x_defaults:
        const uint8_t *turn
        size_t turn_step
        const uint8_t *files
        size_t files_step
        const uint8_t *flags
        size_t n_flags
        const uint8_t *ep
        size_t ep_step
        const uint32_t *halfmove
        size_t halfmove_step
        const uint32_t *fullmove
        size_t fullmove_step

    void fx_x_init()
    size_t fx_x_plane_count(const fx_x_planes *spec)
    size_t fx_x_planes_bytes(const fx_x_planes *spec)
    size_t fx_x_bitboards_batch(const fx_x_records *recs, size_t n, uint64_t *out,
                                const fx_batch_opts *opts, fx_batch_out *res)
    size_t fx_x_planes_batch(const fx_x_records *recs, size_t n, const fx_x_planes *spec,
                             uint8_t *out, const fx_batch_opts *opts, fx_batch_out *res)
    size_t fx_x_stockfish_pack_batch(const fx_x_records *recs, size_t n, uint8_t *out,
                                     const fx_batch_opts *opts, fx_batch_out *res)
    size_t fx_x_lichess_pack_batch(const fx_x_records *recs, size_t n, uint8_t *data,
                                   int64_t *ends, uint8_t *valid, const fx_batch_opts *opts,
                                   fx_batch_out *res)
    size_t fx_x_from_bitboards_batch(const uint64_t *bb, size_t n, const fx_x_defaults *d,
                                     uint8_t *records, const fx_batch_opts *opts,
                                     fx_batch_out *res)
    size_t fx_x_from_planes_batch(const uint8_t *planes, size_t n, const fx_x_planes *spec,
                                  const fx_x_defaults *d, uint8_t *records,
                                  const fx_batch_opts *opts, fx_batch_out *res)
    size_t fx_x_lichess_unpack_batch(const uint8_t *data, const int64_t *starts,
                                     const int64_t *ends, const uint8_t *nulls, size_t n,
                                     uint8_t *records, const fx_batch_opts *opts,
                                     fx_batch_out *res)
    size_t fx_x_stockfish_unpack_batch(const uint8_t *data, size_t n,
                                       const fx_x_defaults *d, uint8_t *records,
                                       const fx_batch_opts *opts, fx_batch_out *res)
    int64_t fx_x_frames(const uint8_t *data, size_t len, size_t max_n, int64_t *starts,
                        int64_t *ends, uint8_t *nulls, size_t *used)


assert POSITION_DTYPE.itemsize == sizeof(fx_rec8)
assert POSITION_DTYPE_10x8.itemsize == sizeof(fx_pos)
fx_x_init()     # the packed formats' tables, before any kernel runs

# The extra planes of fastxfen._options, in the order of their kernel codes.
assert [EXTRAS.index(name) for name in EXTRAS] == [
    FX_X_TURN, FX_X_CASTLING, FX_X_CASTLING_ROOKS, FX_X_EN_PASSANT, FX_X_HALFMOVE,
    FX_X_HALFMOVE_SCALED]
#: Most extras one tensor can have (each at most once).
MAX_EXTRA = FX_X_MAX_EXTRA
#: Longest lichess element this module writes, and reads.
LICHESS_MAX = FX_X_LICHESS_MAX
LICHESS_READ_MAX = FX_X_LICHESS_READ_MAX
#: Bytes of one Stockfish compressed position.
STOCKFISH_SIZE = FX_X_STOCKFISH_SIZE
#: The length byte of a null value in a framed lichess stream.
FRAME_NULL = FX_X_FRAME_NULL

#: Rows per lichess packing step (bounds the scratch buffer).
cdef Py_ssize_t LICHESS_CHUNK = 1 << 18

cdef str _LETTERS = "PNBRQKpnbrqkACac"
cdef dict _KINDS = {"b": FX_X_BOOL, "u": FX_X_UINT, "i": FX_X_INT, "f": FX_X_FLOAT}

# ---------------------------------------------------------------- messages


cdef str _square(Py_ssize_t index, int width=8):
    return "abcdefghij"[index % width] + str(index // width + 1)


cdef str _coords(Py_ssize_t column, int width):
    """`[rank r, file f]` (tensor indices) of a flat element index in one tensor."""
    cdef Py_ssize_t rest = column % (8 * width)
    return f"[rank {rest // width}, file {rest % width}]"


cdef str _element(Py_ssize_t column, int width):
    """`plane p [rank r, file f]` of a flat element index inside one tensor."""
    return f"plane {column // (8 * width)} {_coords(column, width)}"


cdef object _row_error(Py_ssize_t index, fx_error err, int width, object tensor, str fmt,
                  str hint):
    """The FenError of a failed row (tensor: that row's planes, or None)."""
    cdef uint32_t code = err.code, a = err.a, b = err.b
    cdef str field
    if err.field < FX_X_F_BITBOARDS and code < FX_X_E_WIDTH:
        return _error(index, err, None)
    field = {FX_X_F_BITBOARDS: "bitboards", FX_X_F_PLANES: "planes",
             FX_X_F_LICHESS: "lichess", FX_X_F_STOCKFISH: "stockfish"}.get(
                 err.field, None)
    if field is None:
        field = ("record.width", "record.turn", "record.prefix", "record.castling",
                 "record.board")[
            (FX_X_E_WIDTH, FX_X_E_NO_BLACK_KING, FX_X_E_PREFIX, FX_X_E_CASTLING_ROOK,
             FX_X_E_TOO_MANY).index(code)]
    if code == FX_X_E_WIDTH:
        reason = f"a {a}-wide position, expected {b}-wide{hint}"
    elif code == FX_X_E_OVERLAP and field == "bitboards":
        reason = (f"bitboards {a} ({_LETTERS[a]}) and {b} ({_LETTERS[b]}) both set "
                  f"square {_square(err.column)}")
    elif code == FX_X_E_OVERLAP:
        reason = f"planes {a} and {b} both set {_coords(err.column, width)}"
    elif code == FX_X_E_VALUE:
        value = tensor.reshape(-1)[err.column].item() if tensor is not None else "?"
        reason = f"{_element(err.column, width)} holds {value!r}, expected 0 or 1"
    elif code == FX_X_E_NOT_CONSTANT:
        reason = (f"plane {a} must hold one value throughout; "
                  f"{_element(err.column, width)} differs")
    elif code == FX_X_E_COUNTER:
        value = tensor.reshape(-1)[err.column].item() if tensor is not None else "?"
        reason = f"plane {a} holds {value!r}, which is no halfmove clock"
    elif code == FX_X_E_ROOK_MARK:
        reason = (f"{_element(err.column, width)} marks a castling rook off the back "
                  "ranks (rank index 0 or 7)")
    elif code == FX_X_E_EP_MARKS and field == "planes":
        reason = f"plane {a} marks a second en-passant square at {_element(err.column, width)}"
    elif code == FX_X_E_EP_MARKS:
        reason = f"a second en-passant pawn (nibble 12), on {_square(a)}"
    elif code == FX_X_E_PREFIX:
        reason = (f"castling prefix {'sm'[a - 1]!r} cannot be stored in the {fmt} "
                  "format")
    elif code == FX_X_E_TOO_MANY and field == "stockfish":
        reason = f"{a} occupied squares; the format holds at most {b} pieces"
    elif code == FX_X_E_TOO_MANY:
        reason = f"{a} pieces; the {fmt} format holds at most {b}"
    elif code == FX_X_E_NO_BLACK_KING:
        reason = (f"black to move without a black king: the {fmt} format keeps the "
                  "side to move on the black king")
    elif code == FX_X_E_CASTLING_ROOK:
        reason = (f"castling right of the rook on file {chr(97 + a)}: the {fmt} format "
                  "stores only rights of corner rooks (a1, h1, a8, h8)")
    elif code == FX_X_E_NIBBLE:
        where = ("an en-passant pawn stands on rank 4 or 5" if a == 12
                 else "a castling rook stands in a corner" if field == "stockfish"
                 else "a castling rook stands on its back rank")
        reason = f"nibble {a} on {_square(b)} ({where})"
    elif code == FX_X_E_VARINT:
        reason = "counter longer than 5 bytes"
    elif code == FX_X_E_RANGE:
        reason = f"{'halfmove clock' if a == 0 else 'fullmove number'} exceeds 4294967295"
    elif code == FX_X_E_VARIANT:
        reason = f"variant byte {a} is not standard chess (0, 2 or 3)"
    elif code == FX_X_E_TRAILING:
        reason = f"unexpected byte 0x{a:02X} after the last field"
    elif code == FX_X_E_LENGTH:
        reason = f"{a} bytes; a position takes at most {b}"
    else:
        reason = f"internal error code {code}"
    return fen_error(index, err.column, field, reason, code)

# ---------------------------------------------------------------- inputs


cdef fx_x_records _records(cnp.ndarray recs, bint trusted):
    cdef fx_x_records r
    r.base = <const uint8_t *>cnp.PyArray_DATA(recs)
    r.stride = recs.itemsize
    r.wide = recs.dtype == POSITION_DTYPE_10x8
    r.trusted = trusted
    return r


cdef fx_x_planes _spec(object spec) except *:
    """The kernels' plane layout of a PlaneOptions."""
    cdef fx_x_planes s
    cdef int k
    cdef tuple codes = spec.extra_codes
    s.width = spec.width
    s.flip = spec.flip
    s.kind = _KINDS[spec.dtype.kind]
    s.size = spec.dtype.itemsize
    s.ep_mode = spec.en_passant
    s.n_extra = len(codes)
    for k in range(len(codes)):
        s.extra[k] = codes[k]
    return s


cdef class Defaults:
    """Values of the fields the input does not give, each one shared (a
    length-1 array) or one per row; None when not given."""
    cdef object keep
    cdef fx_x_defaults d

    def __init__(self, Py_ssize_t n, turn=None, files=None, bytes flags=None, ep=None,
                 halfmove=None, fullmove=None):
        cdef const uint8_t[::1] u8
        cdef const uint32_t[::1] u32
        self.keep = (turn, files, flags, ep, halfmove, fullmove)
        if turn is not None:
            u8 = turn
            self.d.turn = &u8[0]
            self.d.turn_step = u8.shape[0] > 1
        if files is not None:
            u8 = files
            self.d.files = &u8[0]
            self.d.files_step = u8.shape[0] > 4
        if flags is not None:
            self.d.flags = <const uint8_t *>(<char *>flags)
            self.d.n_flags = len(flags)
        if ep is not None:
            u8 = ep
            self.d.ep = &u8[0]
            self.d.ep_step = u8.shape[0] > 1
        if halfmove is not None:
            u32 = halfmove
            self.d.halfmove = &u32[0]
            self.d.halfmove_step = u32.shape[0] > 1
        if fullmove is not None:
            u32 = fullmove
            self.d.fullmove = &u32[0]
            self.d.fullmove_step = u32.shape[0] > 1

cdef fx_x_defaults _defaults_from(const fx_x_defaults *d, size_t start):
    """The defaults of rows [start, N): per-row values moved on by start rows."""
    cdef fx_x_defaults out = d[0]
    if out.turn != NULL:
        out.turn += start * out.turn_step
    if out.files != NULL:
        out.files += 4 * start * out.files_step
    if out.ep != NULL:
        out.ep += start * out.ep_step
    if out.halfmove != NULL:
        out.halfmove += start * out.halfmove_step
    if out.fullmove != NULL:
        out.fullmove += start * out.fullmove_step
    return out

# ---------------------------------------------------------------- failures

cdef enum:
    KEPT = 64  # failed rows a kernel notes before the glue takes them


cdef struct Run:
    # a kernel's options and failures, as the row loop's (core/batch.h)
    fx_batch_opts opts
    fx_batch_out out
    fx_failure kept[KEPT]


cdef int _start(Run *run, errors, list failures) except -1:
    """The kernels' options: errors RAISE (and no failures list) stops at
    a failing row; otherwise failing rows get a zero output, and are errors
    only when failures collects them."""
    cdef int mode = errors
    memset(run, 0, sizeof(Run))
    run.opts.errors = RAISE if mode == RAISE and failures is None else COERCE
    run.opts.drop_failures = run.opts.errors == COERCE and failures is None
    run.out.failures, run.out.failures_cap = run.kept, KEPT
    return 0


cdef int _raise_or_keep(object error, list failures) except -1:
    """Raise the error of a failing row, or keep it in failures."""
    if failures is None:
        raise error
    failures.append(error)
    return 0


cdef inline bint _missing(fx_error err, list failures, const uint8_t *base, size_t stride,
                          size_t index) noexcept:
    """Whether the failing record base + index * stride is the null record:
    a missing value whose output (zero, or a null) the kernel has written,
    under every errors mode.  (With failures, as the command line calls, it
    is kept with the failing rows.)"""
    return failures is None and fx_null_record(&err, base + index * stride, stride)


cdef int _take_failures(Run *run, size_t start, list failures, int width, str fmt, str hint,
                        const uint8_t *records=NULL, size_t stride=0,
                        object tensors=None) except -1:
    """Raise or keep the error of every row the last kernel call (from row
    start) failed, then clear them for the next call.  With records, a null
    record is a missing value, not a failure; with tensors, an error shows
    its row's tensor."""
    cdef size_t k, row
    for k in range(run.out.n_failures):
        row = start + run.kept[k].row
        if records != NULL and _missing(run.kept[k].err, failures, records, stride, row):
            continue
        _raise_or_keep(_row_error(row, run.kept[k].err, width,
                                  None if tensors is None else tensors[row], fmt, hint),
                       failures)
    run.out.n_failures = 0
    return 0

# ---------------------------------------------------------------- records -> arrays
#
# Every function takes ``failures``: None (the default) for the behaviour of
# ``errors``, or a list that gets the FenError of every failing row (whose
# output is zero, as with errors="coerce").


def bitboards(cnp.ndarray recs, *, bint trusted, errors, cnp.ndarray out, list failures=None):
    """(N, 12) uint64 bitboards of flat contiguous records into out."""
    cdef Run run
    _start(&run, errors, failures)
    cdef fx_x_records r = _records(recs, trusted)
    cdef const uint8_t *base = r.base
    cdef size_t n = recs.shape[0], start = 0, done
    cdef uint64_t *dest = <uint64_t *>cnp.PyArray_DATA(out)
    while True:
        r.base = base + start * r.stride
        with nogil:
            done = fx_x_bitboards_batch(&r, n - start, dest + 12 * start, &run.opts, &run.out)
        _take_failures(&run, start, failures, 8, "bitboard",
                       " (bitboards hold 8x8 positions only)", base, r.stride)
        if run.out.stop == FX_STOP_DONE:
            return out
        start += done


def planes(cnp.ndarray recs, spec, *, bint trusted, errors, cnp.ndarray out,
           list failures=None, str hint=None):
    """Plane tensors of flat contiguous records into out (N, C, 8, width),
    laid out as ``spec`` (a PlaneOptions) says."""
    cdef Run run
    _start(&run, errors, failures)
    cdef fx_x_records r = _records(recs, trusted)
    cdef fx_x_planes s = _spec(spec)
    cdef int width = spec.width
    cdef const uint8_t *base = r.base
    cdef size_t n = recs.shape[0], start = 0, size = fx_x_planes_bytes(&s), done
    cdef uint8_t *dest = <uint8_t *>cnp.PyArray_DATA(out)
    if hint is None:
        hint = (" (to_planes(..., width=10) gives 16 planes of 8x10)" if width == 8
                else " (to_planes(..., width=8) takes 8-wide positions)")
    while True:
        r.base = base + start * r.stride
        with nogil:
            done = fx_x_planes_batch(&r, n - start, &s, dest + size * start, &run.opts,
                                     &run.out)
        _take_failures(&run, start, failures, width, "planes", hint, base, r.stride)
        if run.out.stop == FX_STOP_DONE:
            return out
        start += done


def stockfish_pack(cnp.ndarray recs, *, bint trusted, en_passant, errors, cnp.ndarray out,
                   list failures=None):
    """(N, 24) uint8 Stockfish compressed positions into out."""
    cdef Run run
    _start(&run, errors, failures)
    run.opts.ep = <int>en_passant
    cdef fx_x_records r = _records(recs, trusted)
    cdef const uint8_t *base = r.base
    cdef size_t n = recs.shape[0], start = 0, done
    cdef uint8_t *dest = <uint8_t *>cnp.PyArray_DATA(out)
    while True:
        r.base = base + start * r.stride
        with nogil:
            done = fx_x_stockfish_pack_batch(&r, n - start, dest + FX_X_STOCKFISH_SIZE * start,
                                             &run.opts, &run.out)
        _take_failures(&run, start, failures, 8, "stockfish",
                       " (the format holds 8x8 positions)", base, r.stride)
        if run.out.stop == FX_STOP_DONE:
            return out
        start += done


def lichess_pack(cnp.ndarray recs, *, bint trusted, en_passant, errors, list failures=None):
    """Lichess binary FEN of every record: (data uint8, offsets int64 of
    length N + 1, valid uint8 or None when every row is valid)."""
    cdef Run run
    _start(&run, errors, failures)
    run.opts.ep = <int>en_passant
    cdef fx_x_records r = _records(recs, trusted)
    cdef const uint8_t *base = r.base
    cdef Py_ssize_t n = recs.shape[0], lo, hi, start, stop, k
    cdef size_t done
    cdef int64_t size = 0, used
    cdef cnp.ndarray offsets = np.empty(n + 1, np.int64)
    cdef cnp.ndarray valid = np.empty(n, np.uint8)
    cdef cnp.ndarray scratch = np.empty(min(n, LICHESS_CHUNK) * LICHESS_MAX, np.uint8)
    cdef int64_t *ends = <int64_t *>cnp.PyArray_DATA(offsets)
    cdef uint8_t *ok = <uint8_t *>cnp.PyArray_DATA(valid)
    cdef uint8_t *buf = <uint8_t *>cnp.PyArray_DATA(scratch)
    parts = []
    ends[0] = 0
    for lo in range(0, n, LICHESS_CHUNK):
        hi = min(n, lo + LICHESS_CHUNK)
        start, used = lo, 0
        while True:
            # Rows [start, hi) into buf + used; the kernel's ends count from there.
            r.base = base + start * r.stride
            with nogil:
                done = fx_x_lichess_pack_batch(&r, hi - start, buf + used, ends + start + 1,
                                               ok + start, &run.opts, &run.out)
                stop = start + <Py_ssize_t>done
                for k in range(start + 1, stop + 1):
                    ends[k] += size + used
            # each failed row is an empty null value
            _take_failures(&run, start, failures, 8, "lichess",
                           " (the format holds 8x8 positions)", base, r.stride)
            if run.out.stop == FX_STOP_DONE:
                break
            start = stop
            used = ends[stop] - size
        used = ends[hi] - size
        size += used
        if hi == n and not parts:
            # One chunk: the scratch buffer, shrunk in place (no copy, and no
            # page faults on a new array); nothing else refers to it.
            scratch.resize(used, refcheck=False)
            parts.append(scratch)
        else:
            parts.append(scratch[:used].copy())
    data = np.concatenate(parts) if len(parts) > 1 else (
        parts[0] if parts else np.empty(0, np.uint8))
    return data, offsets, (None if valid.all() else valid.view(bool))


def from_bitboards(cnp.ndarray bb, Defaults defaults, *, errors, list failures=None):
    """Records (POSITION_DTYPE) of (N, 12) uint64 contiguous bitboards."""
    cdef Run run
    _start(&run, errors, failures)
    cdef size_t n = bb.shape[0], start = 0, done
    cdef cnp.ndarray out = np.empty(n, POSITION_DTYPE)
    cdef uint8_t *dest = <uint8_t *>cnp.PyArray_DATA(out)
    cdef const uint64_t *src = <const uint64_t *>cnp.PyArray_DATA(bb)
    cdef fx_x_defaults d
    while True:
        d = _defaults_from(&defaults.d, start)
        with nogil:
            done = fx_x_from_bitboards_batch(src + 12 * start, n - start, &d,
                                             dest + sizeof(fx_rec8) * start, &run.opts,
                                             &run.out)
        _take_failures(&run, start, failures, 8, "bitboard", "")
        if run.out.stop == FX_STOP_DONE:
            return out
        start += done


def from_planes(cnp.ndarray tensors, Defaults defaults, spec, *, errors,
                list failures=None):
    """Records of (N, C, 8, width) contiguous plane tensors laid out as
    ``spec`` (a PlaneOptions of their dtype and width) says:
    POSITION_DTYPE for width 8, POSITION_DTYPE_10x8 for width 10."""
    cdef Run run
    _start(&run, errors, failures)
    cdef int width = spec.width
    run.opts.wide = width == 10
    cdef fx_x_planes s = _spec(spec)
    cdef size_t n = tensors.shape[0], start = 0, size = fx_x_planes_bytes(&s), done
    cdef cnp.ndarray out = np.empty(n, POSITION_DTYPE_10x8 if run.opts.wide else POSITION_DTYPE)
    cdef size_t stride = out.itemsize
    cdef uint8_t *dest = <uint8_t *>cnp.PyArray_DATA(out)
    cdef const uint8_t *src = <const uint8_t *>cnp.PyArray_DATA(tensors)
    cdef fx_x_defaults d
    while True:
        d = _defaults_from(&defaults.d, start)
        with nogil:
            done = fx_x_from_planes_batch(src + size * start, n - start, &s, &d,
                                          dest + stride * start, &run.opts, &run.out)
        _take_failures(&run, start, failures, width, "planes", "", NULL, 0, tensors)
        if run.out.stop == FX_STOP_DONE:
            return out
        start += done


def check_spans(data, starts, ends, nulls=None, Py_ssize_t base=0):
    """ValueError unless starts, ends (int64) and nulls (uint8 or None) are
    one per row and every row data[starts[i]:ends[i]] lies in data (null
    rows too: Arrow keeps their offsets in order); the message names the
    first bad row, numbered from base."""
    cdef const uint8_t[::1] raw = data
    cdef const int64_t[::1] s = starts
    cdef const int64_t[::1] e = ends
    cdef Py_ssize_t n = s.shape[0], i, bad = -1
    cdef int64_t size = raw.shape[0]
    if e.shape[0] != n:
        raise ValueError(f"{n} row starts but {e.shape[0]} row ends")
    if nulls is not None and len(nulls) != n:
        raise ValueError(f"a null mask of {len(nulls)} rows for {n} rows")
    with nogil:
        for i in range(n):
            if s[i] < 0 or e[i] < s[i] or e[i] > size:
                bad = i
                break
    if bad >= 0:
        raise ValueError(f"row {bad + base}: offsets {s[bad]}..{e[bad]} outside the "
                         f"{size}-byte data buffer or decreasing")


def lichess_unpack(data, starts, ends, nulls, *, errors, list failures=None,
                   Py_ssize_t first_row=0):
    """Records of lichess elements data[starts[i]:ends[i]] (null rows: the
    null record); spans outside data are a ValueError (rows numbered from
    first_row).  The caller keeps starts, ends and nulls to itself for the call:
    they are checked once, then read by the kernel."""
    check_spans(data, starts, ends, nulls, first_row)
    cdef Run run
    _start(&run, errors, failures)
    cdef const uint8_t[::1] raw = data
    cdef const int64_t[::1] s = starts
    cdef const int64_t[::1] e = ends
    cdef const uint8_t[::1] z
    cdef const uint8_t *zp = NULL
    cdef size_t n = s.shape[0], start = 0, done
    cdef cnp.ndarray out = np.empty(n, POSITION_DTYPE)
    cdef uint8_t *dest = <uint8_t *>cnp.PyArray_DATA(out)
    cdef const uint8_t *base = &raw[0] if raw.shape[0] else <const uint8_t *>b""
    if nulls is not None and n:
        z = nulls
        zp = &z[0]
    while start < n:
        with nogil:
            done = fx_x_lichess_unpack_batch(base, &s[start], &e[start],
                                             zp + start if zp else NULL, n - start,
                                             dest + sizeof(fx_rec8) * start, &run.opts,
                                             &run.out)
        _take_failures(&run, start, failures, 8, "lichess", "")
        if run.out.stop == FX_STOP_DONE:
            break
        start += done
    return out


def stockfish_unpack(cnp.ndarray rows, Defaults defaults, *, errors, list failures=None):
    """Records of (N, 24) uint8 contiguous Stockfish compressed positions."""
    cdef Run run
    _start(&run, errors, failures)
    cdef size_t n = rows.shape[0], start = 0, done
    cdef cnp.ndarray out = np.empty(n, POSITION_DTYPE)
    cdef uint8_t *dest = <uint8_t *>cnp.PyArray_DATA(out)
    cdef const uint8_t *src = <const uint8_t *>cnp.PyArray_DATA(rows)
    cdef fx_x_defaults d
    while True:
        d = _defaults_from(&defaults.d, start)
        with nogil:
            done = fx_x_stockfish_unpack_batch(src + FX_X_STOCKFISH_SIZE * start, n - start,
                                               &d, dest + sizeof(fx_rec8) * start,
                                               &run.opts, &run.out)
        _take_failures(&run, start, failures, 8, "stockfish", "")
        if run.out.stop == FX_STOP_DONE:
            return out
        start += done


def lichess_frames(data, Py_ssize_t max_n):
    """Split a framed lichess stream (length byte, value; FRAME_NULL for a
    null): (starts, ends, nulls, used) of at most max_n whole values at the
    start of data, used = the bytes they take; or, at a length byte that is
    neither 0..LICHESS_READ_MAX nor FRAME_NULL, (None, None, None, its
    offset)."""
    cdef const uint8_t[::1] raw = data
    cdef size_t size = raw.shape[0], used = 0
    cdef cnp.ndarray starts = np.empty(max_n, np.int64)
    cdef cnp.ndarray ends = np.empty(max_n, np.int64)
    cdef cnp.ndarray nulls = np.empty(max_n, np.uint8)
    cdef int64_t n = 0
    if size:
        with nogil:
            n = fx_x_frames(&raw[0], size, max_n, <int64_t *>cnp.PyArray_DATA(starts),
                            <int64_t *>cnp.PyArray_DATA(ends),
                            <uint8_t *>cnp.PyArray_DATA(nulls), &used)
    if n < 0:
        return None, None, None, used
    return starts[:n], ends[:n], nulls[:n], used
