/* Lines of a newline-separated buffer, found 64 bytes at a time. */
#ifndef FASTXFEN_LINES_H
#define FASTXFEN_LINES_H

#include <stddef.h>
#include <stdint.h>

/* Number of lines of data[at:size]: a newline ends a line, and bytes after
 * the last newline are one more line. */
int64_t fx_count_lines(const uint8_t *data, size_t at, size_t size);

/* The same lines from data[*at], at most max_rows of them: starts[k] and
 * ends[k] (past its newline; a last line without one ends at size) of
 * each.  Returns their number; *at ends past the last. */
int64_t fx_line_spans(const uint8_t *data, size_t *at, size_t size, int64_t *starts,
                      int64_t *ends, int64_t max_rows);

#endif
