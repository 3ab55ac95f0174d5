"""From the parsed command line to the values the file engine takes: the
``type=`` functions of the parser, and the Settings and binary format of a
command built from its arguments.  Past this module no code reads the
argparse namespace."""

from __future__ import annotations

import argparse

from fastxfen import files
from fastxfen.cli import display
from fastxfen.files import binary_formats
from fastxfen.files.errors import RunError
from fastxfen.files.text_chunks import MAX_LINE


def size(text: str) -> int:
    """--chunk-size: a number of bytes, suffix K or M."""
    units = {"k": 1 << 10, "m": 1 << 20}
    scale = units.get(text[-1:].lower(), 1)
    number = text[:-1] if scale != 1 else text
    try:
        value = int(number) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 8M)") from None
    if not 1 <= value <= MAX_LINE:
        raise argparse.ArgumentTypeError(
            f"must be between 1 byte and {MAX_LINE >> 20}M, not {text}"
        )
    return value


def fields(text: str):
    """--fields: 6, 4 or same."""
    if text == "same":
        return text
    if text in ("4", "6"):
        return int(text)
    raise argparse.ArgumentTypeError(f"expected 6, 4 or same, not {text!r}")


def record_fields(text: str) -> int:
    """decode's --fields: 6 or 4."""
    if text == "same":
        raise argparse.ArgumentTypeError("6 or 4: records keep no count of fields to keep")
    return fields(text)


def threads(text: str) -> int:
    """--threads: a positive number."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return value


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
        progress=progress,
        notice=display.notice if notices and not args.quiet else None,
    )


#: The options of encode and decode that only some binary formats take, as
#: their field names, in the order they are checked.
FORMAT_OPTIONS = ("width", "en_passant", "extra", "perspective", "dtype")


def binary_format(args, options: tuple) -> binary_formats.BinaryFormat:
    """The binary format of --format with the ``options`` given for it; a
    RunError for an option given with a format that does not take it."""
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
    if "extra" in given:
        given["extra"] = build(binary_formats.extras, given["extra"])
    return build(binary_formats.FORMATS[name], **given)
