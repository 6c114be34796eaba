/* A peer that hangs up must not kill PHP (src/core/sigpipe.c). */

#ifndef FASTCOPY_SIGPIPE_H
#define FASTCOPY_SIGPIPE_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#ifndef PHP_WIN32
# include <signal.h>
#endif

typedef struct {
#ifndef PHP_WIN32
	bool blocked;
	bool was_pending;
	sigset_t old_mask;
#else
	int unused;
#endif
} fc_sigpipe_guard;

void fc_sigpipe_block(fc_sigpipe_guard *guard);
void fc_sigpipe_restore(fc_sigpipe_guard *guard);

#endif
