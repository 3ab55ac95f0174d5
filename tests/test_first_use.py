"""The smaller things a first-time user tripped over (issue 17, item 6):
where FenError says it lives, normalize_pgn on ``str``, the install hint of
``BinaryColumn.to_arrow()`` and how a ``.zst`` output can be read back."""

import pickle
import sys
import traceback

import pytest

import fastxfen as fx
from fastxfen import cli
from fastxfen.pgn import PgnError, normalize_pgn

BAD = "8/8/8 w - - 0 1"
GAME = '[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"]\n\n1. Rh2 *\n'


def _raised(fn, *args):
    with pytest.raises(fx.FenError) as info:
        fn(*args)
    return info.value


def test_fen_error_names_the_public_module():
    error = _raised(fx.normalize, BAD)
    assert type(error).__module__ == "fastxfen"
    assert fx.FenError.__qualname__ == "FenError"
    shown = "".join(traceback.format_exception_only(type(error), error))
    assert shown.startswith("fastxfen.FenError: row 0, column 5 (placement)")


def test_fen_error_pickles_by_its_public_name():
    error = _raised(fx.normalize, BAD)
    data = pickle.dumps(error)
    assert b"fastxfen" in data and b"fastxfen._errors" not in data
    back = pickle.loads(data)
    assert type(back) is fx.FenError
    assert (back.index, back.column, back.field, back.reason, back.code) == (
        error.index,
        error.column,
        error.field,
        error.reason,
        error.code,
    )
    assert str(back) == str(error)


def test_normalize_pgn_takes_str_and_gives_str():
    out = normalize_pgn(GAME)
    assert isinstance(out, str)
    assert out == normalize_pgn(GAME.encode()).decode()
    assert '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]' in out


def test_normalize_pgn_str_keeps_non_ascii_text_and_rejects_as_str():
    bad = '[Event "Åland – ü"]\n[FEN "8/8/8 w - - 0 1"]\n\n*\n'
    good = GAME.replace('"x"', '"Zürich"')
    rejects = []
    out = normalize_pgn(bad + "\n" + good, errors="coerce", rejects=rejects)
    assert "Zürich" in out and "Åland" not in out
    assert len(rejects) == 1
    error, game = rejects[0]
    assert isinstance(error, PgnError) and game.startswith('[Event "Åland – ü"]')
    with pytest.raises(PgnError):
        normalize_pgn(bad)


def test_to_arrow_without_pyarrow_names_the_extra(monkeypatch):
    column = fx.pack(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], format="lichess")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow fails
    with pytest.raises(ImportError, match=r"pip install \"fastxfen\[arrow\]\""):
        column.to_arrow()


def test_decode_to_arrow_without_pyarrow_names_the_extra(monkeypatch):
    records = fx.encode(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"])
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"pip install \"fastxfen\[arrow\]\""):
        fx.decode(records, output="arrow")


def test_zst_output_has_no_content_size_and_reads_as_documented(tmp_path):
    """The command line streams zstd, so the frame does not carry its
    content size (docs/cli.md): a one-shot decompression without a size bound
    fails with a clear message, and the documented ways read it whole."""
    zstandard = pytest.importorskip("zstandard")
    rows = ["4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"] * 1000
    source = tmp_path / "in.fen"
    source.write_text("\n".join(rows) + "\n")
    target = tmp_path / "out.fen.zst"
    assert cli.main(["normalize", str(source), "-o", str(target)]) == 0
    data = target.read_bytes()
    expected = ("4k3/8/8/8/8/8/8/4K2R w K - 0 1\n" * 1000).encode()

    params = zstandard.get_frame_parameters(data)
    assert params.content_size == zstandard.CONTENTSIZE_UNKNOWN
    with pytest.raises(zstandard.ZstdError, match="content size"):
        zstandard.decompress(data)
    assert zstandard.ZstdDecompressor().decompressobj().decompress(data) == expected
    with zstandard.ZstdDecompressor().stream_reader(target.open("rb")) as reader:
        assert reader.read() == expected
    assert zstandard.decompress(data, max_output_size=len(expected)) == expected
