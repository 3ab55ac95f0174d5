"""The ```python blocks of README.md and docs/*.md run as written.

Each block runs on its own, in a fresh temporary directory, as the main
script: it must bring its own imports and example data.  The directory
holds only the files the docs present as the reader's own data (a PGN
database, packed position files, shards to read with Dask), written by
``_user_files``; the README writes everything it uses itself.  Blocks that
need a Dask cluster or the network are left out by name (SKIP), and those
that start Dask worker processes run as a separate script (SCRIPT, slow).
"""

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fastxfen as fx

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.M | re.S)

#: Blocks not run, by "file#n" (n counts the file's python blocks from 1).
SKIP = {
    "docs/dask.md#3": "connects to a Dask scheduler at a network address",
    "docs/dask.md#5": "starts a LocalCluster (tests/test_dask.py runs one)",
}
#: Blocks run as a script in a child process: Dask computes them in worker
#: processes that import the main script (the block's __main__ guard).
SCRIPT = {"docs/dask.md#1", "docs/dask.md#2"}
#: Modules a block may import that are optional extras of fastxfen.
OPTIONAL = {"dask", "distributed", "duckdb", "pandas", "polars", "pyarrow", "zstandard"}

FENS = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
]
PGN = (
    '[Event "a"]\n[FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]\n\n1. Ke2 *\n\n'
    '[Event "c"]\n\n1. e4 e5 *\n\n'
)
BAD_GAME = '[Event "b"]\n[SetUp "1"]\n[FEN "8/8/9/8/8/8/8/8 w - - 0 1"]\n\n*\n\n'


def _blocks():
    for path in DOCS:
        name = path.relative_to(ROOT).as_posix()
        for n, match in enumerate(BLOCK.finditer(path.read_text(encoding="utf-8")), 1):
            yield f"{name}#{n}", match[1]


BLOCKS = dict(_blocks())


def _user_files(where: Path) -> None:
    """The files the docs treat as the reader's own data."""
    (where / "games.pgn").write_text(PGN)
    (where / "big.pgn").write_text((PGN + BAD_GAME) * 50)
    records = fx.encode(FENS)
    np.save(where / "positions.sf.npy", fx.pack(records, format="stockfish"))
    np.save(where / "positions.planes.npy", fx.to_planes(records))
    stream = b"".join(bytes([len(v)]) + v for v in fx.pack(records).tolist())
    (where / "positions.lichess").write_bytes(stream)
    (where / "games.lichess").write_bytes(stream + b"\xff")  # and a null
    (where / "positions").mkdir()
    for i in range(2):
        data = ("\n".join(FENS) + "\n").encode()
        (where / "positions" / f"part{i}.fen.gz").write_bytes(gzip.compress(data))
    if "pyarrow" in sys.modules or _importable("pyarrow"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        (where / "games").mkdir()
        table = pa.table({"fen": FENS, "rating": [1500, 1600, 1700]})
        pq.write_table(table, where / "games" / "part.0.parquet")


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _needs(code: str) -> None:
    """Skip when a block imports an optional extra that is not installed."""
    for module in re.findall(r"^\s*(?:import|from)\s+(\w+)", code, re.M):
        if module in OPTIONAL:
            pytest.importorskip(module)


def test_every_block_is_run_or_skipped_by_name():
    assert len(BLOCKS) >= 15
    assert set(SKIP) | SCRIPT <= set(BLOCKS)
    assert any(name.startswith("README.md#") for name in BLOCKS)


def test_readme_defines_its_example_data():
    code = "\n".join(code for name, code in BLOCKS.items() if name.startswith("README.md#"))
    assert "fens = [" in code and 'open("games.fen", "w")' in code


@pytest.mark.parametrize("name", sorted(set(BLOCKS) - set(SKIP) - SCRIPT))
def test_block_runs(name, tmp_path, monkeypatch, capsys):
    code = BLOCKS[name]
    _needs(code)
    _user_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, name, "exec"), {"__name__": "__main__"})


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCRIPT))
def test_block_runs_as_a_script(name, tmp_path):
    code = BLOCKS[name]
    _needs(code)
    _user_files(tmp_path)
    script = tmp_path / "snippet.py"
    script.write_text(code)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("name", sorted(SKIP))
def test_skipped_blocks_are_complete_scripts(name):
    """A block left out still imports what it uses and guards what starts
    processes; it must at least compile."""
    code = BLOCKS[name]
    compile(code, name, "exec")
    assert 'if __name__ == "__main__":' in code
