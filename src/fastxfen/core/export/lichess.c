/* The lichess binary FEN, and streams of it framed by length (export.h). */
#include "packed.h"

static size_t put_leb128(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v > 127) {
        out[n++] = (uint8_t)(v | 128);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

int fx_x_lichess_pack(const fx_pos *pos, fx_ep_mode ep, uint8_t *out, fx_error *err)
{
    int black_king;
    if (need_width(pos, 8, err) || check_prefix(pos, err))
        return -1;
    int n = pack_board(pos, pushed_pawn(pos, ep), castling_rook_bits8(pos), 64, out, &black_king);
    size_t len = 8 + (size_t)(n + 1) / 2;
    uint64_t ply = 2 * (uint64_t)(pos->fullmove - 1) + pos->turn;
    int broken_turn = pos->turn == FX_BLACK && !black_king;
    if (pos->halfmove > 0 || ply > 1 || broken_turn)
        len += put_leb128(out + len, pos->halfmove);
    if (ply > 1 || broken_turn)
        len += put_leb128(out + len, ply);
    while (len && out[len - 1] == 0)
        len--;
    return (int)len;
}

/* Read a little-endian base-128 number of at most 5 bytes at *at. */
static int get_leb128(const uint8_t *in, size_t *at, uint64_t *value, fx_error *err)
{
    uint64_t v = 0;
    size_t start = *at;
    for (int k = 0; k < 5; k++) {
        uint8_t byte = in[(*at)++];
        v |= (uint64_t)(byte & 127) << (7 * k);
        if (!(byte & 128)) {
            *value = v;
            return 0;
        }
    }
    return fx_x_fail(err, FX_X_E_VARINT, FX_X_F_LICHESS, start, 0, 0);
}

int fx_x_lichess_unpack(const uint8_t *in, size_t len, fx_pos *pos, fx_error *err)
{
    /* Missing bytes at the end read as zero. */
    uint8_t buf[FX_X_LICHESS_READ_MAX + 16];
    uint8_t flags[16];
    size_t n_flags, at;
    uint64_t halfmove = 0, ply = 0;
    if (len > FX_X_LICHESS_READ_MAX)
        return fx_x_fail(err, FX_X_E_LENGTH, FX_X_F_LICHESS, FX_X_LICHESS_READ_MAX,
                         (uint32_t)(len > 0xFFFFFFFFu ? 0xFFFFFFFFu : len), FX_X_LICHESS_READ_MAX);
    memset(buf, 0, sizeof buf);
    if (len)
        memcpy(buf, in, len);
    clear_pos(pos, 8);
    uint64_t occupied = get_be64(buf);
    int n = count(occupied);
    if (unpack_board(buf, occupied, n, pos, 0, flags, &n_flags, err))
        return -1;
    at = 8 + (size_t)(n + 1) / 2;
    size_t start = at;
    if (get_leb128(buf, &at, &halfmove, err))
        return -1;
    if (halfmove > FX_MAX_COUNTER)
        return fx_x_fail(err, FX_X_E_RANGE, FX_X_F_LICHESS, start, 0, 0);
    start = at;
    if (get_leb128(buf, &at, &ply, err))
        return -1;
    if (ply / 2 + 1 > FX_MAX_COUNTER)
        return fx_x_fail(err, FX_X_E_RANGE, FX_X_F_LICHESS, start, 1, 0);
    uint8_t variant = buf[at];
    if (variant != 0 && variant != 2 && variant != 3)
        return fx_x_fail(err, FX_X_E_VARIANT, FX_X_F_LICHESS, at, variant, 0);
    for (at++; at < len; at++)
        if (buf[at])
            return fx_x_fail(err, FX_X_E_TRAILING, FX_X_F_LICHESS, at, buf[at], 0);
    pos->halfmove = (uint32_t)halfmove;
    pos->fullmove = (uint32_t)(ply / 2 + 1);
    if (ply & 1)
        pos->turn = FX_BLACK;
    settle_unpacked(pos, flags, n_flags);
    return 0;
}

int64_t fx_x_frames(const uint8_t *data, size_t len, size_t max_n, int64_t *starts,
                    int64_t *ends, uint8_t *nulls, size_t *used)
{
    size_t at = 0, n = 0;
    while (n < max_n && at < len) {
        uint8_t size = data[at];
        if (size == FX_X_FRAME_NULL) {
            starts[n] = ends[n] = (int64_t)(at + 1);
            nulls[n++] = 1;
            at++;
            continue;
        }
        if (size > FX_X_LICHESS_READ_MAX) {
            *used = at;
            return -1;
        }
        if (len - at - 1 < size)
            break;
        starts[n] = (int64_t)(at + 1);
        ends[n] = (int64_t)(at + 1 + size);
        nulls[n++] = 0;
        at += 1 + (size_t)size;
    }
    *used = at;
    return (int64_t)n;
}

size_t fx_x_lichess_pack_batch(const fx_x_records *recs, size_t n, uint8_t *data,
                               int64_t *ends, uint8_t *valid, const fx_batch_opts *opts,
                               fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    int64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        int len = -1;
        if (load_record(recs, i, &pos, &err) == 0)
            len = fx_x_lichess_pack(&pos, (fx_ep_mode)opts->ep, data + at, &err);
        valid[i] = len >= 0;
        ends[i] = at + (len > 0 ? len : 0);
        if (len < 0)
            FAILED(i);
        at = ends[i];
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}

size_t fx_x_lichess_unpack_batch(const uint8_t *data, const int64_t *starts,
                                 const int64_t *ends, const uint8_t *nulls, size_t n,
                                 uint8_t *records, const fx_batch_opts *opts,
                                 fx_batch_out *res)
{
    fx_pos pos;
    fx_error err;
    for (size_t i = 0; i < n; i++) {
        uint8_t *dest = records + sizeof(fx_rec8) * i;
        if (nulls && nulls[i]) {
            memset(dest, 0, sizeof(fx_rec8));
            continue;
        }
        if (fx_x_lichess_unpack(data + starts[i], (size_t)(ends[i] - starts[i]), &pos, &err)) {
            memset(dest, 0, sizeof(fx_rec8));
            FAILED(i);
            continue;
        }
        store(&pos, dest, 0);
    }
    return fx_batch_stop(res, FX_STOP_DONE, n);
}
