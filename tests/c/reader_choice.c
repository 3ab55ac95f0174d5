/* The choice of placement reader (core/readers/choose.c) for made-up CPUs:
 * auto takes the best reader built in that the CPU runs, less those
 * FASTXFEN_NO_AVX512 and FASTXFEN_NO_AVX2 turn off; a reader asked for by
 * name is taken when it is built in and the CPU runs it, and refused
 * otherwise with a message saying why.  Holds for any build (x86-64,
 * AArch64, FASTXFEN_NO_SIMD): the checks follow what is built in.
 *
 *     cc -O1 -std=c11 -I src/fastxfen/core tests/c/reader_choice.c \
 *        src/fastxfen/core/readers/{choose,scalar,sse2,avx2,avx512,neon}.c \
 *        src/fastxfen/core/tables.c -o choice
 *     ./choice
 *
 * Prints "checks N failed F" and exits 1 if any check failed. */
#include <stdio.h>
#include <string.h>

#include "readers/readers.h"
#include "check.h"

uint8_t fx_rank_text[256][8];  /* the writers' tables, unused here */
uint8_t fx_rank_len[256];

static char why[256];

/* The reader chosen for request on a CPU with these features. */
static int choose(const char *request, uint32_t cpu, int no512, int no2)
{
    why[0] = 0;
    return fx_choose_reader(request, cpu, no512, no2, why, sizeof why);
}

#define AVX2_CPU (FX_CPU_SSE2 | FX_CPU_POPCNT | FX_CPU_BMI1 | FX_CPU_BMI2 | FX_CPU_AVX2)
#define AVX512_CPU                                                                        \
    (AVX2_CPU | FX_CPU_AVX512F | FX_CPU_AVX512BW | FX_CPU_AVX512VL | FX_CPU_AVX512VBMI \
     | FX_CPU_AVX512VBMI2)

static void x86(void)
{
    CHECK(choose(NULL, AVX512_CPU, 0, 0) == FX_READER_AVX512);
    CHECK(choose("auto", AVX512_CPU, 1, 0) == FX_READER_AVX2);
    CHECK(choose("", AVX512_CPU, 1, 1) == FX_READER_SSE2);
    CHECK(choose(NULL, AVX512_CPU, 0, 1) == FX_READER_AVX512);  /* as before: NO_AVX2 alone */
    CHECK(choose(NULL, AVX512_CPU & ~FX_CPU_AVX512VBMI2, 0, 0) == FX_READER_AVX2);
    CHECK(choose(NULL, FX_CPU_SSE2 | FX_CPU_POPCNT, 0, 0) == FX_READER_SSE2);
    CHECK(choose("sse2", AVX512_CPU, 0, 0) == FX_READER_SSE2);
    CHECK(choose("avx2", AVX512_CPU, 1, 0) == FX_READER_AVX2);
    CHECK(choose("avx512", AVX512_CPU & ~FX_CPU_AVX512VBMI2 & ~FX_CPU_AVX512VBMI, 0, 0) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=avx512: this CPU lacks avx512vbmi, avx512vbmi2 "
                      "(it runs scalar, sse2, avx2)") == 0);
    CHECK(choose("avx2", FX_CPU_SSE2, 0, 0) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=avx2: this CPU lacks popcnt, bmi1, avx2 "
                      "(it runs scalar, sse2)") == 0);
    CHECK(choose("avx2", AVX512_CPU, 0, 1) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=avx2: FASTXFEN_NO_AVX2 is set too") == 0);
    CHECK(choose("avx512", AVX512_CPU, 1, 0) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=avx512: FASTXFEN_NO_AVX512 is set too") == 0);
    CHECK(choose("neon", AVX512_CPU, 0, 0) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=neon: this build has no neon reader "
                      "(it has scalar, sse2, avx2, avx512)") == 0);
}

static void arm(void)
{
    CHECK(choose(NULL, FX_CPU_NEON, 0, 0) == FX_READER_NEON);
    CHECK(choose("neon", FX_CPU_NEON, 1, 1) == FX_READER_NEON);
    CHECK(choose("avx2", FX_CPU_NEON, 0, 0) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=avx2: this build has no avx2 reader "
                      "(it has scalar, neon)") == 0);
}

int main(void)
{
    CHECK(fx_reader_built(FX_READER_SCALAR));
    CHECK(choose(NULL, 0, 0, 0) == FX_READER_SCALAR);
    CHECK(choose("scalar", AVX512_CPU | FX_CPU_NEON, 0, 0) == FX_READER_SCALAR);
    CHECK(choose("avx-512", 0, 0, 0) == -1);
    CHECK(strcmp(why, "FASTXFEN_READER=avx-512: no such reader "
                      "(auto, scalar, sse2, avx2, avx512 or neon)") == 0);
    if (fx_reader_built(FX_READER_AVX512))
        x86();
    if (fx_reader_built(FX_READER_NEON))
        arm();
    if (!fx_reader_built(FX_READER_SSE2) && !fx_reader_built(FX_READER_NEON)) {  /* no SIMD */
        CHECK(choose(NULL, AVX512_CPU | FX_CPU_NEON, 0, 0) == FX_READER_SCALAR);
        CHECK(choose("sse2", AVX512_CPU, 0, 0) == -1);
        CHECK(strcmp(why, "FASTXFEN_READER=sse2: this build has no sse2 reader "
                          "(it has scalar)") == 0);
    }
    /* the features this CPU shows run the reader installed */
    fx_readers_init();
    CHECK(fx_reader_runs(fx_reader_active(), fx_cpu_features()));
    printf("checks %d failed %d\n", checks, failed);
    return failed != 0;
}
