# cython: language_level=3
"""The floor of a list-of-str -> list-of-str pass (bench/compare.py): read
each ASCII str and build a new str of the same bytes, the way fastxfen's glue
builds normalize's output strings, with no parsing at all."""
from libc.string cimport memcpy


cdef extern from "Python.h":
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)


def copy_rows(list rows):
    """A new str of the same ASCII bytes for each row."""
    cdef Py_ssize_t i, n = len(rows), size
    cdef list out = [None] * n
    for i in range(n):
        item = rows[i]
        size = PyUnicode_GET_LENGTH(item)
        text = PyUnicode_New(size, 127)
        memcpy(PyUnicode_DATA(text), PyUnicode_DATA(item), size)
        out[i] = text
    return out
