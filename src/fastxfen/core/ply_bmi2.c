/* The move text code (plycode.h) built for CPUs with POPCNT and BMI2: a
 * popcount, a bit select (PDEP) and a bit gather (PEXT) of one instruction
 * each, and the sliders' attacks from compact PEXT tables (attacks.h), for
 * the chain reader and the move text encoder.  Elsewhere (other compilers
 * and CPUs) these entry points fall back to the baseline build and
 * fx_ply_bmi2_usable says 0. */
#include <stdlib.h>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(FASTXFEN_NO_SIMD)
/* every function of this file (those of the headers too) may use BMI2,
 * but fx_ply_bmi2_usable, which runs first */
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,bmi,bmi2")
#endif
#include <immintrin.h>
#define FX_PEXT_SLIDERS 1
#include "training.h"

#define PLY(name) name##_bmi2
#define POPCOUNT(x) __builtin_popcountll(x)
#define SELECT(x, n) ((int)__builtin_ctzll(_pdep_u64(1ull << (n), (x))))
#define GATHER(x, mask) _pext_u32((x), (mask))
#include "plycode.h"

fx_pext_slider fx_rook_pext[64], fx_bishop_pext[64];
uint16_t fx_slider_bits[102400 + 5248];

/* Each square's slice: for every occupancy of its mask (in PEXT order),
 * the magic tables' attack set gathered onto the square's rays. */
static uint32_t fill_pext(fx_pext_slider *p, const fx_magic *m, uint32_t offset)
{
    for (int sq = 0; sq < 64; sq++) {
        const fx_magic *g = &m[sq];
        p[sq].mask = g->mask;
        p[sq].rays = fx_magic_attacks(g, 0);  /* the empty board */
        p[sq].offset = offset;
        uint64_t n = 1ull << __builtin_popcountll(g->mask);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t attacks = fx_magic_attacks(g, _pdep_u64(i, g->mask));
            fx_slider_bits[offset + i] = (uint16_t)_pext_u64(attacks, p[sq].rays);
        }
        offset += (uint32_t)n;
    }
    return offset;
}

void fx_pext_sliders_init(void)
{
    fill_pext(fx_bishop_pext, fx_bishop_magic, fill_pext(fx_rook_pext, fx_rook_magic, 0));
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

int fx_ply_bmi2_usable(void)
{
    if (getenv("FASTXFEN_NO_BMI2"))
        return 0;
    __builtin_cpu_init();
    /* PDEP is microcoded, hundreds of cycles, before AMD's Zen 3 */
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2")
           && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
}
#else
#include "training.h"

void fx_pext_sliders_init(void)
{
}

size_t fx_bp_read_bmi2(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n,
                       fx_t_error *err)
{
    return fx_bp_read_generic(r, c, row, max_n, err);
}

int fx_bp_next_ply_bmi2(fx_bp_reader *r, int check, fx_t_error *err)
{
    return fx_bp_next_ply_generic(r, check, err);
}

int fx_bp_encode_ply_bmi2(const fx_board *b, fx_move m, int16_t score, int16_t *last_score,
                          fx_bit_writer *w)
{
    return fx_bp_encode_ply_generic(b, m, score, last_score, w);
}

int fx_t_is_legal_bmi2(const fx_board *b, fx_move m)
{
    return fx_t_is_legal_generic(b, m);
}

int fx_ply_bmi2_usable(void)
{
    return 0;
}
#endif
