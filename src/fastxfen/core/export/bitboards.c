/* Bitboards: 12 per 8x8 position, and back (export.h). */
#include "shared.h"

void fx_x_bitboards(const fx_pos *pos, uint64_t out[12])
{
    board_bitboards8(pos->board, out);
}

/* The board of 12 bitboards into pos->board (width 8, other fields left
 * alone).  Fails when two bitboards share a square. */
static int board_from_bitboards(const uint64_t bb[12], fx_pos *pos, fx_error *err)
{
    uint64_t seen = 0;
    memset(pos->board, 0, sizeof pos->board);
    pos->width = 8;
    for (int k = 0; k < 12; k++) {
        uint64_t clash = seen & bb[k];
        if (clash) {
            int sq = lowest(clash);
            int first = 0;
            while (!((bb[first] >> sq) & 1))
                first++;
            return fx_x_fail(err, FX_X_E_OVERLAP, FX_X_F_BITBOARDS, (uint64_t)sq,
                             (uint32_t)first, (uint32_t)k);
        }
        seen |= bb[k];
        for (uint64_t b = bb[k]; b; b &= b - 1)
            pos->board[lowest(b)] = (uint8_t)(k + 1);
    }
    return 0;
}

size_t fx_x_bitboards_batch(const fx_x_records *recs, size_t n, uint64_t *out,
                            const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        if (load_record(recs, i, &pos, &err) || need_width(&pos, 8, &err)) {
            memset(out + 12 * i, 0, 12 * sizeof *out);
            FAILED(i);
            continue;
        }
        fx_x_bitboards(&pos, out + 12 * i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_from_bitboards_batch(const uint64_t *bb, size_t n, const fx_x_defaults *d,
                                 uint8_t *records, const fx_batch_opts *opts,
                                 fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        clear_pos(&pos, 8);
        defaults_before(&pos, d, i);
        if (board_from_bitboards(bb + 12 * i, &pos, &err) == 0) {
            default_castling(&pos, d, i);
            if (fx_check_record(&pos, 8, &err) == 0) {
                store(&pos, records + sizeof(fx_rec8) * i, 0);
                continue;
            }
        }
        memset(records + sizeof(fx_rec8) * i, 0, sizeof(fx_rec8));
        FAILED(i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}
