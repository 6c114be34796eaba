/* A peer that hangs up must not kill PHP: sendfile(2) and splice(2) have no
 * MSG_NOSIGNAL. Where SIGPIPE's action is the default (an embedding SAPI,
 * pcntl_signal(SIGPIPE, SIG_DFL)), the copy runs with it blocked and consumes the
 * one it caused; a script's own handler is left to run (docs/internals.md,
 * "SIGPIPE"). */

#include "src/core/sigpipe.h"

#ifndef PHP_WIN32

#include <signal.h>
#include <time.h>
#include "zend_signal.h"

static bool sigpipe_would_kill(void)
{
	struct sigaction os;

	if (sigaction(SIGPIPE, NULL, &os) != 0) {
		return false;
	}
	if (!(os.sa_flags & SA_SIGINFO) && (os.sa_handler == SIG_DFL || os.sa_handler == SIG_IGN)) {
		return os.sa_handler == SIG_DFL;
	}
#ifdef ZEND_SIGNALS
	/* Zend's deferring handler stands in at the OS level for what PHP registered
	 * (pcntl_signal(SIGPIPE, SIG_DFL) included); the real action is in its table. */
	return SIGG(handlers)[SIGPIPE - 1].handler == (void *) SIG_DFL;
#else
	return false;
#endif
}

void fc_sigpipe_block(fc_sigpipe_guard *guard)
{
	sigset_t pipe_only, pending;

	guard->blocked = false;
	if (!sigpipe_would_kill()) {
		return;
	}

	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigemptyset(&pending);
	sigpending(&pending);
	guard->was_pending = sigismember(&pending, SIGPIPE) == 1;
	guard->blocked = pthread_sigmask(SIG_BLOCK, &pipe_only, &guard->old_mask) == 0;
}

void fc_sigpipe_restore(fc_sigpipe_guard *guard)
{
	sigset_t pipe_only, pending;

	if (!guard->blocked) {
		return;
	}
	sigemptyset(&pending);
	sigpending(&pending);
	if (!guard->was_pending && sigismember(&pending, SIGPIPE) == 1) {
		struct timespec zero = {0, 0};

		sigemptyset(&pipe_only);
		sigaddset(&pipe_only, SIGPIPE);
		/* The pending signal is process-wide or ours; either way it was caused by
		 * the write we just made fail gracefully. */
		sigtimedwait(&pipe_only, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &guard->old_mask, NULL);
}

#else

void fc_sigpipe_block(fc_sigpipe_guard *guard)
{
}

void fc_sigpipe_restore(fc_sigpipe_guard *guard)
{
}

#endif
