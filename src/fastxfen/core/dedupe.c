/* The exact set of distinct positions (dedupe.h): packed positions in one
 * arena per width, found through an index of 64-byte groups of tagged
 * slots.  Hashes only find candidates; packed bytes decide. */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "bits.h"
#include "dedupe.h"

#define FIRST_GROUPS 16         /* 192 slots, 1 KB */
#define FIRST_ENTRIES 256
#define WIDE_REF 0x80000000u    /* a reference's bit for the 10-wide arena */
#define MAX_ENTRIES 0x7FFFFFFFu /* entries an arena can number */
/* Rows are packed and their home group fetched this many rows before their
 * turn; at half the distance the entry of their first candidate is
 * fetched, so a row's lookup finds both in the cache. */
#define AHEAD 32
#define SLACK 64 /* bytes copied into an arena per entry (its size at most) */

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#elif defined(FX_SSE2)
#define PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* Inlined whatever the compiler's estimate: the loops over rows are
 * written once and specialized by their constant arguments. */
#if defined(_MSC_VER) && !defined(__clang__)
#define HOT static __forceinline
#else
#define HOT static inline __attribute__((always_inline))
#endif

_Static_assert(sizeof(fx_group) == 64, "a group is one cache line");
_Static_assert(FX_PACKED_MAX <= SLACK, "an entry fits the bytes copied");

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* ------------------------------------------------------------ packing */

/* The fields word: bit 0 a 10-wide board, bit 1 black to move, bits 2-3
 * the prefix, bits 4-10 the en-passant square (127: none), then 4 bits per
 * castling slot (the rook's file, 15: none).  FX_NONE (255) keeps its low
 * bits: 127 as a square, 15 as a file. */
static inline uint32_t fields(const fx_pos *pos, uint8_t ep)
{
    uint32_t files;
    memcpy(&files, pos->castling, 4);
    files &= 0x0F0F0F0Fu;
    files = (files | files >> 4) & 0x00FF00FFu;
    files = (files | files >> 8) & 0xFFFFu;
    return (uint32_t)(pos->width == 10) | (uint32_t)pos->turn << 1 | (uint32_t)pos->prefix << 2
           | (uint32_t)(ep & 127) << 4 | files << 11;
}

/* Packing writes its bytes in stores that start at multiples of 8 and
 * cover whole words, so that each word the hash reads right after comes
 * from one store (a load across two stores waits for both to reach the
 * cache: a stall of a dozen cycles or more, once per row). */

/* An 8-wide position: the fields, 64 squares (codes 0..12) at 4 bits,
 * square 2k in the low half of board byte k, then the counters (0 when
 * they do not count).  Writes 48 bytes. */
static inline void pack8(const fx_pos *pos, uint32_t f, uint32_t half, uint32_t full,
                         uint8_t *out)
{
#ifdef FX_SSE2
    /* in each 16-bit lane (low square | high square << 8), lane | lane >> 4
     * holds low | high << 4 in its low byte */
    const __m128i low = _mm_set1_epi16(0x00FF);
    __m128i v[4];
    for (int k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(pos->board + 16 * k));
        v[k] = _mm_and_si128(_mm_or_si128(x, _mm_srli_epi16(x, 4)), low);
    }
    __m128i b0 = _mm_packus_epi16(v[0], v[1]), b1 = _mm_packus_epi16(v[2], v[3]);
    __m128i tail = _mm_set_epi32(0, (int)full, (int)half, 0);
    _mm_storeu_si128((__m128i *)out, _mm_or_si128(_mm_slli_si128(b0, 4), _mm_cvtsi32_si128((int)f)));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_or_si128(_mm_srli_si128(b0, 12), _mm_slli_si128(b1, 4)));
    _mm_storeu_si128((__m128i *)(out + 32), _mm_or_si128(_mm_srli_si128(b1, 12), tail));
#else
    uint8_t bytes[48] = {0};
    memcpy(bytes, &f, 4);
    for (int sq = 0; sq < 64; sq += 2)
        bytes[4 + sq / 2] = (uint8_t)(pos->board[sq] | pos->board[sq + 1] << 4);
    memcpy(bytes + 36, &half, 4);
    memcpy(bytes + 40, &full, 4);
    memcpy(out, bytes, 48);
#endif
}

/* A 10-wide position as a stream of bits: the fields (32), 80 squares
 * (codes 0..16) at 5 bits, then the counters (64; 0 when they do not
 * count), built in 8 words and stored whole. */
static inline void pack10(const fx_pos *pos, uint32_t f, uint32_t half, uint32_t full,
                          uint8_t *out)
{
    uint64_t w[8] = {f};
    for (int k = 0; k < 10; k++) {
        /* 8 squares gathered into the low 40 bits of x */
        uint64_t x = load64(pos->board + 8 * k);
        x = (x & 0x001F001F001F001Full) | (x & 0x1F001F001F001F00ull) >> 3;
        x = (x & 0x000003FF000003FFull) | (x & 0x03FF000003FF0000ull) >> 6;
        x = (x & 0x00000000000FFFFFull) | (x & 0x000FFFFF00000000ull) >> 12;
        int at = 32 + 40 * k, o = at % 64;
        w[at / 64] |= x << o;
        if (o > 24)
            w[at / 64 + 1] |= x >> (64 - o);
    }
    uint64_t counters = (uint64_t)half | (uint64_t)full << 32; /* at bit 432 */
    w[6] |= counters << 48;
    w[7] = counters >> 16;
    memcpy(out, w, sizeof w);
}

/* A position's packed bytes into out (64 bytes of room), as a set
 * compares it: the en-passant target only if mode keeps it, the counters
 * only if they count.  Returns 1 for a 10-wide board, else 0. */
static inline int pack(const fx_pos *pos, fx_ep_mode mode, int counters, uint8_t *out)
{
    uint8_t ep = pos->ep;
    if (ep != FX_NONE && !fx_ep_keep(pos, mode))
        ep = FX_NONE;
    uint32_t f = fields(pos, ep);
    uint32_t half = counters ? pos->halfmove : 0, full = counters ? pos->fullmove : 0;
    int wide = pos->width == 10;
    if (wide)
        pack10(pos, f, half, full, out);
    else
        pack8(pos, f, half, full, out);
    return wide;
}

/* The first n bytes (1 to 7) of a word loaded from memory, the others 0
 * (bits.h: a little-endian machine). */
static inline uint64_t head(uint64_t word, size_t n)
{
    return word & ((1ull << 8 * n) - 1);
}

/* A hash of an entry's `size` bytes (not a multiple of 8; 8 bytes are
 * readable from its last word): each word xored in and multiplied (so far
 * every bit has reached only the bits above it); then the high half folded
 * onto the low one twice, so that the index (low bits) and the tag (the
 * top byte) each depend on every byte. */
static inline uint64_t hash_bytes(const uint8_t *e, size_t size)
{
    const uint64_t odd = 0x9E3779B97F4A7C15ull;
    uint64_t h = size;
    size_t at = 0;
    for (; at + 8 <= size; at += 8)
        h = (h ^ load64(e + at)) * odd;
    h = (h ^ head(load64(e + at), size - at)) * odd;
    h = (h ^ (h >> 32)) * 0xD6E8FEB86659FD93ull;
    return h ^ (h >> 32);
}

/* Whether two entries of `size` bytes are equal (read as hash_bytes reads). */
static inline int same_bytes(const uint8_t *a, const uint8_t *b, size_t size)
{
    uint64_t diff = 0;
    size_t at = 0;
    for (; at + 8 <= size; at += 8)
        diff |= load64(a + at) ^ load64(b + at);
    return (diff | head(load64(a + at) ^ load64(b + at), size - at)) == 0;
}

/* The same for an entry of one of the four sizes, each a constant, so
 * that the loops unroll. */
#define BY_SIZE(call, size)                                          \
    ((size) == 36 ? call(36) : (size) == 44 ? call(44) : (size) == 54 ? call(54) : call(62))

static inline int same_entry(const uint8_t *a, const uint8_t *b, size_t size)
{
#define SAME(k) same_bytes(a, b, k)
    return BY_SIZE(SAME, size);
#undef SAME
}

/* ------------------------------------------------------------ the index */

/* A slot's tag: the hash's top byte, never 0 (an empty slot). */
static inline uint8_t tag_of(uint64_t hash)
{
    uint8_t tag = (uint8_t)(hash >> 56);
    return tag ? tag : 1;
}

/* The slots of a group whose tag is `tag`, as a bit set. */
static inline uint32_t slots_with(const fx_group *g, uint8_t tag)
{
#ifdef FX_SSE2
    __m128i tags = _mm_load_si128((const __m128i *)g->tags);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(tags, _mm_set1_epi8((char)tag))) & 0xFFF;
#else
    return (fx_equal8(g->tags, tag) | fx_equal8(g->tags + 8, tag) << 8) & 0xFFF;
#endif
}

static inline const uint8_t *entry(const fx_dedupe *d, uint32_t ref)
{
    const fx_arena *a = &d->arenas[ref >> 31];
    return a->data + (size_t)(ref & MAX_ENTRIES) * a->size;
}

static inline uint32_t ref_of(int wide, size_t index)
{
    return (uint32_t)index | (wide ? WIDE_REF : 0);
}

/* Put ref in the first free slot from its hash's home group. */
static void place(fx_dedupe *d, uint64_t hash, uint32_t ref)
{
    for (size_t g = hash & d->mask;; g = (g + 1) & d->mask) {
        fx_group *grp = &d->groups[g];
        uint32_t open = slots_with(grp, 0);
        if (open) {
            int slot = fx_ctz64(open);
            grp->tags[slot] = tag_of(hash);
            grp->refs[slot] = ref;
            return;
        }
    }
}

/* Place entries [0, n) of an arena of `size`-byte entries: hashes are
 * computed AHEAD entries early and their groups fetched. */
HOT void reindex_arena(fx_dedupe *d, int wide, size_t n, const size_t size)
{
    const uint8_t *data = d->arenas[wide].data;
    uint64_t ahead[AHEAD];
    for (size_t i = 0; i < n + AHEAD; i++) {
        if (i >= AHEAD)
            place(d, ahead[i % AHEAD], ref_of(wide, i - AHEAD));
        if (i < n) {
            uint64_t h = hash_bytes(data + i * size, size) & d->key_mask;
            ahead[i % AHEAD] = h;
            PREFETCH(&d->groups[h & d->mask]);
        }
    }
}

/* Place the first counts[w] entries of each arena in the index, which
 * holds none. */
static void reindex(fx_dedupe *d, const size_t counts[2])
{
    for (int wide = 0; wide < 2; wide++) {
#define REINDEX(k) reindex_arena(d, wide, counts[wide], k)
        BY_SIZE(REINDEX, d->arenas[wide].size);
#undef REINDEX
    }
}

/* `groups` zeroed groups, 64-byte aligned inside *block, in d. */
static int new_groups(fx_dedupe *d, size_t groups)
{
    void *block = calloc(groups * sizeof(fx_group) + 64, 1);
    if (block == NULL)
        return -1;
    fx_advise_huge(block, groups * sizeof(fx_group) + 64);
    free(d->block);
    d->block = block;
    d->groups = (fx_group *)(((uintptr_t)block + 63) & ~(uintptr_t)63);
    d->mask = groups - 1;
    d->limit = groups * FX_GROUP_SLOTS * 4 / 5; /* at most 4/5 of the slots full */
    return 0;
}

/* Room for more entries: a quarter more (realloc moves large blocks by
 * remapping pages, without copying, where the system can), and SLACK bytes
 * past the last, so that an entry is always copied in as 64 bytes. */
static int grow_arena(fx_arena *a)
{
    if (a->cap >= MAX_ENTRIES)
        return -1;
    size_t cap = a->cap < FIRST_ENTRIES ? FIRST_ENTRIES : a->cap + a->cap / 4;
    if (cap > MAX_ENTRIES)
        cap = MAX_ENTRIES;
    uint8_t *data = realloc(a->data, cap * a->size + SLACK);
    if (data == NULL)
        return -1;
    fx_advise_huge(data, cap * a->size + SLACK);
    a->data = data;
    a->cap = cap;
    return 0;
}

/* Append a new entry to its arena; its reference. */
static inline uint32_t append(fx_dedupe *d, const uint8_t *packed, int wide)
{
    fx_arena *a = &d->arenas[wide];
    uint32_t ref = ref_of(wide, a->count);
    memcpy(a->data + a->count * a->size, packed, SLACK);
    a->count++;
    d->count++;
    return ref;
}

/* The groups a full index grows to: twice as many, or up to 8 times when
 * the rows still to come in this call, new at the rate seen so far, would
 * fill twice as many (each growth places every entry anew). */
static size_t next_groups(const fx_dedupe *d)
{
    size_t groups = (d->mask + 1) * 2;
    size_t seen = d->call.row + 1, fresh = d->count - d->call.count + 1;
    double coming = (double)(d->call.rows - seen) * (double)fresh / (double)seen;
    while (groups < (d->mask + 1) * 8
           && (double)groups * FX_GROUP_SLOTS * 4 / 5 < (double)d->count + coming)
        groups *= 2;
    return groups;
}

/* Store a new position when its arena or the index is full: room made
 * first (more groups, every entry placed anew), then the entry.  1, or -1
 * when memory ran out (then nothing changed). */
static int store_grown(fx_dedupe *d, const uint8_t *packed, int wide, uint64_t hash)
{
    fx_arena *a = &d->arenas[wide];
    if (a->count == a->cap && grow_arena(a))
        return -1;
    if (d->count >= d->limit) {
        if (new_groups(d, next_groups(d)))
            return -1;
        size_t counts[2] = {d->arenas[0].count, d->arenas[1].count};
        reindex(d, counts);
    }
    place(d, hash, append(d, packed, wide));
    return 1;
}

/* Look a packed position up and store it if it is new: 1 if new, 0 if
 * held already, -1 when memory ran out (then nothing changed). */
HOT int insert(fx_dedupe *d, const uint8_t *packed, int wide, uint64_t hash)
{
    size_t size = d->arenas[wide].size;
    uint8_t tag = tag_of(hash);
    size_t g = hash & d->mask;
    uint32_t open;
    for (;; g = (g + 1) & d->mask) {
        fx_group *grp = &d->groups[g];
        for (uint32_t m = slots_with(grp, tag); m; m &= m - 1) {
            uint32_t ref = grp->refs[fx_ctz64(m)];
            if ((ref >> 31) == (uint32_t)wide && same_entry(entry(d, ref), packed, size))
                return 0;
        }
        if ((open = slots_with(grp, 0)) != 0)
            break;
    }
    if (d->arenas[wide].count == d->arenas[wide].cap || d->count >= d->limit)
        return store_grown(d, packed, wide, hash);
    int slot = fx_ctz64(open);
    d->groups[g].tags[slot] = tag;
    d->groups[g].refs[slot] = append(d, packed, wide);
    return 1;
}

/* ------------------------------------------------------------ the set */

int fx_dedupe_init(fx_dedupe *d, const fx_same *same, uint64_t key_mask)
{
    memset(d, 0, sizeof *d);
    if (new_groups(d, FIRST_GROUPS))
        return -1;
    d->key_mask = key_mask;
    d->same = *same;
    size_t counters = same->counters ? 8 : 0;
    d->arenas[0].size = 4 + 32 + counters;
    d->arenas[1].size = 4 + 50 + counters;
    return 0;
}

void fx_dedupe_free(fx_dedupe *d)
{
    free(d->block);
    free(d->arenas[0].data);
    free(d->arenas[1].data);
    memset(d, 0, sizeof *d);
}

size_t fx_dedupe_bytes(const fx_dedupe *d)
{
    size_t bytes = d->block ? (d->mask + 1) * sizeof(fx_group) : 0;
    for (int wide = 0; wide < 2; wide++)
        if (d->arenas[wide].data)
            bytes += d->arenas[wide].cap * d->arenas[wide].size + SLACK;
    return bytes;
}

/* A row on its way: packed and hashed AHEAD rows before its turn, and
 * given the first candidate of its home group AHEAD / 2 rows before it. */
typedef struct {
    uint64_t hash;
    uint32_t candidate; /* a reference whose slot has the row's tag, or NO_REF */
    uint8_t held;       /* a position (else a null or coerced row) */
    uint8_t wide;
    uint8_t packed[SLACK];     /* the entry, and room for pack's whole stores */
} staged;

#define NO_REF 0xFFFFFFFFu /* never an entry: MAX_ENTRIES is no index */
/* The size of an entry, a constant where wide and counters are. */
#define SIZE(wide, counters) (((wide) ? 54 : 36) + 8 * (counters))

/* Load row i, pack and hash it, and fetch its home group.  Returns -1 for
 * a refused row that stops the call (*err filled), else 0.  Records from
 * the reader in the 96-byte layout (in_place) are read where they are. */
HOT int stage(const fx_dedupe *d, const fx_key_records *recs, int in_place, size_t i,
              staged *s, fx_error *err, const int counters)
{
    fx_pos copy;
    const fx_pos *pos = &copy;
    s->candidate = NO_REF;
    if (in_place) {
        const uint8_t *rec = recs->base + i * recs->stride;
        s->held = rec[FX_MAX_SQUARES] != 0; /* the width: 0 only in the null record */
        pos = (const fx_pos *)rec;
    } else {
        int got = fx_load_any(recs, i, &copy, err);
        s->held = got > 0;
        if (got < 0 && !recs->coerce)
            return -1;
    }
    if (!s->held)
        return 0;
    s->wide = (uint8_t)pack(pos, d->same.ep, counters, s->packed);
    uint64_t h = s->wide ? hash_bytes(s->packed, SIZE(1, counters))
                         : hash_bytes(s->packed, SIZE(0, counters));
    s->hash = h & d->key_mask;
    PREFETCH(&d->groups[s->hash & d->mask]);
    return 0;
}

/* A staged row's first candidate (its home group having been fetched when
 * the row was staged), or NO_REF. */
static inline uint32_t candidate(const fx_dedupe *d, const staged *s)
{
    const fx_group *grp = &d->groups[s->hash & d->mask];
    uint32_t m = slots_with(grp, tag_of(s->hash));
    return m ? grp->refs[fx_ctz64(m)] : NO_REF;
}

/* A staged row at its turn: 1 if its position is new (then stored), 0 if
 * not or if it holds none, -1 when memory ran out.  A candidate with the
 * same bytes settles it without looking again: entries never move. */
HOT int settle(fx_dedupe *d, const staged *s, const int counters)
{
    if (!s->held)
        return 0;
    uint32_t ref = s->candidate;
    if (ref != NO_REF && (ref >> 31) == s->wide) {
        const uint8_t *e = entry(d, ref);
        if (s->wide ? same_bytes(e, s->packed, SIZE(1, counters))
                    : same_bytes(e, s->packed, SIZE(0, counters)))
            return 0;
    }
    return insert(d, s->packed, s->wide, s->hash);
}

/* fx_dedupe_add for counters fixed (0 or 1), so that entry sizes are
 * constants. */
HOT int64_t add_rows(fx_dedupe *d, const fx_key_records *recs, size_t n, uint8_t *first,
                     fx_error *err, const int counters)
{
    staged ring[AHEAD];
    size_t stop = n; /* the refused row, or n */
    int in_place = recs->trusted && recs->wide
                   && ((uintptr_t)recs->base | recs->stride) % _Alignof(fx_pos) == 0;
    for (size_t j = 0; j < n && j < AHEAD; j++) {
        if (stage(d, recs, in_place, j, &ring[j], err, counters)) {
            stop = j;
            break;
        }
    }
    d->call.rows = n;
    d->call.count = d->count;
    for (size_t i = 0; i < stop; i++) {
        staged *s = &ring[i % AHEAD];
        d->call.row = i;
        int fresh = settle(d, s, counters);
        if (fresh < 0)
            return -2;
        first[i] = (uint8_t)fresh;
        if (i + AHEAD < stop && stage(d, recs, in_place, i + AHEAD, s, err, counters))
            stop = i + AHEAD;
        staged *next = &ring[(i + AHEAD / 2) % AHEAD];
        if (i + AHEAD / 2 < stop && next->held) {
            next->candidate = candidate(d, next);
            if (next->candidate != NO_REF) {
                const uint8_t *e = entry(d, next->candidate);
                PREFETCH(e);
                PREFETCH(e + FX_PACKED_MAX - 1);
            }
        }
    }
    return stop < n ? (int64_t)stop : -1;
}

int64_t fx_dedupe_add(fx_dedupe *d, const fx_key_records *recs, size_t n, uint8_t *first,
                      fx_error *err)
{
    if (d->same.counters)
        return add_rows(d, recs, n, first, err, 1);
    return add_rows(d, recs, n, first, err, 0);
}

fx_dedupe_mark fx_dedupe_note(const fx_dedupe *d)
{
    fx_dedupe_mark mark = {{d->arenas[0].count, d->arenas[1].count}};
    return mark;
}

/* Entries are appended to their arena in the order they come: those added
 * since the mark are the ones at or past its counts.  The index is built
 * again from the entries before them (a growth since the mark placed old
 * and new entries in another order, so clearing the new slots alone could
 * cut old entries off from their home group). */
void fx_dedupe_rollback(fx_dedupe *d, fx_dedupe_mark mark)
{
    if (d->arenas[0].count == mark.counts[0] && d->arenas[1].count == mark.counts[1])
        return;
    memset(d->groups, 0, (d->mask + 1) * sizeof(fx_group));
    d->arenas[0].count = mark.counts[0];
    d->arenas[1].count = mark.counts[1];
    d->count = mark.counts[0] + mark.counts[1];
    reindex(d, mark.counts);
}
