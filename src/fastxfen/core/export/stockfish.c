/* Stockfish's 24-byte compressed position (export.h). */
#include "packed.h"

int fx_x_stockfish_pack(const fx_pos *pos, fx_ep_mode ep, uint8_t *out, fx_error *err)
{
    int black_king;
    if (need_width(pos, 8, err) || check_prefix(pos, err))
        return -1;
    for (int slot = 0; slot < 4; slot++) {
        uint8_t f = pos->castling[slot];
        if (f != FX_NONE && f != 0 && f != 7)
            return fx_x_fail(err, FX_X_E_CASTLING_ROOK, FX_F_RECORD_CASTLING, (uint64_t)slot, f, 0);
    }
    memset(out, 0, FX_X_STOCKFISH_SIZE);
    int n = pack_board(pos, pushed_pawn(pos, ep), castling_rook_bits8(pos), 32, out, &black_king);
    if (n > 32)
        return fx_x_fail(err, FX_X_E_TOO_MANY, FX_F_RECORD_BOARD, 0, (uint32_t)n, 32);
    if (pos->turn == FX_BLACK && !black_king)
        return fx_x_fail(err, FX_X_E_NO_BLACK_KING, FX_F_RECORD_TURN, 0, 0, 0);
    return 0;
}

int fx_x_stockfish_unpack(const uint8_t *in, fx_pos *pos, fx_error *err)
{
    uint8_t flags[16];
    size_t n_flags;
    uint64_t occupied = get_be64(in);
    int n = count(occupied);
    clear_pos(pos, 8);
    if (n > 32)
        return fx_x_fail(err, FX_X_E_TOO_MANY, FX_X_F_STOCKFISH, 0, (uint32_t)n, 32);
    if (unpack_board(in, occupied, n, pos, 1, flags, &n_flags, err))
        return -1;
    settle_unpacked(pos, flags, n_flags);
    return 0;
}

size_t fx_x_stockfish_pack_batch(const fx_x_records *recs, size_t n, uint8_t *out,
                                 const fx_batch_opts *opts, fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        uint8_t *dest = out + FX_X_STOCKFISH_SIZE * i;
        if (load_record(recs, i, &pos, &err)
            || fx_x_stockfish_pack(&pos, (fx_ep_mode)opts->ep, dest, &err)) {
            memset(dest, 0, FX_X_STOCKFISH_SIZE);
            FAILED(i);
        }
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_stockfish_unpack_batch(const uint8_t *data, size_t n, const fx_x_defaults *d,
                                   uint8_t *records, const fx_batch_opts *opts,
                                   fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        uint8_t *dest = records + sizeof(fx_rec8) * i;
        if (fx_x_stockfish_unpack(data + FX_X_STOCKFISH_SIZE * i, &pos, &err) == 0) {
            if (d->halfmove)
                pos.halfmove = d->halfmove[i * d->halfmove_step];
            if (d->fullmove)
                pos.fullmove = d->fullmove[i * d->fullmove_step];
            store(&pos, dest, 0);
            continue;
        }
        memset(dest, 0, sizeof(fx_rec8));
        FAILED(i);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

