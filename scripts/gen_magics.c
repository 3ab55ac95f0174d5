/* Search the magic multipliers of src/fastxfen/core/attacks.c.
 *
 *   cc -O2 scripts/gen_magics.c -o gen_magics && ./gen_magics
 *
 * For every square and slider (rooks first, then bishops) it prints a
 * number m such that (occupancy & mask) * m >> (64 - bits) sends two
 * occupancies to the same index only when they give the same attacks.
 * The search is a fixed random sequence, so the output never changes; the
 * core checks the numbers again when it fills its tables. */
#include <stdint.h>
#include <stdio.h>

static const int ROOK[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static uint64_t slide(int sq, uint64_t occupied, const int (*dirs)[2])
{
    uint64_t attacks = 0;
    for (int k = 0; k < 4; k++) {
        int r = sq / 8 + dirs[k][0], f = sq % 8 + dirs[k][1];
        for (; r >= 0 && r < 8 && f >= 0 && f < 8; r += dirs[k][0], f += dirs[k][1]) {
            attacks |= 1ull << (r * 8 + f);
            if (occupied >> (r * 8 + f) & 1)
                break;
        }
    }
    return attacks;
}

static int popcount(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
}

static uint64_t search(int sq, const int (*dirs)[2])
{
    static uint64_t occupancy[4096], attacks[4096], table[4096];
    static unsigned seen[4096], round;
    uint64_t rank_edges = (0xFFull | 0xFF00000000000000ull) & ~(0xFFull << (8 * (sq / 8)));
    uint64_t file_edges = (0x0101010101010101ull | 0x8080808080808080ull)
                          & ~(0x0101010101010101ull << (sq % 8));
    uint64_t mask = slide(sq, 0, dirs) & ~(rank_edges | file_edges), b = 0;
    int bits = popcount(mask), n = 0;
    do {
        occupancy[n] = b;
        attacks[n++] = slide(sq, b, dirs);
        b = (b - mask) & mask;
    } while (b);
    for (;;) {
        uint64_t m = next() & next() & next();
        if (popcount((m * mask) >> 56) < 6)
            continue;
        int ok = 1;
        round++;
        for (int i = 0; i < n && ok; i++) {
            unsigned index = (unsigned)((occupancy[i] * m) >> (64 - bits));
            if (seen[index] != round) {
                seen[index] = round;
                table[index] = attacks[i];
            } else {
                ok = table[index] == attacks[i];
            }
        }
        if (ok)
            return m;
    }
}

int main(void)
{
    for (int slider = 0; slider < 2; slider++) {
        printf(slider ? "static const uint64_t BISHOP_MAGIC[64] = {\n"
                      : "static const uint64_t ROOK_MAGIC[64] = {\n");
        for (int sq = 0; sq < 64; sq++)
            printf("%s0x%016llxull,%s", sq % 3 ? " " : "    ",
                   (unsigned long long)search(sq, slider ? BISHOP : ROOK),
                   sq % 3 == 2 || sq == 63 ? "\n" : "");
        printf("};\n");
    }
    return 0;
}
