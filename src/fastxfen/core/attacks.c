/* Attack tables of 8x8 chess: leapers, pawns, magic bitboards for the
 * sliders (numbers from scripts/gen_magics.c), lines and segments. */
#include "attacks.h"

fx_magic fx_rook_magic[64], fx_bishop_magic[64];
uint64_t fx_knight_attacks[64], fx_king_attacks[64], fx_pawn_attacks[2][64];
uint64_t fx_line[64][64], fx_between[64][64];
uint8_t fx_select8[256][8];

/* Rook slices hold 2^bits entries each: 102,400 in all; bishops 5,248. */
static uint64_t rook_table[102400], bishop_table[5248];

static const uint64_t ROOK_MAGIC[64] = {
    0x1080004008801020ull, 0x0840092002c03000ull, 0x1900200010400900ull,
    0x0880100008000480ull, 0x4200100420080200ull, 0x8100020100080400ull,
    0x0200040110886200ull, 0x0200008040220411ull, 0x0404800084400220ull,
    0x0000401000402000ull, 0x0086001081220440ull, 0x0408800800100280ull,
    0x000a001201040820ull, 0x8848800200840080ull, 0x4001000100040200ull,
    0x0442000102105084ull, 0x9080010020804100ull, 0x0040404000201009ull,
    0x0000808010002009ull, 0x2200090021d00100ull, 0x0008008008040080ull,
    0x0004004002010040ull, 0x0011040008015042ull, 0x00000a0001768104ull,
    0x0000800080204009ull, 0x2010004140002001ull, 0x9800200280100080ull,
    0x1000100080080080ull, 0x0442000a00049020ull, 0x2100040080020080ull,
    0x0800120400900148ull, 0x0010040a00128541ull, 0x2800804000800030ull,
    0x1010002000400041ull, 0x4000200011004100ull, 0x0610008410800800ull,
    0x0400802402800800ull, 0xc100020080800400ull, 0x0002000802000401ull,
    0x0182085882000401ull, 0x0220204000808000ull, 0x2860100040024022ull,
    0x0001002004110040ull, 0x99101042000a0020ull, 0x0004080004008080ull,
    0x0010040002008080ull, 0x2012004881020004ull, 0x8300842444820011ull,
    0x0088403882010200ull, 0x0820400080210100ull, 0x0110910040a00300ull,
    0x0801100280080480ull, 0x0242009008200600ull, 0x1002000489500200ull,
    0x0040800200010080ull, 0x0091800041000080ull, 0x0000209300488001ull,
    0x04c1002414824001ull, 0x020020000b001041ull, 0x7000100004200901ull,
    0x8002002004100802ull, 0x30010002084c0007ull, 0x0888221800813004ull,
    0x4000002840840112ull,
};
static const uint64_t BISHOP_MAGIC[64] = {
    0xa010041108003100ull, 0x006082020a002900ull, 0x6810010619200000ull,
    0x08281a0520000408ull, 0x0001104001000400ull, 0x0018901008048400ull,
    0x00040a0210245280ull, 0x000200210808a402ull, 0x9140048410821200ull,
    0x0800091010820041ull, 0x20504804832202c0ull, 0x0100091401081000ull,
    0x8021011140000012ull, 0x0810020804450400ull, 0x208b0542109008a2ull,
    0x0080084a08040204ull, 0x0040e2a80811244cull, 0x2505022008008108ull,
    0x0430220100420040ull, 0x010a040420220040ull, 0x1105000290400000ull,
    0x0093001200822120ull, 0x4000a62048043004ull, 0x280120048a015004ull,
    0x006090002a020814ull, 0x44042000240800d0ull, 0x01102800040a4400ull,
    0x1004080080220040ull, 0x0001001011004024ull, 0x0010044000805040ull,
    0x0914041200820100ull, 0x0004821012821480ull, 0x0024040500c05021ull,
    0x0088611002080200ull, 0x0116080a00040020ull, 0x4000020080080080ull,
    0x2450450140840040ull, 0x0000880201484100ull, 0x0222020404020092ull,
    0x8081110600002e00ull, 0x2842101105000801ull, 0x1100809008001025ull,
    0x00020202221c0400ull, 0x0422014022009020ull, 0x0210046102100c00ull,
    0xc004008082029102ull, 0x00aa461801101200ull, 0x0404080080201108ull,
    0x020542108c205002ull, 0x0410544804100100ull, 0x0040910841100000ull,
    0x0400200042021100ull, 0x00004204850400c0ull, 0x0200100410a42102ull,
    0x1040020801210102ull, 0x0805040410420000ull, 0x2884804130100200ull,
    0x800c262201242000ull, 0x1058000194108800ull, 0x0014221054420204ull,
    0x0104000012a02200ull, 0x0200881003300100ull, 0x0140400202840100ull,
    0x0402020801010201ull,
};

static const int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Attacks along four directions, stopping at the first occupied square. */
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

/* Squares one step away among the given (rank, file) offsets. */
static uint64_t steps(int sq, const int (*d)[2], int n)
{
    uint64_t set = 0;
    for (int k = 0; k < n; k++) {
        int r = sq / 8 + d[k][0], f = sq % 8 + d[k][1];
        if (r >= 0 && r < 8 && f >= 0 && f < 8)
            set |= 1ull << (r * 8 + f);
    }
    return set;
}

/* One slider's magics: each square's slice, filled by enumerating every
 * subset of its mask; a slot claimed by two different attack sets means
 * the magic number is wrong. */
static int fill_magics(fx_magic *magics, const uint64_t *numbers, uint64_t *table,
                       size_t size, const int (*dirs)[2])
{
    size_t used = 0;
    for (int sq = 0; sq < 64; sq++) {
        uint64_t rank_edges = (0xFFull | 0xFF00000000000000ull) & ~(0xFFull << (8 * (sq / 8)));
        uint64_t file_edges = (0x0101010101010101ull | 0x8080808080808080ull)
                              & ~(0x0101010101010101ull << (sq % 8));
        fx_magic *m = &magics[sq];
        m->mask = slide(sq, 0, dirs) & ~(rank_edges | file_edges);
        m->magic = numbers[sq];
        int bits = fx_popcount64(m->mask);
        m->shift = (unsigned)(64 - bits);
        if (used + ((size_t)1 << bits) > size)
            return -1;
        uint64_t *slice = table + used;
        for (size_t i = 0; i < (size_t)1 << bits; i++)
            slice[i] = 0;
        uint64_t b = 0;
        do {
            uint64_t attacks = slide(sq, b, dirs);
            uint64_t *slot = &slice[(b * m->magic) >> m->shift];
            if (*slot && *slot != attacks)
                return -1;
            *slot = attacks;  /* never 0: a slider attacks at least one square */
            b = (b - m->mask) & m->mask;
        } while (b);
        m->table = slice;
        used += (size_t)1 << bits;
    }
    return 0;
}

static void fill_lines(void)
{
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            uint64_t ends = 1ull << a | 1ull << b, line = 0, seg = 0;
            if (a != b && (slide(a, 0, ROOK_DIRS) >> b & 1)) {
                line = (slide(a, 0, ROOK_DIRS) & slide(b, 0, ROOK_DIRS)) | ends;
                if (a / 8 == b / 8 || a % 8 == b % 8)  /* the shared rank or file only */
                    line &= (a / 8 == b / 8) ? 0xFFull << (8 * (a / 8))
                                             : 0x0101010101010101ull << (a % 8);
                seg = slide(a, ends, ROOK_DIRS) & slide(b, ends, ROOK_DIRS);
            } else if (a != b && (slide(a, 0, BISHOP_DIRS) >> b & 1)) {
                line = (slide(a, 0, BISHOP_DIRS) & slide(b, 0, BISHOP_DIRS)) | ends;
                seg = slide(a, ends, BISHOP_DIRS) & slide(b, ends, BISHOP_DIRS);
            }
            fx_line[a][b] = line;
            fx_between[a][b] = seg;
        }
}

int fx_attacks_init(void)
{
    static int state;  /* 0 not yet, 1 done, -1 failed */
    static const int KNIGHT[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int KING[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                   {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int WHITE_PAWN[2][2] = {{1, -1}, {1, 1}}, BLACK_PAWN[2][2] = {{-1, -1}, {-1, 1}};
    if (state)
        return state > 0 ? 0 : -1;
    for (int sq = 0; sq < 64; sq++) {
        fx_knight_attacks[sq] = steps(sq, KNIGHT, 8);
        fx_king_attacks[sq] = steps(sq, KING, 8);
        fx_pawn_attacks[0][sq] = steps(sq, WHITE_PAWN, 2);
        fx_pawn_attacks[1][sq] = steps(sq, BLACK_PAWN, 2);
    }
    for (int b = 0; b < 256; b++)
        for (int i = 0, n = 0; i < 8; i++)
            if (b >> i & 1)
                fx_select8[b][n++] = (uint8_t)i;
    fill_lines();
    int bad = fill_magics(fx_rook_magic, ROOK_MAGIC, rook_table, 102400, ROOK_DIRS)
              | fill_magics(fx_bishop_magic, BISHOP_MAGIC, bishop_table, 5248, BISHOP_DIRS);
    state = bad ? -1 : 1;
    return bad ? -1 : 0;
}
