/* What the export formats share (shared.h), and is not inline. */
#include "shared.h"

int fx_x_fail(fx_error *err, uint32_t code, uint32_t field, uint64_t column,
              uint32_t a, uint32_t b)
{
    err->code = code;
    err->field = field;
    err->column = column;
    err->a = a;
    err->b = b;
    err->c = 0;
    return -1;
}
