"""Publication: the outputs of a run (and its rejects file) renamed into
place together when it succeeds, or removed when anything stops it; and the
checks made before anything is written (input, output and rejects are
different files, a binary output is no terminal, the level fits the codec)."""

from __future__ import annotations

import contextlib
import os
import sys

from fastxfen.files import codecs, signals
from fastxfen.files.dropbehind import START as DROP_START
from fastxfen.files.errors import Rejected, RunError
from fastxfen.files.outputs import Output


class Publication:
    """The output files of one run, published together: when the run ends
    without an exception, each is finished (fsynced) and then renamed into
    place, the --rejects file before the output, so that an output under its
    final name always has its complete rejects file; when an exception stops
    the run (a row rejected under --errors raise, an error, SIGINT, SIGTERM,
    a full disk), every temporary file is removed and no final name is
    touched.  Stdout cannot be taken back: after a Rejected it is finished
    (the rows before the rejected one), after anything else left as it is.
    A context manager."""

    def __init__(self) -> None:
        self._outputs: list = []

    def add(self, output: Output) -> Output:
        """Take ``output``; the last one added is published first."""
        self._outputs.append(output)
        return output

    def __enter__(self) -> Publication:
        return self

    def __exit__(self, kind, exc, traceback) -> bool:
        if kind is None:
            self._commit()
        else:
            if issubclass(kind, Rejected):
                self._finish_stdout()
            self._discard()
        return False

    def _finish_stdout(self) -> None:
        try:
            for output in self._outputs:
                if output.is_stdout:
                    output.finish()
        except BaseException:
            self._discard()
            raise

    def _commit(self) -> None:
        try:
            signals.swallowed()
            for output in self._outputs:
                output.finish()
            # A signal now would leave the rejects file published without its
            # output: it waits until the renaming is done.
            with signals.deferred():
                folders = []
                for output in reversed(self._outputs):
                    folders.append(output.publish())
                for folder in dict.fromkeys(folders):
                    if folder is not None:
                        _fsync_folder(folder)
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        with signals.deferred(drop=True):
            for output in self._outputs:
                output.discard()


def _fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable (where the system allows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _identity(path: str):
    """What ``path`` names: (device, inode) of an existing file, else the
    path a new file would be created at (symlinks followed)."""
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (st.st_dev, st.st_ino)


def check_distinct(files) -> None:
    """A RunError if two of ``files`` ((what, path) pairs; stdin, stdout and
    None name no file) are the same file by any route: the same path, a hard
    link, a symlink, or a dangling symlink to the other's name."""
    seen: list = []
    for what, path in files:
        if codecs.is_stdio(path):
            continue
        marks = {_identity(path), os.path.realpath(path)}
        for other_what, other, other_marks in seen:
            if marks & other_marks:
                raise RunError(f"the {what} {path} and the {other_what} {other} are the same file")
        seen.append((what, path, marks))


def close_at_end(stack: contextlib.ExitStack, writer, output) -> None:
    """Have ``stack`` close ``writer`` (which ends the table, or writes the
    .npy header, in ``output``) before the output is published: when the
    run succeeds, or when a Rejected stops it and ``output`` is stdout (so
    the rows before the rejected one make a whole stream there).  Otherwise
    the writer is abandoned: a file that will not be published is not
    finished."""

    def close(kind, exc, traceback) -> bool:
        if kind is None or (issubclass(kind, Rejected) and output.is_stdout):
            writer.close()
        else:
            writer.abandon()
        return False

    stack.push(close)


def _large_input(path) -> bool:
    """Whether the input is a file of at least DROP_START bytes, so the
    output is expected to be large: only then is a plain one written past the
    page cache from its first byte (a smaller output stays cached for what
    reads it next; stdin's size is not known)."""
    if codecs.is_stdio(path):
        return False
    try:
        return os.stat(path).st_size >= DROP_START
    except OSError:
        return False


def _check_not_terminal(path) -> None:
    """A RunError when binary rows would go to stdout on a terminal."""
    if not codecs.is_stdio(path):
        return
    try:
        tty = sys.stdout.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        raise RunError(
            "refusing to write binary .npy records to a terminal; "
            "use -o FILE.npy or redirect stdout"
        )


def open_outputs(source, target, settings, stack, binary: bool):
    """The output ``target`` and the rejects file of ``settings`` (an
    Output, or None), published or removed together when ``stack`` closes
    (Publication), once the input ``source``, the output and the rejects file
    are known to be different files, the output not a terminal for
    ``binary`` rows, and the level fits its compression.  Nothing is
    written before these checks."""
    rejects = settings.rejects
    check_distinct([("input", source), ("output", target), ("--rejects file", rejects)])
    if rejects and codecs.is_stdio(rejects) and codecs.is_stdio(target):
        raise RunError("the output and --rejects cannot both go to stdout")
    if binary:
        _check_not_terminal(target)
    codecs.check_level(settings.level, codecs.compression(target))
    publication = stack.enter_context(Publication())
    # A signal between making a temporary file and adding it would leave
    # the file behind: it waits until both are added.
    with signals.deferred():
        output = publication.add(
            Output(
                target,
                background=True,
                level=settings.level,
                drop_behind=not settings.keep_cache,
                threads=settings.compress_threads(),
                direct=_large_input(source),
            )
        )
        return output, publication.add(Output(rejects)) if rejects else None
