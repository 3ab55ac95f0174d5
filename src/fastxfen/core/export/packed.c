/* The tables of the packed board (packed.h). */
#include "packed.h"

rank_moves fx_x_rank_moves[256];
uint8_t fx_x_rank_count[256];

void fx_x_init(void)
{
    for (int m = 0; m < 256; m++) {
        rank_moves mv = {{0, 0, 0}, 0};
        int below = 0;
        for (int j = 0; j < 8; j++) {
            if (!((m >> j) & 1))
                continue;
            int distance = j - below++, at = j;
            mv.bytes |= 0xFFull << (8 * j);
            for (int i = 0; i < 3; i++)
                if ((distance >> i) & 1) {
                    mv.step[i] |= 0xFFull << (8 * at);
                    at -= 1 << i;
                }
        }
        fx_x_rank_moves[m] = mv;
        fx_x_rank_count[m] = (uint8_t)below;
    }
}
