"""Where a run stands, told to the caller's progress callback.

The callback is ``report(position, total, unit)``: ``position`` of ``total``
(None when unknown) ``unit``s ("B" for bytes of the input, "rows" for the
formats that know their row count).  It is called once with position 0 when
the input is open, then whenever the position moves.  Between two chunks,
``aim`` and ``part`` move it through a chunk as its output is written
(``paced``), so that a slow compressor does not hold it still."""

from __future__ import annotations

from typing import Callable, Optional

#: A progress callback: (position, total or None, unit).
Report = Callable[[int, Optional[int], str], None]


class Progress:
    """The position of one run, reported to ``report`` (None: to nobody)."""

    def __init__(self, report: Report | None = None) -> None:
        self.report = report
        self.at = 0
        self.total: int | None = None
        self.unit = "B"
        self._from = self._to = 0

    def start(self, total: int | None, unit: str = "B") -> None:
        """The input is open: ``total`` units to go."""
        self.total, self.unit = total, unit
        if self.report is not None:
            self.report(0, total, unit)

    def to(self, position: int) -> None:
        if self.report is not None and position > self.at:
            self.at = position
            self.report(position, self.total, self.unit)

    def aim(self, position: int) -> None:
        """The position is ``position`` once the chunk in hand is written."""
        self._from, self._to = self.at, max(self.at, position)

    def part(self, fraction: float) -> None:
        """That fraction of the chunk in hand is written."""
        self.to(int(self._from + (self._to - self._from) * fraction))

    def paced(self, output):
        """``output``, writing in slices that move the position when it is
        compressed (compressing a chunk of xz takes seconds)."""
        if self.report is None or output.kind is None:
            return output
        return PacedOutput(output, self)


class PacedOutput:
    """An Output written in slices of SLICE bytes, the position moved after
    each: a slice is handed to the background writer once the one before is
    compressed and written, so the position follows the compression."""

    SLICE = 256 << 10

    def __init__(self, output, progress: Progress) -> None:
        self.output = output
        self.progress = progress

    def write(self, data) -> None:
        view = memoryview(data).cast("B")
        size = len(view)
        for at in range(0, size, self.SLICE):
            self.output.write(view[at : at + self.SLICE])
            self.progress.part(min(size, at + self.SLICE) / size)

    def __getattr__(self, name):
        return getattr(self.output, name)
