/* One pass over PGN text: games, header tags, comment state.  See
 * pgnscan.h for the interface and docs/pgn.md for the rules. */
#include <stdlib.h>
#include <string.h>

#include "pgnscan.h"

#include "bits.h"

enum { TAG_OTHER, TAG_EVENT, TAG_FEN, TAG_SETUP, TAG_VARIANT };

static int grow(pgn_vec *v, size_t more)
{
    size_t cap = v->cap ? v->cap : 256;
    int64_t *data;
    while (cap - v->len < more)
        cap *= 2;
    if (cap == v->cap)
        return 0;
    data = realloc(v->data, cap * sizeof *data);
    if (!data)
        return -1;
    v->data = data;
    v->cap = cap;
    return 0;
}

static inline int push(pgn_vec *v, int64_t x)
{
    if (v->len == v->cap && grow(v, 1))
        return -1;
    v->data[v->len++] = x;
    return 0;
}

static inline int is_blank(uint8_t c) { return c == ' ' || c == '\t'; }

/* ASCII whitespace, as bytes.strip() has it. */
static inline int is_space(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* Whether the line text[at:end), at just after its '[', names tag `name`:
 * the name, then a blank or '"'. */
static inline int named(const uint8_t *text, size_t at, size_t end, const char *name, size_t len)
{
    uint8_t next;
    if (end - at <= len || memcmp(text + at, name, len) != 0)
        return 0;
    next = text[at + len];
    return is_blank(next) || next == '"';
}

static int tag_kind(const uint8_t *text, size_t at, size_t end)
{
    if (at >= end)
        return TAG_OTHER;
    switch (text[at]) {
    case 'E':
        return named(text, at, end, "Event", 5) ? TAG_EVENT : TAG_OTHER;
    case 'F':
        return named(text, at, end, "FEN", 3) ? TAG_FEN : TAG_OTHER;
    case 'S':
        return named(text, at, end, "SetUp", 5) ? TAG_SETUP : TAG_OTHER;
    case 'V':
        return named(text, at, end, "Variant", 7) ? TAG_VARIANT : TAG_OTHER;
    default:
        return TAG_OTHER;
    }
}

/* The value of the tag line text[at:end) ("[" and a name of `skip` - 1
 * bytes at `at`) if the line reads [NAME<blanks>"VALUE"]<blanks>: VALUE runs
 * from the first '"' to the last '"]'.  Returns 0 if it does not. */
static int tag_value(const uint8_t *text, size_t at, size_t end, size_t skip, size_t *value,
                     size_t *value_end)
{
    size_t p = at + skip;
    while (p < end && is_blank(text[p]))
        p++;
    if (p >= end || text[p] != '"')
        return 0;
    p++;
    while (end > p && is_blank(text[end - 1]))
        end--;
    if (end < p + 2 || text[end - 1] != ']' || text[end - 2] != '"')
        return 0;
    *value = p;
    *value_end = end - 2;
    return 1;
}

/* Whether the Variant tag line text[at:end) names standard chess: its value,
 * stripped of whitespace, is one of the names in any case.  Every '\r' at
 * the end of the line is cut first. */
static int standard_variant(const pgn_scan *s, const uint8_t *text, size_t at, size_t end)
{
    size_t v, v_end, k, i;
    while (end > at && text[end - 1] == '\r')
        end--;
    if (!tag_value(text, at, end, 8, &v, &v_end))
        return 0;
    while (v < v_end && is_space(text[v]))
        v++;
    while (v_end > v && is_space(text[v_end - 1]))
        v_end--;
    for (k = 0; k < s->nstandard; k++) {
        const pgn_name *name = &s->standard[k];
        if (name->len != v_end - v)
            continue;
        for (i = 0; i < name->len; i++) {
            uint8_t c = text[v + i];
            if (c >= 'A' && c <= 'Z')
                c += 'a' - 'A';
            if (c != name->text[i])
                break;
        }
        if (i == name->len)
            return 1;
    }
    return 0;
}

enum { SHORT_LINE = 48 };

/* Whether a '{' comment is open after the movetext line p[0:len), given
 * whether one was open before it.  Outside a comment, ';' ends the line. */
static int comment_state(const uint8_t *p, size_t len, int inside)
{
    const uint8_t *end = p + len;
    if (len < SHORT_LINE) { /* a byte at a time: cheaper than calls to memchr */
        for (; p < end; p++) {
            if (inside)
                inside = *p != '}';
            else if (*p == '{')
                inside = 1;
            else if (*p == ';')
                return 0;
        }
        return inside;
    }
    for (;;) {
        if (inside) {
            const uint8_t *close = memchr(p, '}', (size_t)(end - p));
            if (!close)
                return 1;
            p = close + 1;
            inside = 0;
        } else {
            const uint8_t *open = memchr(p, '{', (size_t)(end - p));
            const uint8_t *stop = open ? open : end;
            if (!open || memchr(p, ';', (size_t)(stop - p)))
                return 0;
            p = open + 1;
            inside = 1;
        }
    }
}

/* Finds the newlines of text[0:n] 64 bytes at a time: no call per line. */
typedef struct {
    const uint8_t *text;
    size_t n;
    size_t block;  /* offset of the block whose newlines `mask` holds */
    uint64_t mask; /* newlines of that block not yet passed */
} newline_cursor;

static uint64_t block_newlines(const newline_cursor *c)
{
    uint8_t pad[64] = {0};
    if (c->n - c->block >= 64)
        return fx_equal64(c->text + c->block, '\n');
    memcpy(pad, c->text + c->block, c->n - c->block);
    return fx_equal64(pad, '\n');
}

/* The offset of the first newline at or after `pos`, or n if there is
 * none; pos < n and, following the last newline found, not before the
 * cursor's block. */
static inline size_t next_newline(newline_cursor *c, size_t pos)
{
    uint64_t m;
    if (pos - c->block >= 64) {
        c->block = pos & ~(size_t)63;
        c->mask = block_newlines(c);
    }
    m = c->mask & (~(uint64_t)0 << (pos - c->block));
    while (!m) {
        c->block += 64;
        if (c->block >= c->n)
            return c->n;
        m = block_newlines(c);
    }
    c->mask = m;
    return c->block + (size_t)fx_ctz64(m);
}

static int add_fen(pgn_scan *s, const uint8_t *text, size_t at, size_t end, int newline,
                   int64_t game, int64_t line)
{
    int crlf = newline && text[end - 1] == '\r';
    size_t content = end - (size_t)crlf, value = 0, value_end = 0;
    int64_t *row;
    int ok = tag_value(text, at, content, 4, &value, &value_end);
    if (s->fens.cap - s->fens.len < PGN_FEN_COLUMNS && grow(&s->fens, PGN_FEN_COLUMNS))
        return -1;
    row = s->fens.data + s->fens.len;
    row[PGN_FEN_AT] = (int64_t)at;
    row[PGN_FEN_VALUE] = ok ? (int64_t)value : -1;
    row[PGN_FEN_VALUE_END] = ok ? (int64_t)value_end : -1;
    row[PGN_FEN_CONTENT_END] = (int64_t)content;
    row[PGN_FEN_CRLF] = crlf;
    row[PGN_FEN_GAME] = game;
    row[PGN_FEN_LINE] = line;
    s->fens.len += PGN_FEN_COLUMNS;
    return 0;
}

int pgn_scan_run(pgn_scan *s, const uint8_t *text, size_t n)
{
    size_t pos = 0;
    int64_t line = 0, game = -1;
    int inside = s->inside, after_tag = s->after_tag, in_header = 0, has_event = 0;
    newline_cursor lines = {text, n, 0, 0};
    s->header_end = s->header_end_line = -1;
    if (n)
        lines.mask = block_newlines(&lines);
    while (pos < n) {
        size_t end = next_newline(&lines, pos);
        int nl = end < n;
        uint8_t first = text[pos];
        if (first == '[' && (in_header || !(inside || after_tag))) {
            /* a header line: the first of a game, or one after it */
            int kind = tag_kind(text, pos + 1, end);
            if (!in_header || (kind == TAG_EVENT && has_event)) {
                if (push(&s->starts, (int64_t)pos) || push(&s->start_lines, line))
                    return -1;
                game++;
                in_header = 1;
                has_event = 0;
            }
            switch (kind) {
            case TAG_EVENT:
                has_event = 1;
                break;
            case TAG_FEN:
                if (add_fen(s, text, pos, end, nl, game, line))
                    return -1;
                break;
            case TAG_SETUP:
                if (push(&s->setups, game))
                    return -1;
                break;
            case TAG_VARIANT:
                if (s->variants && !standard_variant(s, text, pos, end) &&
                    push(&s->odd_variants, game))
                    return -1;
                break;
            }
        } else {
            /* movetext, a blank line, an escape line, bytes before the first
             * game, or a tag line that is none of the above */
            in_header = 0;
            if (first != '[' && s->header_end < 0) {
                s->header_end = (int64_t)pos;
                s->header_end_line = line;
            }
            if (inside || (first != '[' && first != '%' && first != '\n'))
                inside = comment_state(text + pos, end - pos, inside);
        }
        after_tag = first == '[';
        if (!nl)
            break;
        line++;
        pos = end + 1;
    }
    s->newlines = line;
    s->inside = inside;
    s->after_tag = after_tag;
    return 0;
}

void pgn_scan_free(pgn_scan *s)
{
    pgn_vec *vecs[] = {&s->starts, &s->start_lines, &s->fens, &s->setups, &s->odd_variants};
    size_t k;
    for (k = 0; k < sizeof vecs / sizeof *vecs; k++) {
        free(vecs[k]->data);
        vecs[k]->data = NULL;
        vecs[k]->len = vecs[k]->cap = 0;
    }
}

/* Flags of a game that only pgn_edit_plan reads. */
enum { HAS_FEN = 16, HAS_SETUP = 32, ODD_VARIANT = 64 };

static const uint8_t SETUP_TAG[] = "[SetUp \"1\"]";
enum { SETUP_LEN = 11 };

static inline size_t game_end(const pgn_edit *e, size_t g)
{
    return g + 1 < e->games ? (size_t)e->starts[g + 1] : e->cut;
}

/* Sets `flag` on each game of games[0:n] below e->games; -1 for a negative one. */
static int mark(const pgn_edit *e, const int64_t *games, size_t n, uint8_t flag)
{
    size_t k;
    for (k = 0; k < n; k++) {
        if (games[k] < 0)
            return -1;
        if ((uint64_t)games[k] < e->games)
            e->flags[games[k]] |= flag;
    }
    return 0;
}

/* Whether the FEN tags are those of the games, in order, within them, with
 * replacements in order within rep; marks the games that have one. */
static int read_fens(const pgn_edit *e)
{
    size_t k, g = 0;
    int64_t rep_at = 0;
    for (k = 0; k < e->nfen; k++) {
        const int64_t *row = e->fens + k * PGN_FEN_COLUMNS;
        int64_t at = row[PGN_FEN_AT], value = row[PGN_FEN_VALUE];
        int64_t value_end = row[PGN_FEN_VALUE_END], content_end = row[PGN_FEN_CONTENT_END];
        if (row[PGN_FEN_GAME] < (int64_t)g || (uint64_t)row[PGN_FEN_GAME] >= e->games)
            return 0;
        g = (size_t)row[PGN_FEN_GAME];
        e->flags[g] |= HAS_FEN;
        if (at < e->starts[g] || (uint64_t)content_end > game_end(e, g) || at > content_end ||
            (k && at <= row[PGN_FEN_AT - PGN_FEN_COLUMNS]))
            return 0;
        if (value >= 0 && !(at < value && value <= value_end && value_end <= content_end))
            return 0;
        if (value < 0 && value_end != -1)
            return 0;
        if (e->rep_ends != NULL) {
            if (e->rep_ends[k] < rep_at || (uint64_t)e->rep_ends[k] > e->rep_len)
                return 0;
            rep_at = e->rep_ends[k];
        }
    }
    return 1;
}

int pgn_edit_plan(pgn_edit *e)
{
    size_t g, k, limit;
    int64_t size;
    if (e->stop > e->games)
        return -1;
    for (g = 0; g < e->games; g++)
        if (e->starts[g] < (g ? e->starts[g - 1] + 1 : 0) || (uint64_t)e->starts[g] >= e->cut)
            return -1;
    memset(e->flags, 0, e->games);
    if (!read_fens(e))
        return -1;
    if (mark(e, e->setups, e->nsetups, HAS_SETUP) || mark(e, e->odd, e->nodd, ODD_VARIANT) ||
        mark(e, e->failed, e->nfailed, PGN_FAILED))
        return -1;
    limit = e->stop < e->games ? (size_t)e->starts[e->stop] : e->cut;
    size = (int64_t)limit;
    e->written = e->fen_tags = e->setups_added = 0;
    k = 0;
    for (g = 0; g < e->games; g++) {
        uint8_t f = e->flags[g];
        int keep = e->select == PGN_SELECT_ALL ||
                   (e->select == PGN_SELECT_SETUP ? (f & HAS_FEN) != 0
                                                  : !(f & (HAS_FEN | ODD_VARIANT)));
        if (keep)
            f |= PGN_KEEP;
        if (g < e->stop) {
            if (!keep || ((f & PGN_FAILED) && e->errors == PGN_ERRORS_COERCE)) {
                f |= PGN_DROPPED;
                size -= (int64_t)(game_end(e, g) - (size_t)e->starts[g]);
            } else {
                e->written++;
                if (!(f & PGN_FAILED))
                    f |= PGN_EDITED;
            }
        }
        e->flags[g] = f;
        /* the FEN tags of the game */
        for (; k < e->nfen && (size_t)e->fens[k * PGN_FEN_COLUMNS + PGN_FEN_GAME] == g; k++) {
            const int64_t *row = e->fens + k * PGN_FEN_COLUMNS;
            if (!(f & PGN_EDITED))
                continue;
            if (row[PGN_FEN_VALUE] < 0 || e->rep_ends == NULL)
                return -1; /* a game with a malformed tag has failed */
            if (!(f & HAS_SETUP) && (k == 0 || row[PGN_FEN_GAME - PGN_FEN_COLUMNS] != (int64_t)g)) {
                size += SETUP_LEN + 1 + row[PGN_FEN_CRLF];
                e->setups_added++;
            }
            size += e->rep_ends[k] - (k ? e->rep_ends[k - 1] : 0);
            size -= row[PGN_FEN_VALUE_END] - row[PGN_FEN_VALUE];
            e->fen_tags++;
        }
    }
    e->size = (size_t)size;
    return 0;
}

/* Copies from[0:len) to o; returns o + len.  Most pieces are short (the
 * text between two edits of a small game): those are copied inline, as
 * two words that overlap, rather than by a call. */
static inline uint8_t *put(uint8_t *o, const uint8_t *from, size_t len)
{
    if (len > 16) {
        memcpy(o, from, len);
    } else if (len >= 8) {
        uint64_t a, b;
        memcpy(&a, from, 8);
        memcpy(&b, from + len - 8, 8);
        memcpy(o, &a, 8);
        memcpy(o + len - 8, &b, 8);
    } else if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, from, 4);
        memcpy(&b, from + len - 4, 4);
        memcpy(o, &a, 4);
        memcpy(o + len - 4, &b, 4);
    } else {
        for (size_t k = 0; k < len; k++)
            o[k] = from[k];
    }
    return o + len;
}

void pgn_edit_write(const pgn_edit *e, uint8_t *out)
{
    uint8_t *o = out;
    size_t at = 0, g, k = 0, limit = e->stop < e->games ? (size_t)e->starts[e->stop] : e->cut;
    for (g = 0; g < e->stop; g++) {
        uint8_t f = e->flags[g];
        int first = 1;
        if (f & PGN_DROPPED) {
            o = put(o, e->text + at, (size_t)e->starts[g] - at);
            at = game_end(e, g);
            continue;
        }
        if (!(f & PGN_EDITED))
            continue;
        while (k < e->nfen && (size_t)e->fens[k * PGN_FEN_COLUMNS + PGN_FEN_GAME] < g)
            k++;
        for (; k < e->nfen && (size_t)e->fens[k * PGN_FEN_COLUMNS + PGN_FEN_GAME] == g; k++) {
            const int64_t *row = e->fens + k * PGN_FEN_COLUMNS;
            size_t from = k ? (size_t)e->rep_ends[k - 1] : 0;
            if (first && !(f & HAS_SETUP)) {
                size_t tag_at = (size_t)row[PGN_FEN_AT];
                o = put(o, e->text + at, tag_at - at);
                memcpy(o, SETUP_TAG, SETUP_LEN);
                o += SETUP_LEN;
                if (row[PGN_FEN_CRLF])
                    *o++ = '\r';
                *o++ = '\n';
                at = tag_at;
            }
            first = 0;
            o = put(o, e->text + at, (size_t)row[PGN_FEN_VALUE] - at);
            o = put(o, e->rep + from, (size_t)e->rep_ends[k] - from);
            at = (size_t)row[PGN_FEN_VALUE_END];
        }
    }
    put(o, e->text + at, limit - at);
}
