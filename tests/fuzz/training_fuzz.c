/* A libFuzzer target for the training-data readers and writer of the C
 * core (core/training.h): any bytes, read as a .binpack block, as .bin
 * records or as .plain text, must give entries or errors, never a crash
 * or a read out of bounds; every record a reader gives is a valid fastxfen
 * record; and a block read without an error, written again from its
 * records and 16-bit moves, reads back as the same entries.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc/fastxfen/core \
 *       tests/fuzz/training_fuzz.c src/fastxfen/core/{CORE and TRAINING}.c \
 *       -o training_fuzz
 *   ./training_fuzz -runs=1000000 tests/fuzz/corpus/training
 *
 * (docs/training.md lists the files; tests/test_training_fuzz.py builds the
 * same target with a main of its own and replays the committed seeds.)
 *
 * Byte 0 of the input picks the reader (0-2: binpack, bin, plain; 3:
 * binpack then the round trip) and how many entries each call may give
 * (bits 2-5); its bits 2-6 also pick the columns (the packed position, the
 * FEN modes, the .plain text); the rest is the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "training.h"

#define ROWS 64

typedef struct {
    uint8_t records[ROWS * 80], packed[ROWS * 24];
    uint8_t fen[ROWS * FX_T_FEN_MAX + FX_MAX_OUTPUT], uci[ROWS * FX_T_UCI_MAX + 16];
    uint8_t plain[ROWS * FX_PLAIN_MAX];
    int32_t fen_ends[ROWS], uci_ends[ROWS], plain_ends[ROWS];
    uint16_t sfmove[ROWS], ply[ROWS];
    int16_t score[ROWS];
    int8_t result[ROWS];
    uint32_t rule50[ROWS];
    int64_t chain[ROWS];
} buffers;

static void wire(fx_t_columns *c, buffers *b, int flags)
{
    memset(c, 0, sizeof *c);
    c->records = b->records;
    c->packed = flags & 1 ? b->packed : NULL;
    c->fen = b->fen;
    c->fen_ends = b->fen_ends;
    c->castling = (uint8_t)(flags >> 1 & 1);
    c->ep_mode = (uint8_t)(flags >> 2 & 3) % 3;
    c->uci = b->uci;
    c->uci_ends = b->uci_ends;
    c->sfmove = b->sfmove;
    c->score = b->score;
    c->ply = b->ply;
    c->result = b->result;
    c->rule50 = b->rule50;
    c->chain = b->chain;
    c->plain = flags >> 4 & 1 ? b->plain : NULL;  /* the entries as .plain text */
    c->plain_ends = b->plain_ends;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "property failed: %s\n", what);
        abort();
    }
}

/* Every entry of one block, `step` at a time; returns 1 when no error. */
static int read_block(const uint8_t *data, size_t len, size_t step, int flags, buffers *b)
{
    fx_bp_reader r;
    fx_t_columns c;
    int clean = 1;
    fx_bp_reader_init(&r, data, len, 0);
    while (!r.done) {
        fx_t_error err;
        memset(&err, 0, sizeof err);
        wire(&c, b, flags);
        size_t n = fx_bp_read(&r, &c, 0, step, &err);
        check(n <= step && c.fen_used <= sizeof b->fen && c.uci_used <= sizeof b->uci
                  && c.plain_used <= sizeof b->plain, "room");
        for (size_t i = 0; i < n; i++) {
            fx_pos pos;
            fx_error perr;
            check(fx_load_record(b->records + 80 * i, 0, &pos, &perr) == 0, "a valid record");
        }
        if (err.code) {
            clean = 0;
            check(err.code < FX_T_E_LIMIT && err.offset <= len, "error in range");
            if (fx_bp_skip_chain(&r, &err))
                break;
        }
    }
    return clean;
}

#define MANY 4096

typedef struct {
    uint8_t records[MANY * 80];
    uint16_t moves[MANY], plies[MANY];
    int16_t scores[MANY];
    int8_t results[MANY];
} entries;

/* All entries of a block into e; how many, or 0 on an error. */
static size_t read_all(const uint8_t *data, size_t len, entries *e)
{
    fx_bp_reader r;
    fx_t_columns c;
    fx_t_error err;
    memset(&c, 0, sizeof c);
    memset(&err, 0, sizeof err);
    c.records = e->records;
    c.sfmove = e->moves;
    c.score = e->scores;
    c.ply = e->plies;
    c.result = e->results;
    fx_bp_reader_init(&r, data, len, 0);
    size_t n = fx_bp_read(&r, &c, 0, MANY, &err);
    return r.done && !err.code ? n : 0;
}

/* Written again from its records and moves, a block reads back the same. */
static void round_trip(const uint8_t *data, size_t len)
{
    static entries first, again;
    static uint8_t block[FX_BP_WRITER_ROOM];
    static int64_t s64[MANY], p64[MANY], r64[MANY];
    size_t n = read_all(data, len, &first);
    if (!n)
        return;
    for (size_t i = 0; i < n; i++) {
        s64[i] = first.scores[i];
        p64[i] = first.plies[i];
        r64[i] = first.results[i];
    }
    fx_t_table t = {0};
    t.records = first.records;
    t.sfmove = first.moves;
    t.score = s64;
    t.ply = p64;
    t.result = r64;
    fx_bp_writer w;
    fx_t_error err;
    int status;
    fx_bp_writer_init(&w, block, sizeof block);
    if (fx_bp_write_rows(&w, &t, 0, n, &status, &err) != n || status)
        return;  /* a position the reader keeps but .binpack refuses to write */
    fx_bp_finish(&w);
    check(read_all(block, w.len, &again) == n, "the entries read back");
    check(memcmp(first.records, again.records, 80 * n) == 0, "records");
    check(memcmp(first.moves, again.moves, 2 * n) == 0, "moves");
    check(memcmp(first.scores, again.scores, 2 * n) == 0, "scores");
    check(memcmp(first.plies, again.plies, 2 * n) == 0, "plies");
    check(memcmp(first.results, again.results, n) == 0, "results");
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    static buffers b;
    static int ready;
    if (!ready) {
        fx_init_tables();
        fx_attacks_init();
        fx_t_init();
        ready = 1;
    }
    if (size < 1)
        return 0;
    int mode = input[0] & 3, flags = input[0] >> 2;
    size_t step = 1 + (size_t)(input[0] >> 2 & 15) * 4, len = size - 1;
    const uint8_t *data = input + 1;
    if (mode == 0 || mode == 3) {
        if (read_block(data, len, step, flags, &b) && mode == 3)
            round_trip(data, len);
    } else if (mode == 1) {
        fx_t_chains chains;
        fx_t_chains_init(&chains, 0);
        for (size_t at = 0; at + FX_BIN_SIZE <= len;) {
            fx_t_columns c;
            fx_t_error err;
            memset(&err, 0, sizeof err);
            wire(&c, &b, flags);
            size_t whole = (len - at) / FX_BIN_SIZE, n = whole < step ? whole : step;
            size_t got = fx_bin_read_many(data + at, n, &c, &chains, 0, &err);
            at += FX_BIN_SIZE * (got + (err.code != 0));
            check(got <= n, "bin count");
        }
    } else {
        fx_t_chains chains;
        fx_t_chains_init(&chains, 0);
        for (size_t at = 0; at < len;) {
            fx_t_columns c;
            fx_t_error err;
            size_t used, lines;
            memset(&err, 0, sizeof err);
            wire(&c, &b, flags);
            size_t n = fx_plain_read(data + at, len - at, 1, &used, &lines, &c, &chains, 0, step,
                                     &err);
            check(used <= len - at && n <= step && lines <= used, "plain count");
            if (!used && !n && !err.code)
                break;
            at += used;
        }
    }
    return 0;
}

#ifdef TRAINING_REPLAY
/* A main for replaying inputs without libFuzzer: each argument is a file. */
int main(int argc, char **argv)
{
    static uint8_t data[1 << 20];
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f)
            return 2;
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        LLVMFuzzerTestOneInput(data, n);
    }
    printf("%d inputs\n", argc - 1);
    return 0;
}
#endif
