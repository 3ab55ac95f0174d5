"""fastxfen: FEN, X-FEN and Shredder-FEN at bulk speed, for 8x8 and 10x8 boards."""

from fastxfen._api import decode, encode, normalize, validate
from fastxfen._errors import FenError
from fastxfen._info import info
from fastxfen._records import PIECE_CODES, POSITION_DTYPE, POSITION_DTYPE_10x8, record_dtype
from fastxfen._training_errors import TrainingDataError
from fastxfen.chess960 import chess960_fen, chess960_number
from fastxfen.export import (
    PLANE_EXTRAS,
    BinaryColumn,
    from_bitboards,
    from_planes,
    pack,
    to_bitboards,
    to_planes,
    unpack,
)
from fastxfen.keys import Deduper, unique, zobrist

__all__ = [
    "BinaryColumn",
    "Deduper",
    "FenError",
    "PLANE_EXTRAS",
    "PIECE_CODES",
    "chess960_fen",
    "chess960_number",
    "POSITION_DTYPE",
    "POSITION_DTYPE_10x8",
    "TrainingDataError",
    "decode",
    "encode",
    "from_bitboards",
    "from_planes",
    "info",
    "normalize",
    "pack",
    "record_dtype",
    "to_bitboards",
    "to_planes",
    "unique",
    "unpack",
    "validate",
    "zobrist",
]
__version__ = "0.1.0"
