"""From the parsed command line to the values the file engine takes: the
``type=`` functions of the parser, and the Settings and binary format of a
command built from its arguments.  Past this module no code reads the
argparse namespace."""

from __future__ import annotations

import argparse

import numpy as np

from fastxfen import _options, files
from fastxfen.cli import display
from fastxfen.files import binary_formats, csv_types
from fastxfen.files.errors import RunError
from fastxfen.files.settings import check_chunk_size
from fastxfen.files.values import column_name


def _checked(check, name: str):
    """A ``type=`` function: the library's ``check`` of one option, its
    ValueError (the library's message) a usage error of argparse."""

    def parse(text: str):
        try:
            return check(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = name
    return parse


def _number(text: str):
    """``text`` as an int if it is one, else as it is (for the message)."""
    try:
        return int(text)
    except ValueError:
        return text


def _size(text: str):
    """A number of bytes, suffix K or M."""
    units = {"k": 1 << 10, "m": 1 << 20}
    scale = units.get(text[-1:].lower(), 1)
    number = text[:-1] if scale != 1 else text
    try:
        value = int(number) * scale
    except ValueError:
        raise ValueError(f"not a size: {text!r} (try 8M)") from None
    return check_chunk_size(value)


def _fields(text: str):
    return _options.fields(text if text == "same" else _number(text))


def _record_fields(text: str):
    return _options.record_fields(text if text == "same" else _number(text))


def _threads(text: str) -> _options.Threads:
    return _options.Threads(_number(text))  # capped where the work runs


def _extras(text: str) -> tuple:
    """--extra: names separated by commas (checked with the planes' layout)."""
    return tuple(name.strip() for name in text.split(",")) if text else ()


def _dtype(text: str):
    """--dtype: a numpy dtype's name (checked with the planes' layout)."""
    try:
        return np.dtype(text)
    except TypeError:
        raise ValueError(f"--dtype {text!r} is no numpy dtype") from None


def _column_types(text: str) -> tuple:
    """--column-types: NAME=TYPE pairs split by commas (checked by pyarrow,
    a RunError-free ValueError when it is missing)."""
    try:
        return csv_types.column_types(text)
    except RunError as exc:  # no pyarrow
        raise ValueError(str(exc)) from None


size = _checked(_size, "size")
column_types = _checked(_column_types, "column_types")
fields = _checked(_fields, "fields")
record_fields = _checked(_record_fields, "record_fields")
threads = _checked(_threads, "threads")
width = _checked(lambda text: _options.width(_number(text)), "width")
castling = _checked(_options.castling, "castling")
en_passant = _checked(_options.en_passant, "en_passant")
errors = _checked(_options.errors, "errors")
record_errors = _checked(_options.record_errors, "record_errors")
perspective = _checked(_options.perspective, "perspective")
select = _checked(_options.pgn_select, "select")
extras = _checked(_extras, "extras")
dtype = _checked(_dtype, "dtype")


#: The ``type=`` of the options naming a column (--column, ...): not empty.
column = _checked(lambda text: column_name("a column name", text), "column")


def choices(values: tuple) -> str:
    """The metavar of an option with these values, as argparse writes choices."""
    return "{" + ",".join(str(value) for value in values) + "}"


def build(factory, *args, **kwargs):
    """factory(*args, **kwargs), its ValueError (a bad option) a RunError."""
    try:
        return factory(*args, **kwargs)
    except ValueError as exc:
        raise RunError(str(exc)) from None


def settings(args, progress=None, notices: bool = True) -> files.Settings:
    """The Settings of a command's arguments, reporting to ``progress``
    (and, with ``notices`` and without --quiet, notices to stderr)."""
    return build(
        files.Settings,
        errors=getattr(args, "errors", None),
        rejects=args.rejects,
        threads=args.threads,
        chunk_size=args.chunk_size,
        level=args.level,
        keep_cache=args.keep_cache,
        input_format=getattr(args, "input_format", None),
        output_format=getattr(args, "output_format", None),
        column=getattr(args, "column", None),
        column_types=getattr(args, "column_types", None),
        progress=progress,
        notice=display.notice if notices and not args.quiet else None,
    )


#: The options of encode and decode that only some binary formats take, as
#: their field names, in the order they are checked.
FORMAT_OPTIONS = ("width", "en_passant", "extra", "perspective", "dtype")


def binary_format(args, options: tuple, decoding: bool = False) -> binary_formats.BinaryFormat:
    """The binary format of --format with the ``options`` given for it (to
    decode with, if ``decoding``); a RunError for an option given with a
    format that does not take it."""
    name = args.format
    given = {}
    for option in options:
        value = getattr(args, option, None)
        if value is None:
            continue
        if option not in binary_formats.options_of(name):
            flag = "--" + option.replace("_", "-")
            kinds = binary_formats.taking(option)
            raise RunError(f"{flag} applies to --format {' or '.join(kinds)} only")
        given[option] = value
    kind = binary_formats.FORMATS[name]
    return build(kind.to_decode if decoding else kind, **given)
