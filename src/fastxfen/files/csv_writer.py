"""The CSV and TSV writer: RFC 4180 with minimal quoting, built column by
column with pyarrow's compute functions (text_columns).

- A field is quoted only when it holds the delimiter, a quote (doubled
  inside), a line break, or is the empty string (``""``); a missing value
  is an empty field, so the two read back apart (pyarrow, DuckDB).  In a
  table of one column a missing value is written ``""`` too: an empty line
  would be skipped by the readers.
- Booleans, numbers, dates, times, timestamps and durations are written as
  pyarrow casts them to text (``true``, ``1487``, ``0.1``, ``nan``,
  ``2024-01-31 12:00:00``), which pyarrow reads back to the same value
  given the column's type; dictionaries as their values.
- Lines end with ``\\n``; the header names the columns, quoted as fields.

Binary, lists, structs, maps, unions, intervals and extension types are
refused before anything is written: a CSV field holds text."""

from __future__ import annotations

from fastxfen.files import text_columns as tc

_WHY = (
    "CSV and TSV cannot write back as it was (a field holds text, a number, "
    "a boolean, a date or a time): write Parquet, Arrow or JSON Lines"
)


def _writable(kind) -> bool:
    pa = tc.require_pyarrow()
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return pa.types.is_null(kind) or tc.is_text(kind) or tc.is_scalar(kind)


def check(schema, where: str) -> None:
    """A RunError naming the first column CSV cannot write."""
    for field in schema:
        if not _writable(field.type):
            raise tc.refuse(where, field.name, field.type, _WHY)


class CsvRender:
    """Record batches of one schema as the bytes of their CSV lines, fields
    split by ``delimiter``."""

    def __init__(self, schema, delimiter: str) -> None:
        self.schema = schema
        self.delimiter = delimiter
        self.special_bytes = (delimiter + '"\r\n').encode()  # what needs quotes
        self.special = "[" + delimiter + '"\r\n]'
        self.sep = tc.scalar(delimiter)
        self.newline = tc.scalar("\n")
        self.quote = tc.scalar('"')
        self.empty = tc.scalar("")
        self.null = tc.scalar('""' if len(schema) == 1 else "")

    def header(self) -> bytes:
        """The header line."""
        names = self._quoted(tc.text_array(list(self.schema.names))).to_pylist()
        return (self.delimiter.join(names) + "\n").encode()

    def rows(self, batch) -> list:
        """The CSV lines of ``batch`` (a list of buffers)."""
        return tc.written_in_halves(self._rows, batch)

    def _rows(self, batch):
        fields = [self.field(column) for column in batch.columns]
        if not fields:
            return tc.data_of(tc.constant("\n", batch.num_rows))
        return tc.data_of(tc.join(*self._line(fields)))

    def _line(self, fields) -> list:
        parts = []
        for field in fields:
            parts += [field, self.sep]
        parts[-1] = self.newline
        return parts

    def field(self, array):
        """The CSV field of each value of ``array``."""
        pa = tc.require_pyarrow()
        pc = pa.compute
        kind = array.type
        if pa.types.is_dictionary(kind):
            return pc.fill_null(self.field(array.dictionary).take(array.indices), self.null)
        if pa.types.is_null(kind):
            return tc.constant(self.null.as_py(), len(array))
        if tc.is_text(kind):
            return pc.fill_null(self._quoted(tc.plain_strings(array)), self.null)
        return pc.fill_null(tc.cast_text(array), self.null)

    def _quoted(self, strings):
        """The strings, those that need it quoted."""
        pc = tc.require_pyarrow().compute
        needs = pc.equal(strings, self.empty)
        if tc.holds(strings, self.special_bytes):
            needs = pc.or_(needs, pc.match_substring_regex(strings, pattern=self.special))
        elif not pc.any(needs).as_py():
            return strings
        doubled = pc.replace_substring(strings, pattern='"', replacement='""')
        return pc.if_else(needs, tc.join(self.quote, doubled, self.quote), strings)
