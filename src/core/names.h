/* The names users see for the engine's lists: each path's (fastcopy_stats()'s keys,
 * fastcopy.disable's words) and each fallback reason's (src/core/names.c). */

#ifndef FASTCOPY_NAMES_H
#define FASTCOPY_NAMES_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php_fastcopy.h"
#include "src/core/reasons.h"

/* An errno or FC_REASON_* as fastcopy_stats() names it; an errno without a name
 * is written into buf as "errno N". */
const char *fc_reason_name(int reason, char *buf, size_t buflen);

/* fastcopy.disable's value as a mask of (1 << path), or FAILURE after a warning
 * that names the word not known. */
zend_result fc_disable_mask(const zend_string *value, zend_long *mask);

/* Whether fastcopy.disable switches off a path (or the wrappers step). The
 * read/write path cannot be: it is what stock PHP does. */
bool fc_switched_off(int counter);

#endif
