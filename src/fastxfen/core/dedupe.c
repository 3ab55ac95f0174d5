/* The exact set of distinct positions behind fastxfen.unique and Deduper:
 * keys find candidates, packed bytes decide. */
#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

#define FIRST_SLOTS 1024
#define FIRST_ARENA 65536

/* Fields (8 bytes), board (4 bits a square on 8-wide boards, whose codes
 * are 0..12; 5 bits on 10-wide ones, codes 0..16), then the counters if
 * they count.  Byte 0 is the width, so boards of two widths never compare
 * equal.  Returns the length written (at most FX_PACKED_MAX). */
static size_t pack(const fx_pos *pos, int counters, uint8_t *out)
{
    size_t n = 0;
    out[n++] = pos->width;
    out[n++] = pos->turn;
    out[n++] = pos->prefix;
    out[n++] = pos->ep;
    memcpy(out + n, pos->castling, 4);
    n += 4;
    if (pos->width == 8) {
        for (int sq = 0; sq < 64; sq += 2)
            out[n++] = (uint8_t)(pos->board[sq] | pos->board[sq + 1] << 4);
    } else {
        uint32_t bits = 0;
        int held = 0;
        for (int sq = 0; sq < FX_MAX_SQUARES; sq++) {
            bits |= (uint32_t)pos->board[sq] << held;
            held += 5;
            while (held >= 8) {
                out[n++] = (uint8_t)bits;
                bits >>= 8;
                held -= 8;
            }
        }
    }
    if (counters) {
        memcpy(out + n, &pos->halfmove, 4);
        memcpy(out + n + 4, &pos->fullmove, 4);
        n += 8;
    }
    return n;
}

/* The position as it is compared: en passant as the mode keeps it, the
 * counters zeroed unless they count. */
static void canonical(fx_pos *pos, const fx_same *same)
{
    if (!fx_ep_keep(pos, same->ep))
        pos->ep = FX_NONE;
    if (!same->counters)
        pos->halfmove = pos->fullmove = 0;
}

int fx_dedupe_init(fx_dedupe *d, const fx_same *same, uint64_t key_mask)
{
    memset(d, 0, sizeof *d);
    d->slots = calloc(FIRST_SLOTS, sizeof *d->slots);
    d->arena = malloc(FIRST_ARENA);
    if (!d->slots || !d->arena) {
        fx_dedupe_free(d);
        return -1;
    }
    d->mask = FIRST_SLOTS - 1;
    d->cap = FIRST_ARENA;
    d->key_mask = key_mask;
    d->same = *same;
    return 0;
}

void fx_dedupe_free(fx_dedupe *d)
{
    free(d->slots);
    free(d->arena);
    d->slots = NULL;
    d->arena = NULL;
    d->mask = d->count = d->used = d->cap = 0;
}

size_t fx_dedupe_bytes(const fx_dedupe *d)
{
    return (d->slots ? (d->mask + 1) * sizeof *d->slots : 0) + d->cap;
}

/* Twice the slots, every entry moved to its place in the new table. */
static int grow_slots(fx_dedupe *d)
{
    size_t count = (d->mask + 1) * 2, mask = count - 1;
    fx_slot *slots = calloc(count, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i <= d->mask; i++) {
        fx_slot s = d->slots[i];
        if (!s.ref)
            continue;
        size_t at = s.key & mask;
        while (slots[at].ref)
            at = (at + 1) & mask;
        slots[at] = s;
    }
    free(d->slots);
    d->slots = slots;
    d->mask = mask;
    return 0;
}

/* Room for one more packed position: the arena grows by half. */
static int reserve(fx_dedupe *d)
{
    if (d->cap - d->used >= FX_PACKED_MAX)
        return 0;
    size_t cap = d->cap + d->cap / 2 + FX_PACKED_MAX;
    uint8_t *arena = realloc(d->arena, cap);
    if (!arena)
        return -1;
    d->arena = arena;
    d->cap = cap;
    return 0;
}

/* splitmix64's finalizer: the counters spread over 64 bits. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The table's key: the Zobrist key, and the counters when they count (else
 * one position at many move numbers would make one long run of slots). */
static uint64_t table_key(const fx_dedupe *d, const fx_pos *pos)
{
    uint64_t key = fx_zobrist(pos);
    if (d->same.counters)
        key ^= mix(((uint64_t)pos->fullmove << 32 | pos->halfmove) + 0x9E3779B97F4A7C15ull);
    return key & d->key_mask;
}

/* 1 if the position is new (then stored), 0 if held already, -1 out of memory. */
static int insert(fx_dedupe *d, const fx_pos *pos)
{
    uint8_t packed[FX_PACKED_MAX];
    size_t len = pack(pos, d->same.counters, packed);
    uint64_t key = table_key(d, pos);
    size_t at = key & d->mask;
    for (;;) {
        fx_slot s = d->slots[at];
        if (!s.ref)
            break;
        if (s.key == key) {
            const uint8_t *held = d->arena + (s.ref - 1);
            /* byte 0 (the width) fixes the length: compare it first */
            if (held[0] == packed[0] && memcmp(held, packed, len) == 0)
                return 0;
        }
        at = (at + 1) & d->mask;
    }
    if (reserve(d))
        return -1;
    if ((d->count + 1) * 10 > (d->mask + 1) * 7) {  /* at most 70 % full */
        if (grow_slots(d))
            return -1;
        at = key & d->mask;
        while (d->slots[at].ref)
            at = (at + 1) & d->mask;
    }
    memcpy(d->arena + d->used, packed, len);
    d->slots[at].key = key;
    d->slots[at].ref = d->used + 1;
    d->used += len;
    d->count++;
    return 1;
}

int64_t fx_dedupe_add(fx_dedupe *d, const fx_key_records *recs, size_t n, uint8_t *first,
                      fx_error *err)
{
    fx_pos pos;
    for (size_t i = 0; i < n; i++) {
        int got = fx_load_any(recs, i, &pos, err);
        first[i] = 0;
        if (got < 0 && !recs->coerce)
            return (int64_t)i;
        if (got <= 0)
            continue;
        canonical(&pos, &d->same);
        int fresh = insert(d, &pos);
        if (fresh < 0)
            return -2;
        first[i] = (uint8_t)fresh;
    }
    return -1;
}
