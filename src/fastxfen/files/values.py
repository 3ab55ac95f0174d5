"""The base of the file engine's values (tasks, binary formats, table
formats, Settings): frozen once made, equal when their fields are,
picklable for Dask, shown as the call that makes them.  (A plain class
rather than a dataclass: making a frozen dataclass runs about 3.5 million
instructions, which every command would pay at start.)"""

from __future__ import annotations

from typing import Any, ClassVar, Optional


class Value:
    """A frozen value whose ``_fields`` (in order) are set once, when it is
    made (``_set``), and compared, hashed and shown."""

    _fields: ClassVar[tuple] = ()

    def _set(self, **fields: Any) -> None:
        """Set fields of a value being made."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make another one")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key()))

    def __repr__(self) -> str:
        pairs = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({pairs})"


def column_name(name: str, value: Any) -> Optional[str]:
    """``value``, a column name (a non-empty str) or None, for option ``name``."""
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name} must be a column name or None, not {value!r}")
    if value == "":
        raise ValueError(f"{name} cannot be empty")
    return value
