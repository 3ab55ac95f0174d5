# What the bulk kernels share with the row-by-row glue.
from fastxfen._core cimport fx_batch_opts, fx_error


cdef extern from "batch.h":
    enum:  # errors=, as the C row loop takes it
        RAISE "FX_RAISE"
        COERCE "FX_COERCE"
        IGNORE "FX_IGNORE"
        FIELDS_SAME "FX_FIELDS_SAME"  # fields="same": each row keeps the number it came with

cdef fx_batch_opts _opts(int task, int errors, bint epd) noexcept
cdef fx_batch_opts _text_opts(object text, int errors) except *

cdef object _error(Py_ssize_t index, fx_error err, object text)
