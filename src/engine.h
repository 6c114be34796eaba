/* The engine (src/engine.c): for one copy, the paths in order, each asked whether it
 * fits the two endpoints. Its public side, php_fastcopy_copy() and
 * php_fastcopy_passthru(), is declared in php_fastcopy.h. */

#ifndef FASTCOPY_ENGINE_H
#define FASTCOPY_ENGINE_H

#include "src/core/job.h"

const char *fc_path_unavailable(php_fastcopy_path path);

#endif
