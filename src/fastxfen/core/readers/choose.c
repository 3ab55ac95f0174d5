/* The choice of placement reader (readers.h): what each needs of the CPU,
 * what this CPU has, what the environment asks for. */
#include <stdio.h>
#include <stdlib.h>

#include "readers.h"

#ifdef FX_X86
#if (defined(_MSC_VER) && !defined(__clang__)) || defined(FASTXFEN_MSVC_STYLE)
#include <intrin.h>
#ifdef _MSC_VER
#define XGETBV_TARGET
#else  /* GCC's _xgetbv needs the target; MSVC's any CPU */
#include <immintrin.h>
#define XGETBV_TARGET __attribute__((target("xsave")))
#endif
static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    int regs[4];
    __cpuidex(regs, (int)leaf, (int)sub);
    for (int k = 0; k < 4; k++)
        r[k] = (uint32_t)regs[k];
}

XGETBV_TARGET static uint64_t xcr0(void) { return _xgetbv(0); }
#else
#include <cpuid.h>
static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}
#endif

/* CPUID leaves 1, 7 and 0x80000001 (LZCNT); AVX state (XMM and YMM, bits
 * 1 and 2 of XCR0) and AVX-512 state (opmask, ZMM 0-15 upper halves, ZMM
 * 16-31: bits 5 to 7) saved by the OS. */
static uint32_t detect(void)
{
    uint32_t r[4], f = 0;
    cpuid(0, 0, r);
    uint32_t max = r[0];
    cpuid(1, 0, r);
    f |= (r[3] >> 26 & 1) ? FX_CPU_SSE2 : 0;
    f |= (r[2] >> 23 & 1) ? FX_CPU_POPCNT : 0;
    int osxsave = r[2] >> 27 & 1, avx = r[2] >> 28 & 1;
    uint64_t state = osxsave ? xcr0() : 0;
    int ymm = avx && (state & 0x6) == 0x6, zmm = ymm && (state & 0xE0) == 0xE0;
    cpuid(0x80000000u, 0, r);
    if (r[0] >= 0x80000001u) {
        cpuid(0x80000001u, 0, r);
        f |= (r[2] >> 5 & 1) ? FX_CPU_LZCNT : 0;
    }
    if (max < 7)
        return f;
    cpuid(7, 0, r);
    static const struct {
        int reg, bit, state;
        uint32_t feature;
    } LEAF7[] = {
        {1, 3, 0, FX_CPU_BMI1},         {1, 8, 0, FX_CPU_BMI2},
        {1, 5, 1, FX_CPU_AVX2},         {1, 16, 2, FX_CPU_AVX512F},
        {1, 30, 2, FX_CPU_AVX512BW},    {1, 31, 2, FX_CPU_AVX512VL},
        {2, 1, 2, FX_CPU_AVX512VBMI},   {2, 6, 2, FX_CPU_AVX512VBMI2},
    };
    for (size_t k = 0; k < sizeof LEAF7 / sizeof LEAF7[0]; k++) {
        int saved = LEAF7[k].state == 0 || (LEAF7[k].state == 1 ? ymm : zmm);
        if ((r[LEAF7[k].reg] >> LEAF7[k].bit & 1) && saved)
            f |= LEAF7[k].feature;
    }
    return f;
}
#elif defined(FX_NEON)
static uint32_t detect(void) { return FX_CPU_NEON; }  /* Advanced SIMD is part of AArch64 */
#else
static uint32_t detect(void) { return 0; }
#endif

uint32_t fx_cpu_features(void)
{
    static uint32_t seen, known;
    if (!known) {
        seen = detect();
        known = 1;
    }
    return seen;
}

static const char *const FEATURES[FX_CPU_FEATURES] = {
    "sse2", "popcnt", "bmi1", "bmi2", "avx2", "avx512f", "avx512bw", "avx512vl",
    "avx512vbmi", "avx512vbmi2", "neon", "lzcnt",
};

const char *fx_cpu_feature_name(int k) { return k >= 0 && k < FX_CPU_FEATURES ? FEATURES[k] : NULL; }

#ifdef FX_SSE2
#define SSE2_SET {fx_read8_sse2, fx_read_sse2, NULL}
#else
#define SSE2_SET {NULL, NULL, NULL}
#endif
#ifdef FX_AVX2
#define AVX2_SET {fx_read8_avx2, fx_read_sse2, fx_write8_avx2}
#else
#define AVX2_SET {NULL, NULL, NULL}
#endif
#ifdef FX_AVX512
#define AVX512_SET {fx_read8_avx512, fx_read_sse2, fx_write8_avx512}
#else
#define AVX512_SET {NULL, NULL, NULL}
#endif
#ifdef FX_NEON
#define NEON_SET {fx_read8_neon, fx_read_scalar, fx_write8_neon}
#else
#define NEON_SET {NULL, NULL, NULL}
#endif

/* Each reader: its name, its writer's, the features it needs and its set
 * (no read: not built in). */
static const struct {
    const char *name, *writer;
    uint32_t needs;
    fx_reader_set set;
} READERS[FX_READERS] = {
    [FX_READER_SCALAR] = {"scalar", "table", 0, {NULL, fx_read_scalar, NULL}},
    [FX_READER_SSE2] = {"sse2", "table", FX_CPU_SSE2, SSE2_SET},
    [FX_READER_AVX2] = {"avx2", "avx2", FX_CPU_SSE2 | FX_CPU_POPCNT | FX_CPU_BMI1 | FX_CPU_AVX2,
                        AVX2_SET},
    [FX_READER_AVX512] = {"avx512", "avx512",
                          FX_CPU_SSE2 | FX_CPU_POPCNT | FX_CPU_BMI1 | FX_CPU_BMI2
                              | FX_CPU_AVX512F | FX_CPU_AVX512BW | FX_CPU_AVX512VL
                              | FX_CPU_AVX512VBMI | FX_CPU_AVX512VBMI2,
                          AVX512_SET},
    [FX_READER_NEON] = {"neon", "neon", FX_CPU_NEON, NEON_SET},
};

fx_reader_set fx_reader = {NULL, fx_read_scalar, NULL, 0};
static fx_reader_id active = FX_READER_SCALAR;
static char refusal[256];

const char *fx_reader_name(fx_reader_id id) { return READERS[id].name; }
const char *fx_writer_name(fx_reader_id id) { return READERS[id].writer; }
int fx_reader_built(fx_reader_id id) { return READERS[id].set.read != NULL; }

int fx_reader_runs(fx_reader_id id, uint32_t features)
{
    return fx_reader_built(id) && (READERS[id].needs & ~features) == 0;
}

/* The names of the readers in `which` (bit k: reader k), comma-separated. */
static void names(uint32_t which, char *out, size_t n)
{
    size_t at = 0;
    out[0] = 0;
    for (int k = 0; k < FX_READERS && at < n; k++)
        if (which >> k & 1)
            at += (size_t)snprintf(out + at, n - at, "%s%s", at ? ", " : "", READERS[k].name);
}

/* Why a CPU with these features cannot run reader id. */
static void lacking(fx_reader_id id, uint32_t features, uint32_t runs, char *why, size_t n)
{
    char missing[128] = "", those[64];
    size_t at = 0;
    for (int k = 0; k < FX_CPU_FEATURES && at < sizeof missing; k++)
        if (READERS[id].needs >> k & 1 & ~(features >> k))
            at += (size_t)snprintf(missing + at, sizeof missing - at, "%s%s", at ? ", " : "",
                                   FEATURES[k]);
    names(runs, those, sizeof those);
    snprintf(why, n, "FASTXFEN_READER=%s: this CPU lacks %s (it runs %s)", READERS[id].name,
             missing, those);
}

int fx_choose_reader(const char *request, uint32_t features, int no_avx512, int no_avx2,
                     char *why, size_t n)
{
    uint32_t built = 0, runs = 0, allowed;
    for (int k = 0; k < FX_READERS; k++) {
        built |= (uint32_t)fx_reader_built((fx_reader_id)k) << k;
        runs |= (uint32_t)fx_reader_runs((fx_reader_id)k, features) << k;
    }
    allowed = runs & ~((uint32_t)!!no_avx512 << FX_READER_AVX512)
              & ~((uint32_t)!!no_avx2 << FX_READER_AVX2);
    char list[64];
    if (!request || !*request || !strcmp(request, "auto"))
        return fx_clz32(allowed | 1) ^ 31;  /* the last one allowed; scalar always runs */
    for (int k = 0; k < FX_READERS; k++) {
        if (strcmp(request, READERS[k].name))
            continue;
        if (!(built >> k & 1)) {
            names(built, list, sizeof list);
            snprintf(why, n, "FASTXFEN_READER=%s: this build has no %s reader (it has %s)",
                     request, request, list);
        } else if (!(runs >> k & 1)) {
            lacking((fx_reader_id)k, features, runs, why, n);
        } else if (!(allowed >> k & 1)) {
            snprintf(why, n, "FASTXFEN_READER=%s: FASTXFEN_NO_%s is set too", request,
                     k == FX_READER_AVX2 ? "AVX2" : "AVX512");
        } else {
            return k;
        }
        return -1;
    }
    snprintf(why, n,
             "FASTXFEN_READER=%.40s: no such reader (auto, scalar, sse2, avx2, avx512 or neon)",
             request);
    return -1;
}

/* The features of x86-64-v3 that parse.c's second build of its row reader
 * uses; the AVX2 and AVX-512 readers' CPUs have them. */
#define V3_FEATURES (FX_CPU_POPCNT | FX_CPU_BMI1 | FX_CPU_BMI2 | FX_CPU_LZCNT | FX_CPU_AVX2)

void fx_use_reader(fx_reader_id id)
{
    fx_reader = READERS[id].set;
    fx_reader.v3 = (id == FX_READER_AVX2 || id == FX_READER_AVX512)
                   && (fx_cpu_features() & V3_FEATURES) == V3_FEATURES;
    active = id;
}

fx_reader_id fx_reader_active(void) { return active; }

const char *fx_readers_refusal(void) { return refusal[0] ? refusal : NULL; }

int fx_readers_init(void)
{
    const char *request = getenv("FASTXFEN_READER");
    int no_avx512 = getenv("FASTXFEN_NO_AVX512") != NULL, no_avx2 = getenv("FASTXFEN_NO_AVX2") != NULL;
    uint32_t features = fx_cpu_features();
    int id = fx_choose_reader(request, features, no_avx512, no_avx2, refusal, sizeof refusal);
    if (id >= 0) {
        refusal[0] = 0;
        fx_use_reader((fx_reader_id)id);
        return 0;
    }
    fx_use_reader((fx_reader_id)fx_choose_reader(NULL, features, no_avx512, no_avx2, NULL, 0));
    return -1;
}

#define FX_STR2(x) #x
#define FX_STR(x) FX_STR2(x)
const char *fx_compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#elif defined(_MSC_VER)
    return "msvc " FX_STR(_MSC_FULL_VER);
#else
    return "unknown";
#endif
}
