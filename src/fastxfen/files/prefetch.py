"""The next piece of the input produced in a thread of its own while the
caller works on the current one, so that reading (and decompressing)
overlaps the work."""

from __future__ import annotations

import queue
import threading

from fastxfen.files import signals


def prefetch(items):
    """The items of an iterator, each produced in a thread of its own while
    the caller works on the one before, so that reading (and decompressing)
    overlaps the work.  At most two items are alive at once if the caller
    drops each before asking for the next.  Errors are raised here, in order."""
    slot: queue.Queue = queue.Queue()
    wanted = threading.Semaphore(0)
    stop = threading.Event()

    def work() -> None:
        try:
            while True:
                wanted.acquire()
                if stop.is_set():
                    return
                item = next(items, StopIteration)
                slot.put((True, item))
                if item is StopIteration:
                    return
                del item
        except BaseException as exc:  # handed to the consumer
            slot.put((False, exc))

    thread = threading.Thread(target=work, name="fastxfen-reader", daemon=True)
    thread.start()
    wanted.release()
    try:
        while True:
            with signals.deferred():  # (a signal stops the run here, not in the queue)
                ok, item = signals.get(slot)
                if ok and item is not StopIteration:
                    wanted.release()  # produce the next one while this one is used
            if not ok:
                raise item
            if item is StopIteration:
                return
            yield item
            item = None
    finally:
        with signals.deferred(drop=True):
            stop.set()
            wanted.release()
        # A reader still inside a read of stdin at interpreter exit makes
        # CPython abort ("could not acquire lock ... daemon threads"): let
        # the read in progress finish (it ends at the next chunk or EOF).
        thread.join(timeout=30)
