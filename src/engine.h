/* The engine (src/engine.c): for one copy, the paths in order, each asked whether it
 * fits the two endpoints; the public php_fastcopy_copy() and its helpers for the
 * PHP functions above it. */

#ifndef FASTCOPY_ENGINE_H
#define FASTCOPY_ENGINE_H

#include "src/core/job.h"

const char *fc_path_unavailable(php_fastcopy_path path);
#if PHP_VERSION_ID >= 80600
bool fc_stock_copies_in_kernel(php_stream *src, php_stream *dest);
#endif
zend_result fc_override_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len);

#endif
