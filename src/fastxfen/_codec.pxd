# What the bulk kernels share with the row-by-row glue.
from fastxfen._core cimport fx_error

cdef enum Errors:
    RAISE, COERCE, IGNORE

cdef int _option(dict choices, str name, value) except -1
cdef int _errors_mode(value) except -1
cdef int _record_errors(value) except -1
cdef int _castling_mode(value) except -1
cdef int _ep_mode(value) except -1
cdef int _fields_mode(value) except -1
cdef int _record_fields(value) except -1

cdef enum:
    FIELDS_SAME = 0  # fields="same": each row keeps the number it came with
cdef object _error(Py_ssize_t index, fx_error err, object text)
cdef bint _null_record(fx_error err, const void *record, Py_ssize_t size) noexcept nogil
