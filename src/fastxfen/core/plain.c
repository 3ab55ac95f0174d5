/* The .plain text format: per entry the lines "fen <FEN>", "move <UCI>",
 * "score <n>", "ply <n>", "result <n>" and "e", as Stockfish's tools write
 * them. */
#include <string.h>

#include "emit.h"

/* "00" to "99". */
static const char PAIRS[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* v (|v| < 100000: the numbers of an entry) in decimal, then '\n', with no
 * division and no branch on the value: u * ceil(2^32 / 10^4) has the first
 * digit above bit 32 and the other four as a fraction below it (exact for
 * u < 100000), whose digits two multiplications by 100 bring up in pairs;
 * the five digits are made as one word, its leading zeros shifted out, and
 * 8 bytes stored (the entry's room holds them). */
static uint8_t *put_int(uint8_t *o, int32_t v)
{
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    uint64_t f = (uint64_t)u * 429497u, g = (f & 0xFFFFFFFFu) * 100, h = (g & 0xFFFFFFFFu) * 100;
    uint16_t mid, low;
    memcpy(&mid, PAIRS + 2 * (g >> 32), 2);
    memcpy(&low, PAIRS + 2 * (h >> 32), 2);
    uint64_t word = ('0' + (f >> 32)) | (uint64_t)mid << 8 | (uint64_t)low << 24;
    /* leading zeros: zero bytes at the bottom of the digits, the last kept */
    unsigned zeros = (unsigned)fx_ctz64((word - 0x3030303030ull) | 1ull << 32) >> 3;
    *o = '-';
    o += v < 0;
    word = (word | (uint64_t)'\n' << 40) >> 8 * zeros;
    memcpy(o, &word, 8);
    return o + 6 - zeros;
}

/* A key (a string literal) and a number, one line. */
#define PUT_LINE(o, key, v) (memcpy((o), (key), sizeof(key) - 1), put_int((o) + sizeof(key) - 1, (v)))

size_t fx_plain_write(const fx_t_entry *e, uint8_t *out)
{
    uint8_t *o = out;
    fx_pos pos;
    fx_t_text_pos(&e->pos, &pos);
    memcpy(o, "fen ", 4);
    o += 4;
    o += fx_write(&pos, FX_CASTLING_XFEN, FX_EP_FEN, 6, NULL, 0, o);
    memcpy(o, "\nmove ", 6);
    o += 6;
    o += fx_move_uci(e->move, 0, o);
    *o++ = '\n';
    o = PUT_LINE(o, "score ", e->score);
    o = PUT_LINE(o, "ply ", e->ply);
    if ((unsigned)(e->result + 1) < 3) {  /* a game's result: the last two lines at once */
        static const char last[3][12] = {"result -1\ne\n", "result 0\ne\n", "result 1\ne\n"};
        memcpy(o, last[e->result + 1], 12);
        return (size_t)(o + 11 + (e->result < 0) - out);
    }
    o = PUT_LINE(o, "result ", e->result);
    memcpy(o, "e\n", 2);
    return (size_t)(o + 2 - out);
}

size_t fx_plain_write_rows(const fx_t_table *t, size_t start, size_t n, uint8_t *out,
                           size_t *used, fx_t_error *err)
{
    *used = 0;
    if (t->entries) {  /* read and checked by a reader already: no copy */
        for (size_t i = 0; i < n; i++)
            *used += fx_plain_write(&t->entries[start + i], out + *used);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        fx_t_entry e;
        if (fx_t_table_entry(t, start + i, &e, err))
            return i;
        *used += fx_plain_write(&e, out + *used);
    }
    return n;
}

/* ------------------------------------------------------------ reading */

enum { K_FEN, K_MOVE, K_SCORE, K_PLY, K_RESULT, K_COUNT };

typedef struct {
    const uint8_t *value[K_COUNT];
    size_t len[K_COUNT], at[K_COUNT];
    unsigned seen;
} plain_entry;

static int is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static int fail(fx_t_error *err, uint32_t code, uint32_t field, size_t at, uint32_t a)
{
    err->code = code;
    err->field = field;
    err->offset = at;
    err->a = a;
    return -1;
}

static int number(const uint8_t *s, size_t n, int64_t lo, int64_t hi, int64_t *v)
{
    size_t i = n && s[0] == '-';
    int64_t x = 0;
    if (i == n || n - i > 12)
        return -1;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        x = x * 10 + (s[i] - '0');
    }
    *v = n && s[0] == '-' ? -x : x;
    return *v < lo || *v > hi ? 1 : 0;
}

static const uint32_t FIELD_OF[K_COUNT] = {FX_T_F_POSITION, FX_T_F_MOVE, FX_T_F_SCORE,
                                           FX_T_F_PLY, FX_T_F_RESULT};

static int int_field(const plain_entry *p, int k, int64_t lo, int64_t hi, int64_t *v,
                     fx_t_error *err)
{
    int r = number(p->value[k], p->len[k], lo, hi, v);
    if (r < 0)
        return fail(err, FX_T_E_NUMBER, FIELD_OF[k], p->at[k], 0);
    if (r > 0) {
        err->value = *v;
        return fail(err, FX_T_E_RANGE, FIELD_OF[k], p->at[k], 0);
    }
    return 0;
}

/* The entry whose fields p holds. */
static int make_entry(const plain_entry *p, size_t e_at, fx_t_entry *e, fx_t_error *err)
{
    for (int k = 0; k < K_COUNT; k++)
        if (!(p->seen >> k & 1))
            return fail(err, FX_T_E_MISSING, FIELD_OF[k], e_at, 0);
    fx_pos pos;
    fx_span span;
    int fields;
    if (fx_parse(p->value[K_FEN], p->len[K_FEN], &pos, &span, &fields, &err->fen_error))
        return fail(err, FX_T_E_FEN, FX_T_F_POSITION, p->at[K_FEN], 0);
    if (fx_board_from_pos(&pos, &e->pos))
        return fail(err, FX_T_E_STORE, FX_T_F_POSITION, p->at[K_FEN], FX_T_S_WIDTH);
    fx_sf_settle_ep(&e->pos);
    if (fx_parse_uci(&e->pos, p->value[K_MOVE], p->len[K_MOVE], &e->move))
        return fail(err, FX_T_E_UCI, FX_T_F_MOVE, p->at[K_MOVE], 0);
    if (!fx_t_is_legal(&e->pos, e->move))
        return fail(err, FX_T_E_ILLEGAL, FX_T_F_MOVE, p->at[K_MOVE], e->move);
    int64_t score, ply, result;
    if (int_field(p, K_SCORE, -32768, 32767, &score, err)
        || int_field(p, K_PLY, 0, 65535, &ply, err)
        || int_field(p, K_RESULT, -128, 127, &result, err))
        return -1;
    e->score = (int16_t)score;
    e->ply = (uint16_t)ply;
    e->result = (int8_t)result;
    return 0;
}

/* The entry p holds into the columns' row `row` (its chain counted only
 * when the chain column is asked for); 0, or -1 with *err. */
static int take_entry(const plain_entry *p, size_t entry_at, fx_t_columns *c,
                      fx_t_chains *chains, size_t row, fx_t_error *err)
{
    fx_t_entry e;
    if (make_entry(p, entry_at, &e, err))
        return -1;
    int64_t chain = c->chain ? fx_t_chain_of(chains, &e) : 0;
    if (fx_t_emit(c, row, &e, chain, 0, err)) {
        err->offset = entry_at;
        return -1;
    }
    return 0;
}

static int key_of(const uint8_t *s, size_t n)
{
    static const char *const keys[K_COUNT] = {"fen", "move", "score", "ply", "result"};
    for (int k = 0; k < K_COUNT; k++)
        if (strlen(keys[k]) == n && memcmp(s, keys[k], n) == 0)
            return k;
    return -1;
}

/* One line, trimmed, [a, b) of text: a field into p (or the first error of
 * the entry into err, with p->seen marked bad).  Returns 1 for "e". */
static int read_line(const uint8_t *text, size_t a, size_t b, plain_entry *p, int *failed,
                     fx_t_error *err)
{
    size_t k_end = a;
    while (k_end < b && !is_space(text[k_end]))
        k_end++;
    int k = key_of(text + a, k_end - a);
    size_t v = k_end;
    while (v < b && is_space(text[v]))
        v++;
    int ends = k_end - a == 1 && text[a] == 'e';
    if (ends && v == b)
        return 1;
    uint32_t code = ends ? FX_T_E_LINE : k < 0 ? FX_T_E_KEY : v == b ? FX_T_E_LINE
                  : (p->seen >> k & 1) ? FX_T_E_REPEAT : 0;
    if (code) {
        if (!*failed)
            fail(err, code, k < 0 ? FX_T_F_LINE : FIELD_OF[k], a, 0);
        *failed = 1;
        return 0;
    }
    p->value[k] = text + v;
    p->len[k] = b - v;
    p->at[k] = v;
    p->seen |= 1u << k;
    return 0;
}

/* One line "key value" of the layout Stockfish writes, from *at: the
 * key (with its space) first, the value neither empty nor blank at either
 * end, then '\n'.  Its value into p, *at past the line; 0 for any other
 * line (the general reader takes it). */
static int quick_line(const uint8_t *text, size_t len, size_t *at, const char *key, size_t n,
                      int k, plain_entry *p)
{
    size_t v = *at + n, end = v;
    uint64_t word, want;
    if (len - *at < 16)  /* (so the line's first 8 bytes can be read at once) */
        return 0;
    memcpy(&word, text + *at, 8);
    memcpy(&want, key, 8);  /* key: n bytes, then NULs to 8 */
    if ((word ^ want) & (~0ull >> (64 - 8 * n)))
        return 0;
    if (k == K_FEN) {
        const uint8_t *nl = memchr(text + v, '\n', len - v);
        end = nl ? (size_t)(nl - text) : len;
    } else {
        while (end < len && end - v < 8 && text[end] != '\n')
            end++;
    }
    if (end >= len || text[end] != '\n' || end == v || is_space(text[v])
        || is_space(text[end - 1]))
        return 0;
    p->value[k] = text + v;
    p->len[k] = end - v;
    p->at[k] = v;
    *at = end + 1;
    return 1;
}

/* A whole entry in the layout Stockfish writes (fen, move, score, ply,
 * result and e, one a line, nothing else) from *at into p: *at past it;
 * 0 when the text holds anything else there. */
static int quick_entry(const uint8_t *text, size_t len, size_t *at, plain_entry *p)
{
    size_t i = *at;
    static const char keys[K_COUNT][8] = {"fen ", "move ", "score ", "ply ", "result "};
    static const size_t sizes[K_COUNT] = {4, 5, 6, 4, 7};
    for (int k = 0; k < K_COUNT; k++)
        if (!quick_line(text, len, &i, keys[k], sizes[k], k, p))
            return 0;
    if (len - i < 2
        || text[i] != 'e' || text[i + 1] != '\n')
        return 0;
    p->seen = (1u << K_COUNT) - 1;
    *at = i + 2;
    return 1;
}

size_t fx_plain_read(const uint8_t *text, size_t len, int final, size_t *used, size_t *lines,
                     fx_t_columns *c, fx_t_chains *chains, size_t row, size_t max_n,
                     fx_t_error *err)
{
    size_t i = 0, n = 0, entry_at = 0, line = 0;  /* line: newlines before i */
    plain_entry p;
    int failed = 0;
    memset(&p, 0, sizeof p);
    *used = *lines = 0;
    while (n < max_n && i < len) {
        size_t quick_at = i;
        if (!p.seen && !failed && quick_entry(text, len, &quick_at, &p)) {
            entry_at = i;
            i = quick_at;
            line += 6;
            *used = i;
            *lines = line;
            if (take_entry(&p, entry_at, c, chains, row + n, err))
                return n;
            n++;
            memset(&p, 0, sizeof p);
            entry_at = i;
            continue;
        }
        const uint8_t *nl = memchr(text + i, '\n', len - i);
        if (!nl && !final)
            break;
        size_t end = nl ? (size_t)(nl - text) : len, next = nl ? end + 1 : len, a = i, b = end;
        while (a < b && is_space(text[a]))
            a++;
        while (b > a && is_space(text[b - 1]))
            b--;
        if (b - a > 3 && memcmp(text + a, "fen", 3) == 0 && is_space(text[a + 3])
            && ((p.seen >> K_FEN & 1) || failed)) {
            /* the next entry begins: this one lacks its "e" line */
            *used = i;
            *lines = line;
            if (!failed)
                fail(err, FX_T_E_MISSING, FX_T_F_LINE, entry_at, 0);
            return n;
        }
        int ends = a != b && read_line(text, a, b, &p, &failed, err);
        i = next;
        line += nl != NULL;
        if (!ends) {
            if (!p.seen && !failed) {
                *used = entry_at = next;
                *lines = line;
            }
            continue;
        }
        *used = next;
        *lines = line;
        if (failed || take_entry(&p, entry_at, c, chains, row + n, err))
            return n;
        n++;
        memset(&p, 0, sizeof p);
        entry_at = next;
    }
    if (final && i >= len && (p.seen || failed) && n < max_n) {
        *used = len;
        *lines = line;
        if (!failed)
            fail(err, FX_T_E_MISSING, FX_T_F_LINE, entry_at, 0);
    }
    return n;
}
