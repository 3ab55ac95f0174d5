"""The JSON Lines writer: each row of a record batch as one JSON object, in
the bytes Python's ``json.dumps(row, ensure_ascii=False, separators=(",",
":"), allow_nan=False)`` writes for it, built column by column with
pyarrow's compute functions (text_columns), never a Python object per row.

What each type becomes (docs/cli.md, "JSON Lines"):

- null, booleans, integers: ``null``, ``true``/``false``, the digits;
- floats: Python's ``repr`` of the value as a float (float16 and float32
  exactly as float64; the one part done per value in Python); NaN and
  infinities have no JSON form and stop the run, naming the row and column;
- decimals: a number with the decimal's digits (``1.50``);
- strings: quoted, escaping ``"``, ``\\`` and control characters as
  json.dumps does, every other character as it is (UTF-8);
- dates, times, timestamps: strings, as pyarrow casts them to text
  (``2024-01-31 12:00:00.123+0100``); durations: the number of their unit;
- lists: arrays; structs: objects, keys in field order, a member whose
  value is null left out; dictionaries: their values.

A top-level column is always written (null as ``null``).  Binary, maps,
unions, intervals and extension types are refused before anything is
written: JSON has no bytes, and pyarrow reads none of them back."""

from __future__ import annotations

import json

import numpy as np

from fastxfen.files import text_columns as tc
from fastxfen.files.errors import RunError
from fastxfen.files.tables import int_array, numpy_mask, require_pyarrow, text_array

_WHY = (
    "JSON Lines cannot write back as it was (binary, maps, unions, intervals "
    "and extension types have no JSON form pyarrow reads): write Parquet or Arrow"
)


def _parts(kind) -> list:
    """The child types of a nested type."""
    return [kind.field(i).type for i in range(kind.num_fields)]


def _writable(kind) -> bool:
    pa = require_pyarrow()
    types = pa.types
    if types.is_null(kind) or tc.is_text(kind) or tc.is_scalar(kind):
        return True
    if types.is_dictionary(kind):
        return _writable(kind.value_type)
    if _is_list(kind) or types.is_struct(kind):
        return all(_writable(part) for part in _parts(kind))
    return False


def _is_list(kind) -> bool:
    types = require_pyarrow().types
    names = ("is_list_view", "is_large_list_view")  # pyarrow 16 and later
    views = [getattr(types, name, lambda _: False) for name in names]
    return (
        types.is_list(kind)
        or types.is_large_list(kind)
        or types.is_fixed_size_list(kind)
        or any(view(kind) for view in views)
    )


def check(schema, where: str) -> None:
    """A RunError naming the first column JSON Lines cannot write."""
    for field in schema:
        if not _writable(field.type):
            raise tc.refuse(where, field.name, field.type, _WHY)


class NonFinite(ValueError):
    """A NaN or infinite float, which JSON cannot hold."""


class _Pieces:
    """The scalars a batch's rendering uses, made once per writer."""

    def __init__(self) -> None:
        self.null = tc.scalar("null")
        self.true = tc.scalar("true")
        self.false = tc.scalar("false")
        self.quote = tc.scalar('"')
        self.comma = tc.scalar(",")
        self.open_list, self.close_list = tc.scalar("["), tc.scalar("]")
        self.open_object, self.close_object = tc.scalar("{"), tc.scalar("}")
        self.texts: dict = {}

    def text(self, text: str):
        """``text`` as a scalar, made once."""
        if text not in self.texts:
            self.texts[text] = tc.scalar(text)
        return self.texts[text]


def _key(name: str) -> str:
    return json.dumps(name, ensure_ascii=False) + ":"


class JsonRender:
    """Record batches of one schema as the bytes of their JSON Lines.

    ``parts`` gives a column's text as parts (arrays and scalars) whose
    row-by-row concatenation, a null part counting as nothing, is each
    value's JSON text: a parent splices them into its own concatenation
    instead of copying the text once more.  ``value`` gives the text as one
    array, null where the value is null: an array or a row writes that
    ``null``, an object leaves the member out.  An object's commas go
    around its first member that is never null, so none is left over."""

    def __init__(self, schema) -> None:
        self.schema = schema
        self.pieces = _Pieces()

    def rows(self, batch) -> list:
        """The JSON Lines of ``batch`` (a list of buffers)."""
        return tc.written_in_halves(self._rows, batch)

    def _rows(self, batch):
        pc = require_pyarrow().compute
        p = self.pieces
        parts = []
        for k, (field, column) in enumerate(zip(self.schema, batch.columns)):
            parts.append(p.text(("{" if k == 0 else ",") + _key(field.name)))
            if column.null_count:
                parts.append(pc.fill_null(self.value(column), p.null))
            else:
                parts += self.parts(column)
        if not parts:
            return tc.data_of(tc.constant("{}\n", batch.num_rows))
        return tc.data_of(_joined([*parts, p.text("}\n")], p))

    def value(self, array):
        """The JSON text of each value of ``array``, null for a null."""
        parts = self.parts(array)
        return parts[0] if len(parts) == 1 else _joined(parts, self.pieces)

    def parts(self, array) -> list:
        """The parts of each value's JSON text (one part, null where the
        value is null, when ``array`` has nulls)."""
        pa = require_pyarrow()
        pc = pa.compute
        kind = array.type
        p = self.pieces
        types = pa.types
        if types.is_null(kind):
            return [pa.nulls(len(array), pa.string())]
        if types.is_dictionary(kind):
            return [self.value(array.dictionary).take(array.indices)]
        if types.is_boolean(kind):
            return [pc.if_else(array, p.true, p.false)]
        if types.is_floating(kind):
            return [_floats(array)]
        if tc.is_text(kind):
            return self._quoted(array, _escaped(tc.plain_strings(array)))
        if types.is_date(kind) or types.is_time(kind) or types.is_timestamp(kind):
            return self._quoted(array, tc.cast_text(array))
        if tc.is_scalar(kind):  # integers, decimals, durations
            return [tc.cast_text(array)]
        if _is_list(kind):
            return self._list(array)
        return self._struct(array)

    def _quoted(self, array, text) -> list:
        p = self.pieces
        if array.null_count:
            return [tc.join(p.quote, text, p.quote)]
        return [p.quote, text, p.quote]

    def _list(self, array) -> list:
        pa = require_pyarrow()
        pc = pa.compute
        p = self.pieces
        kind = array.type
        lists = array
        if not (pa.types.is_list(kind) or pa.types.is_large_list(kind)):
            lists = _as_list(array)
        offsets = tc.offsets_of(lists)
        start = int(offsets[0])
        child = self.value(lists.values.slice(start, int(offsets[-1]) - start))
        if child.null_count:
            child = pc.fill_null(child, p.null)
        inner = pc.binary_join(pa.ListArray.from_arrays(_int32s(offsets - start), child), p.comma)
        return _closed(array, [p.open_list, inner, p.close_list], p)

    def _struct(self, array) -> list:
        pc = require_pyarrow().compute
        p = self.pieces
        children = array.flatten()  # (the struct's nulls are its children's)
        always = next((k for k, child in enumerate(children) if not child.null_count), None)
        members = []
        for k, (field, child) in enumerate(zip(array.type, children)):
            key = _key(field.name)
            if always is None:  # each after a comma, the first comma cut below
                members.append(tc.join(p.text("," + key), self.value(child)))
            elif k < always:  # before the first member never missing: a comma after
                members.append(tc.join(p.text(key), self.value(child), p.comma))
            elif child.null_count:  # after it: a comma before
                members.append(tc.join(p.text("," + key), self.value(child)))
            else:
                members += [p.text(("," if k > always else "") + key), *self.parts(child)]
        if always is None and members:
            members = [pc.utf8_slice_codeunits(_joined(members, p), start=1)]
        return _closed(array, [p.open_object, *members, p.close_object], p)


def _closed(array, parts, p) -> list:
    """``parts``, or their concatenation made null where ``array`` is."""
    if not array.null_count:
        return parts
    return [_with_nulls(_joined(parts, p), array)]


def _joined(parts, p):
    """The row-by-row concatenation of ``parts``, a null part as nothing."""
    pc = require_pyarrow().compute
    return pc.binary_join_element_wise(
        *parts, p.text(""), null_handling="replace", null_replacement=""
    )


def _as_list(array):
    """A fixed-size list or list view as a list array of each row's values
    (a null row an empty list: the caller writes it null)."""
    pa = require_pyarrow()
    kind = array.type
    n = len(array)
    if pa.types.is_fixed_size_list(kind):
        size = kind.list_size
        values = array.values.slice(array.offset * size, n * size)
        return pa.ListArray.from_arrays(_int32s(np.arange(n + 1) * size), values)
    # a list view: each row's values where its offset and size say
    # (pyarrow's cast of a list view to a list gives too short offsets)
    width = np.int64 if "large" in str(kind) else np.int32
    start = array.offset
    starts = np.frombuffer(array.buffers()[1], width)[start : start + n].astype(np.int64)
    sizes = np.frombuffer(array.buffers()[2], width)[start : start + n].astype(np.int64)
    sizes = np.where(numpy_mask(array.is_valid()), sizes, 0)
    ends = np.cumsum(sizes)
    rows = np.arange(int(ends[-1]) if n else 0) + np.repeat(starts - (ends - sizes), sizes)
    values = array.values.take(int_array(rows))
    return pa.ListArray.from_arrays(_int32s(np.concatenate([[0], ends])), values)


def _int32s(values):
    pa = require_pyarrow()
    data = np.ascontiguousarray(values, np.int32)
    return pa.Array.from_buffers(pa.int32(), len(data), [None, pa.py_buffer(data)])


def _with_nulls(text, array):
    """``text`` null where ``array`` is null."""
    if not array.null_count:
        return text
    pa = require_pyarrow()
    return pa.compute.if_else(array.is_valid(), text, pa.nulls(1, pa.string())[0])


def _escaped(strings):
    """The strings with ``"``, ``\\`` and control characters escaped as
    json.dumps escapes them (most strings need nothing and are kept)."""
    pa = require_pyarrow()
    pc = pa.compute
    if not tc.holds(strings, b'"\\', below=32):  # control characters, quotes
        return strings
    special = pc.match_substring_regex(strings, pattern=r'[\x00-\x1f"\\]')
    escaped = pc.replace_substring(strings, pattern="\\", replacement="\\\\")
    escaped = pc.replace_substring(escaped, pattern='"', replacement='\\"')
    control = pc.match_substring_regex(strings, pattern=r"[\x00-\x1f]")
    if pc.any(control).as_py():
        rows = np.flatnonzero(numpy_mask(control))
        texts = [
            json.dumps(text, ensure_ascii=False)[1:-1] for text in strings.take(rows).to_pylist()
        ]
        escaped = pc.replace_with_mask(
            escaped, pc.fill_null(control, tc.flag(False)), text_array(texts)
        )
    return pc.if_else(special, escaped, strings)


def _floats(array):
    """Python's repr of each float, null for a null; NonFinite for a NaN or
    an infinity."""
    pa = require_pyarrow()
    pc = pa.compute
    values = array.cast(pa.float64())
    finite = pc.is_finite(values)
    if pc.any(pc.invert(pc.fill_null(finite, tc.flag(True)))).as_py():
        raise NonFinite()
    texts = list(map(float.__repr__, tc.numbers(values).tolist()))
    return _with_nulls(text_array(texts), array)


def non_finite_rows(array) -> np.ndarray:
    """Whether each row of ``array`` holds a NaN or an infinity, at any
    depth (for the error that names the first)."""
    pa = require_pyarrow()
    pc = pa.compute
    kind = array.type
    n = len(array)
    if pa.types.is_floating(kind):
        return numpy_mask(
            pc.fill_null(pc.invert(pc.is_finite(array.cast(pa.float64()))), tc.flag(False))
        )
    if pa.types.is_dictionary(kind):
        found = non_finite_rows(array.dictionary)
        return found[tc.numbers(array.indices).astype(np.int64)] & numpy_mask(array.is_valid())
    if _is_list(kind):
        lists = array if pa.types.is_list(kind) or pa.types.is_large_list(kind) else _as_list(array)
        offsets = tc.offsets_of(lists)
        start = int(offsets[0])
        inner = non_finite_rows(lists.values.slice(start, int(offsets[-1]) - start))
        counts = np.add.reduceat(np.append(inner, False).astype(np.int64), offsets[:-1] - start)
        return (counts > 0) & (np.diff(offsets) > 0) & numpy_mask(array.is_valid())
    if pa.types.is_struct(kind):
        out = np.zeros(n, bool)
        for child in array.flatten():
            out |= non_finite_rows(child)
        return out
    return np.zeros(n, bool)


def first_non_finite(batch, schema):
    """(row, column name) of the first NaN or infinity of ``batch``."""
    for field, column in zip(schema, batch.columns):
        rows = np.flatnonzero(non_finite_rows(column))
        if len(rows):
            return int(rows[0]), field.name
    raise RunError("a NaN or infinite value has no JSON form")  # not reached


__all__ = ["JsonRender", "NonFinite", "check", "first_non_finite"]
