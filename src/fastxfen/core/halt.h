/* A flag one thread raises to ask the threads working on the same call to
 * stop (a signal, an error in another thread); they look at it between
 * blocks of rows.  Relaxed atomics: the flag only says "stop soon", and the
 * thread that waits for the others learns they are done through a lock. */
#ifndef FASTXFEN_HALT_H
#define FASTXFEN_HALT_H

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
typedef long fx_flag;
static inline void fx_halt(fx_flag *flag) { _InterlockedExchange(flag, 1); }
static inline int fx_halted(const fx_flag *flag) { return *(const volatile fx_flag *)flag != 0; }
#else
typedef int fx_flag;
static inline void fx_halt(fx_flag *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
static inline int fx_halted(const fx_flag *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }
#endif

#endif
