/* The tables of the tail readers (tail.h): the heads of the commonest
 * tails, the bytes of castling fields, the slots of rights on the edge
 * files. */
#include "tail.h"

#include <string.h>

uint64_t fx_tail_castling_bits[256];
uint64_t fx_tail_head_keys[FX_TAIL_HEADS][2];
uint16_t fx_tail_head_values[FX_TAIL_HEADS];
uint32_t fx_tail_edge_slots[16];

/* turn in bit 0, the white and black rights (K Q) in bits 1-2 and 3-4, an
 * en-passant square in bit 5 with its file and rank in bits 6-9 and
 * 10-12. */
static uint16_t head_value(int turn, uint32_t white, uint32_t black, int ep, int file, int rank)
{
    return (uint16_t)(turn | white << 1 | black << 3 | ep << 5 | file << 6 | rank << 10);
}

static void add_head(const char *text, uint16_t value)
{
    uint8_t key[16] = {0};
    size_t n = strlen(text);
    memcpy(key + 16 - n, text, n);
    uint64_t lo, hi;
    memcpy(&lo, key, 8);
    memcpy(&hi, key + 8, 8);
    uint32_t slot = fx_tail_head_slot(lo, hi, 0);
    for (int kicks = 0; kicks < 64; kicks++) {
        uint64_t old_lo = fx_tail_head_keys[slot][0], old_hi = fx_tail_head_keys[slot][1];
        uint16_t old_value = fx_tail_head_values[slot];
        fx_tail_head_keys[slot][0] = lo;
        fx_tail_head_keys[slot][1] = hi;
        fx_tail_head_values[slot] = value;
        if (!old_hi)
            return;
        /* the key moved out goes to its other slot */
        lo = old_lo, hi = old_hi, value = old_value;
        uint32_t first = fx_tail_head_slot(lo, hi, 0);
        slot = slot == first ? fx_tail_head_slot(lo, hi, 1) : first;
    }
    /* not placed (never with these keys): such heads take the other path */
}

static void init_heads(void)
{
    static const char flags[] = "KQkq";
    for (int turn = 0; turn < 2; turn++)
        for (uint32_t set = 0; set < 16; set++)
            for (int ep = -1; ep < 2 * FX_MAX_WIDTH; ep++) {
                char text[16], *o = text;
                *o++ = turn ? 'b' : 'w';
                *o++ = ' ';
                for (int f = 0; f < 4; f++)
                    if (set >> f & 1)
                        *o++ = flags[f];
                if (!set)
                    *o++ = '-';
                *o++ = ' ';
                int file = ep % FX_MAX_WIDTH, rank = ep < FX_MAX_WIDTH ? 2 : 5;
                if (ep < 0) {
                    *o++ = '-';
                } else {
                    *o++ = (char)('a' + file);
                    *o++ = (char)('1' + rank);
                }
                *o = 0;
                add_head(text, head_value(turn, set & 3, set >> 2, ep >= 0, ep < 0 ? 0 : file,
                                          ep < 0 ? 0 : rank));
            }
}

void fx_init_tail_tables(void)
{
    for (uint32_t set = 0; set < 16; set++) {
        uint8_t slot[4];
        for (int f = 0; f < 4; f++)
            slot[f] = set >> f & 1 ? ((f & 1) ? 0 : 7) : FX_NONE;
        memcpy(&fx_tail_edge_slots[set], slot, 4);
    }
    init_heads();
    for (int c = 0; c < 256; c++) {
        int lower = c | 0x20, black = c >= 'a';
        if (lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'j'))
            fx_tail_castling_bits[c] =
                (uint64_t)fx_flag_bit((uint8_t)c) << 16 * black | FX_TAIL_COUNT(black);
        else
            fx_tail_castling_bits[c] = c == '-' ? FX_TAIL_DASH : FX_TAIL_OTHER;
    }
}

