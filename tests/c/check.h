/* CHECK(x) for the C harnesses: counts checks and failures, printing each
 * failure with its line; the harness ends with "checks N failed F". */
#ifndef FASTXFEN_TESTS_CHECK_H
#define FASTXFEN_TESTS_CHECK_H

#include <stdio.h>

static int checks, failed;

static void check(int ok, const char *what, int line)
{
    checks++;
    if (!ok) {
        failed++;
        printf("FAIL line %d: %s\n", line, what);
    }
}
#define CHECK(x) check((x), #x, __LINE__)

#endif
