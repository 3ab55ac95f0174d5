/* The move text code (plycode.h) built for CPUs with POPCNT and BMI2: a
 * popcount and a bit select (PDEP) of one instruction each, for the chain
 * reader and the move text encoder.  Elsewhere
 * (other compilers and CPUs) these entry points fall back to the baseline
 * build and fx_ply_bmi2_usable says 0. */
#include <stdlib.h>

#include "training.h"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(FASTXFEN_NO_SIMD)
#include <immintrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("popcnt,bmi,bmi2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("popcnt,bmi,bmi2")
#endif
#define PLY(name) name##_bmi2
#define POPCOUNT(x) __builtin_popcountll(x)
#define SELECT(x, n) ((int)__builtin_ctzll(_pdep_u64(1ull << (n), (x))))
#define GATHER(x, mask) _pext_u32((x), (mask))
#include "plycode.h"
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

int fx_ply_bmi2_usable(void)
{
    return 0;
}
#endif
