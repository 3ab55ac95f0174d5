"""Reference models of the contracts, in plain Python: docs/semantics.md
(semantics.py) and docs/pgn.md (pgn.py)."""
