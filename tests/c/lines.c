/* The byte-set helpers of core/bits.h (SSE2, NEON or plain C, whichever the
 * build has) and the line finder of core/lines.c against a byte-by-byte
 * reckoning, on random buffers of every length up to 300 bytes and random
 * newline densities, at every start.
 *
 *     cc -O1 -std=c11 -I src/fastxfen/core tests/c/lines.c \
 *        src/fastxfen/core/lines.c -o lines
 *     ./lines
 *
 * Prints "checks N failed F" and exits 1 if any check failed. */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "check.h"
#include "lines.h"

static uint64_t state = 88172645463325252ull;

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* The bytes of p[0:n) equal to one of a, b, as a bit set. */
static uint64_t plain(const uint8_t *p, int n, uint8_t a, uint8_t b)
{
    uint64_t m = 0;
    for (int k = 0; k < n; k++)
        m |= (uint64_t)(p[k] == a || p[k] == b) << k;
    return m;
}

/* fx_count_lines and fx_line_spans of data[at:size), two rows a call. */
static int lines_agree(const uint8_t *data, size_t at, size_t size)
{
    int64_t expected = 0, starts[2], ends[2];
    for (size_t k = at; k < size; k++)
        expected += data[k] == '\n';
    expected += at < size && data[size - 1] != '\n';
    if (fx_count_lines(data, at, size) != expected)
        return 0;
    int64_t seen = 0, n, prev = (int64_t)at;  /* each line starts where the last ended */
    size_t from = at;
    while ((n = fx_line_spans(data, &from, size, starts, ends, 2)) > 0) {
        for (int64_t k = 0; k < n; k++) {
            int64_t line_end = starts[k];
            while (line_end < (int64_t)size && data[line_end] != '\n')
                line_end++;
            if (starts[k] != prev || ends[k] != line_end + (line_end < (int64_t)size))
                return 0;
            prev = ends[k];
        }
        seen += n;
    }
    return seen == expected && from == (at < size ? size : at);
}

int main(void)
{
    static const uint8_t alphabet[] = {'\n', ' ', '\t', 'a', '/', '8', 0x80, 0xFF, 0};
    uint8_t buf[300 + 64];
    for (int round = 0; round < 400; round++) {
        size_t size = next() % 300;
        unsigned density = 1 + (unsigned)(next() % 8);
        for (size_t k = 0; k < sizeof buf; k++)
            buf[k] = next() % density ? alphabet[3 + next() % 6] : alphabet[next() % 3];
        uint8_t *data = malloc(size ? size : 1);  /* exactly size bytes, for sanitizers */
        memcpy(data, buf, size);
        for (size_t at = 0; at <= size; at += 1 + next() % 7)
            CHECK(lines_agree(data, at, size));
        free(data);
        CHECK(fx_equal64(buf, '\n') == plain(buf, 64, '\n', '\n'));
        CHECK(fx_equal64(buf + 7, 0x80) == plain(buf + 7, 64, 0x80, 0x80));
        CHECK(fx_blanks16(buf + 3) == plain(buf + 3, 16, ' ', '\t'));
    }
    printf("checks %d failed %d\n", checks, failed);
    return failed != 0;
}
