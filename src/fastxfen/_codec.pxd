# What the bulk kernels share with the row-by-row glue.
from fastxfen._core cimport fx_error


cdef extern from "batch.h":
    enum:  # errors=, as the C row loop takes it
        RAISE "FX_RAISE"
        COERCE "FX_COERCE"
        IGNORE "FX_IGNORE"
        FIELDS_SAME "FX_FIELDS_SAME"  # fields="same": each row keeps the number it came with

cdef int _option(dict choices, str name, value) except -1
cdef int _errors_mode(value) except -1
cdef int _record_errors(value) except -1
cdef int _castling_mode(value) except -1
cdef int _ep_mode(value) except -1
cdef int _fields_mode(value) except -1
cdef int _record_fields(value) except -1

cdef object _error(Py_ssize_t index, fx_error err, object text)
