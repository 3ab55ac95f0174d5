/* The .binpack move text of one ply, compiled once per instruction set:
 * the including file defines PLY(name) (a suffix for the names), POPCOUNT
 * and SELECT (fx_select64's contract), and may define GATHER(x, mask) (the
 * bits of x under mask, packed low: PEXT), then includes this file.
 *
 * A ply is the moved piece's index among the side's pieces, the index of
 * its destination among the squares targets() numbers, and the score as a
 * sign-folded difference to minus the previous score, in 4-bit groups,
 * each after a "more" bit. */
#include "emit.h"
#include "legal.h"
#include "make.h"
#include "training.h"

#define BIT(sq) (1ull << (sq))

/* The squares the .binpack move text numbers for the piece on `from`, and
 * how many codes the piece has: a pawn's captures (the en-passant target
 * included) and pushes, four codes each on the last step; a king's steps
 * onto squares without its own pieces, then one code per castling right;
 * any other piece's attacks onto squares without its own pieces. */
static inline uint64_t PLY(targets)(const fx_board *b, int from, int type, unsigned *count,
                                    unsigned *steps)
{
    int us = b->turn;
    uint64_t own = b->pieces[us][FX_ALL], to;
    if (type == FX_PAWN) {
        int up = us ? -8 : 8, ahead = from + up, seventh = us ? 1 : 6;
        uint64_t prey = b->pieces[!us][FX_ALL] | (b->ep < 64 ? BIT(b->ep) : 0);
        to = fx_pawn_attacks[us][from] & prey;
        if (ahead >= 0 && ahead < 64 && !(b->occupied >> ahead & 1)) {
            to |= BIT(ahead);
            if (from / 8 == 7 - seventh && !(b->occupied >> (ahead + up) & 1))
                to |= BIT(ahead + up);
        }
        *steps = (unsigned)POPCOUNT(to);
        *count = *steps * (from / 8 == seventh ? 4 : 1);
        return to;
    }
    to = fx_piece_attacks(type, us, from, b->occupied) & ~own;
    *count = *steps = (unsigned)POPCOUNT(to);
    if (type == FX_KING)
        *count += (b->rook[2 * us] != FX_NONE) + (b->rook[2 * us + 1] != FX_NONE);
    return to;
}

static int PLY(bad)(fx_t_error *err, uint32_t code, uint32_t a, uint32_t b)
{
    err->code = code;
    err->field = code == FX_T_E_SCORE_CODE ? FX_T_F_SCORE : FX_T_F_MOVE;
    err->a = a;
    err->b = b;
    return -1;
}

/* The move coded by the bits at the top of `word` (piece index, then
 * destination index); *used gets the bits read. */
static inline int PLY(decode_move)(const fx_board *b, uint64_t word, unsigned *used, fx_move *m,
                       fx_t_error *err)
{
    int us = b->turn;
    uint64_t own = b->pieces[us][FX_ALL];
    unsigned pieces = (unsigned)POPCOUNT(own), pb = fx_index_bits(pieces);
    unsigned piece = pb ? (unsigned)(word >> (64 - pb)) : 0, count, steps;
    if (piece >= pieces)
        return PLY(bad)(err, FX_T_E_PIECE_INDEX, piece, pieces);
    int from = SELECT(own, piece), type = FX_TYPE_OF(b->sq[from]);
    uint64_t to = PLY(targets)(b, from, type, &count, &steps);
    unsigned mb = fx_index_bits(count), index = mb ? (unsigned)(word << pb >> (64 - mb)) : 0;
    if (index >= count)
        return PLY(bad)(err, FX_T_E_MOVE_INDEX, index, count);
    *used = pb + mb;
    if (type == FX_PAWN && count != steps) {  /* a promotion: four codes a square */
        *m = FX_MOVE(from, SELECT(to, index / 4), FX_MV_PROMO + index % 4);
    } else if (index < steps) {
        int sq = SELECT(to, index);
        *m = FX_MOVE(from, sq, type == FX_PAWN && sq == b->ep ? FX_MV_EP : FX_MV_NORMAL);
    } else {  /* castling: the a-side right first, when the king has it */
        int a_side = index == steps && b->rook[2 * us + 1] != FX_NONE;
        *m = FX_MOVE(from, b->rook[2 * us + a_side], FX_MV_CASTLE);
    }
    return 0;
}

static inline int PLY(fx_bp_decode_ply)(const fx_board *b, const uint8_t *data, size_t len,
                                        uint64_t *bit, int16_t *last_score, fx_move *m,
                                        int16_t *score, fx_t_error *err)
{
    uint64_t word = fx_peek_bits(data, len, *bit);
    unsigned used;
    if (PLY(decode_move)(b, word, &used, m, err))
        return -1;
    /* the score's 4-bit groups, low first, each after a "more" bit: the four
     * a score can have are read at once and kept as far as the bits say,
     * with no branch on their number */
    uint32_t groups = (uint32_t)(word << used >> 44);  /* 20 bits: g0 at the top */
#ifdef GATHER
    /* the "more" bits (more0 at bit 3) and the nibbles (g0's at the top)
     * gathered; the nibbles turned around, g0's to the bottom */
    uint32_t more = (uint32_t)GATHER(groups, 0x84210u), nib = (uint32_t)GATHER(groups, 0x7BDEFu);
    if (more == 15)
        return PLY(bad)(err, FX_T_E_SCORE_CODE, 0, 0);
    unsigned extra = (more >= 8) + (more >= 12) + (more >= 14);
    nib = (nib << 8 | nib >> 8) & 0xFFFF;
    uint32_t v = ((nib & 0x0F0F) << 4 | (nib >> 4 & 0x0F0F)) & ((16u << 4 * extra) - 1);
    used += 5 * (1 + extra);
#else
    uint32_t g0 = groups >> 15, g1 = groups >> 10 & 31, g2 = groups >> 5 & 31, g3 = groups & 31;
    uint32_t more0 = g0 >> 4, more1 = more0 & g1 >> 4, more2 = more1 & g2 >> 4;
    if (more2 & g3 >> 4)
        return PLY(bad)(err, FX_T_E_SCORE_CODE, 0, 0);
    uint32_t v = (g0 & 15) | ((g1 & 15) << 4 & -more0) | ((g2 & 15) << 8 & -more1)
                 | ((g3 & 15) << 12 & -more2);
    used += 5 * (1 + more0 + more1 + more2);
#endif
    if (*bit + used > (uint64_t)len * 8)
        return PLY(bad)(err, FX_T_E_RUNS_OFF, 0, 0);
    *bit += used;
    *score = (int16_t)(*last_score + fx_unfold16((uint16_t)v));
    *last_score = (int16_t)-*score;
    return 0;
}

int PLY(fx_bp_encode_ply)(const fx_board *b, fx_move m, int16_t score, int16_t *last_score,
                     fx_bit_writer *w)
{
    int us = b->turn, from = FX_FROM(m), to_sq = FX_TO(m), kind = FX_KIND(m);
    uint64_t own = b->pieces[us][FX_ALL];
    unsigned count, steps, index, type = FX_TYPE_OF(b->sq[from]);
    uint64_t to = PLY(targets)(b, from, (int)type, &count, &steps);
    if (kind == FX_MV_CASTLE) {
        index = steps - 1 + (b->rook[2 * us + 1] != FX_NONE) + (to_sq > from);
    } else {
        if (!(to >> to_sq & 1))
            return -1;
        index = (unsigned)POPCOUNT(to & (BIT(to_sq) - 1));
        if (type == FX_PAWN && count != steps)
            index = 4 * index + (unsigned)(kind - FX_MV_PROMO);
    }
    /* the ply's bits (at most 5 + 5 + 20) gathered, then written at once */
    unsigned pb = fx_index_bits((unsigned)POPCOUNT(own)), mb = fx_index_bits(count);
    uint32_t bits = (uint32_t)POPCOUNT(own & (BIT(from) - 1)) << mb | index, n = pb + mb;
    uint16_t v = fx_fold16((int16_t)(score - *last_score));
    do {  /* 4-bit groups, each after a "more" bit */
        bits = bits << 5 | (v & 15u) | (uint32_t)(v > 15u) << 4;
        n += 5;
        v >>= 4;
    } while (v);
    if (fx_put_bits(w, bits, n))
        return -1;
    *last_score = (int16_t)-score;
    return 0;
}

int PLY(fx_t_is_legal)(const fx_board *b, fx_move m)
{
    return fx_is_legal_inline(b, m);
}

/* ------------------------------------------------------------ the chain reader */

/* The chain's next ply: play the last move, read the next (inlined into
 * the reader's loop). */
static FX_ALWAYS_INLINE int PLY(next_ply)(fx_bp_reader *r, int check, fx_t_error *err)
{
    fx_t_entry *e = &r->entry;
    uint64_t at = r->bit;
    fx_make_inline(&e->pos, e->move);
    r->index++;
    r->left--;
    e->ply++;
    e->result = (int8_t)-e->result;
    if (PLY(fx_bp_decode_ply)(&e->pos, r->data, r->len, &r->bit, &r->last_score, &e->move,
                         &e->score, err)) {
        r->broken = FX_BP_SKIP_BLOCK;
    } else if (check && !fx_pseudo_is_legal(&e->pos, e->move)) {
        err->code = FX_T_E_ILLEGAL;
        err->field = FX_T_F_MOVE;
        err->a = e->move;
        r->broken = FX_BP_SKIP_MOVES;
    } else {
        if (!r->left)
            r->offset = (size_t)((r->bit + 7) / 8);
        return 0;
    }
    err->offset = (size_t)(at / 8);
    err->chain = r->chain;
    err->entry = r->index;
    err->value = e->ply;
    return -1;
}

int PLY(fx_bp_next_ply)(fx_bp_reader *r, int check, fx_t_error *err)
{
    return PLY(next_ply)(r, check, err);
}

size_t PLY(fx_bp_read)(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n, fx_t_error *err)
{
    size_t n = 0;
    int quick = fx_t_quick_columns(c);
    while (n < max_n && !r->done) {
        if (r->left) {
            if (PLY(next_ply)(r, 1, err))
                return n;
        } else if (r->offset >= r->len) {
            r->done = 1;
            break;
        } else if (fx_bp_read_head(r, err)) {
            return n;
        }
        if (quick && !r->odd) {
            fx_t_emit_quick(c, row + n, &r->entry, r->chain, 1);
        } else if (fx_t_emit(c, row + n, &r->entry, r->chain, r->odd, err)) {
            err->value = r->entry.ply;
            err->offset = r->offset;
            err->chain = r->chain;
            err->entry = r->index;
            r->broken = FX_BP_SKIP_MOVES;
            return n;
        }
        n++;
    }
    return n;
}
