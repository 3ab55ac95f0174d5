# Declarations of the C core (src/fastxfen/core/fx.h) for the Cython glue.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "fx.h" nogil:
    enum:
        FX_MAX_OUTPUT
        FX_NONE

    ctypedef struct fx_pos:
        uint8_t board[80]
        uint8_t width
        uint8_t turn
        uint8_t prefix
        uint8_t ep
        uint8_t castling[4]
        uint32_t halfmove
        uint32_t fullmove

    ctypedef struct fx_rec8:
        uint8_t board[64]
        uint8_t width

    ctypedef enum fx_field:
        FX_F_PLACEMENT, FX_F_SIDE, FX_F_CASTLING, FX_F_EN_PASSANT,
        FX_F_HALFMOVE, FX_F_FULLMOVE, FX_F_FIELDS, FX_F_RECORD_BOARD,
        FX_F_RECORD_WIDTH, FX_F_RECORD_TURN, FX_F_RECORD_PREFIX, FX_F_RECORD_EP,
        FX_F_RECORD_CASTLING, FX_F_RECORD_HALFMOVE, FX_F_RECORD_FULLMOVE,
        FX_F_OPERATIONS

    ctypedef enum fx_code:
        FX_OK, FX_E_CHAR, FX_E_ZERO, FX_E_ADJACENT_NUMBERS, FX_E_RANK_LONG,
        FX_E_RANK_SHORT, FX_E_FIRST_WIDTH, FX_E_RANK_COUNT, FX_E_WIDE_PIECE,
        FX_E_SIDE, FX_E_CASTLING_DASH, FX_E_CASTLING_EMPTY_PREFIX,
        FX_E_CASTLING_TOO_MANY, FX_E_CASTLING_REPEAT, FX_E_FILE_OFF_BOARD,
        FX_E_EP_SQUARE, FX_E_DIGITS, FX_E_COUNTER_RANGE, FX_E_TOO_FEW_FIELDS,
        FX_E_TOO_MANY_FIELDS, FX_E_WIDE_ROW, FX_E_RECORD_VALUE, FX_E_EPD_OPERATION,
        FX_E_EPD_OPCODE

    ctypedef struct fx_error:
        uint32_t code
        uint32_t field
        uint64_t column
        uint32_t a, b, c

    ctypedef enum fx_castling_mode:
        FX_CASTLING_XFEN, FX_CASTLING_SHREDDER

    ctypedef enum fx_ep_mode:
        FX_EP_FEN, FX_EP_XFEN, FX_EP_LEGAL

    ctypedef struct fx_span:
        size_t start
        size_t len

    void fx_init_tables()
    int fx_parse(const uint8_t *text, size_t len, fx_pos *pos, fx_span *placement,
                 int *fields, fx_error *err)
    int fx_parse_epd(const uint8_t *text, size_t len, fx_pos *pos, fx_span *placement,
                     fx_span *operations, fx_error *err)
    size_t fx_write(const fx_pos *pos, fx_castling_mode castling, fx_ep_mode ep, int fields,
                    const uint8_t *placement, size_t placement_len, uint8_t *out)
    int fx_check_record(fx_pos *pos, int max_width, fx_error *err)
    void fx_pos_to_rec8(const fx_pos *pos, void *rec)
    void fx_rec8_to_pos(const void *rec, fx_pos *pos)
    int fx_store_record(const fx_pos *pos, void *dest, int wide, size_t column,
                        fx_error *err)
    int fx_load_record(const void *src, int wide, fx_pos *pos, fx_error *err)


cdef extern from "batch.h" nogil:
    ctypedef enum fx_task:
        FX_NORMALIZE, FX_ENCODE, FX_VALIDATE, FX_NORMALIZE_CELLS

    ctypedef enum fx_stop:
        FX_STOP_DONE, FX_STOP_FAILURE, FX_STOP_TEXT, FX_STOP_FAILURES, FX_STOP_WIDE

    ctypedef struct fx_batch_opts:
        int task, errors, castling, ep, fields, epd, terminators, wide, missing, drop_failures

    ctypedef struct fx_rows:
        const uint8_t *data
        const int64_t *starts
        const int64_t *ends
        size_t itemsize
        int ucs4
        uint8_t *narrow
        const uint8_t *const *texts
        const size_t *lens
        const uint8_t *nulls
        const uint8_t *records
        int64_t first

    ctypedef struct fx_failure:
        int64_t row
        int64_t start, end
        fx_error err

    ctypedef struct fx_batch_out:
        uint8_t *text
        size_t len, cap
        void *ends
        int ends32
        uint8_t *records
        size_t cell
        fx_failure *failures
        size_t n_failures, failures_cap
        int stop
        size_t need

    size_t fx_line_length(const uint8_t *text, size_t len)
    size_t fx_batch_rows(const fx_batch_opts *opts, const fx_rows *rows, size_t start,
                         size_t n, fx_batch_out *out)
    size_t fx_batch_records(const fx_batch_opts *opts, const fx_rows *rows, size_t start,
                            size_t n, fx_batch_out *out)
    int fx_null_record(const fx_error *err, const void *record, size_t size)
