/* The engine: for one copy, pick the fastest path that is correct for the two
 * endpoints and fall back, path by path, when one declines. Every path leaves the
 * job exactly past the last byte it delivered, so a fallback after partial progress
 * neither loses nor repeats a byte. */

#include "src/engine.h"
#include "src/core/names.h"
#include "src/core/stats.h"
#include "src/endpoint/endpoint.h"
#include "src/paths/paths.h"
#include "src/sapi/sapi.h"

#include <fcntl.h>

typedef fc_status (*fc_path_fn)(fc_job *job);

static const struct {
	fc_path_fn copy;
	bool kernel; /* writes past PHP's stream layer: no O_APPEND, php://output settled first */
} paths[FASTCOPY_PATH_COUNT] = {
	[FASTCOPY_PATH_COPY_FILE_RANGE] = {fc_copy_file_range,    true},
	[FASTCOPY_PATH_SENDFILE]        = {fc_copy_sendfile,      true},
	[FASTCOPY_PATH_SPLICE]          = {fc_copy_splice,        true},
	[FASTCOPY_PATH_FASTCGI]         = {fc_copy_fastcgi,       true},
	[FASTCOPY_PATH_APACHE]          = {fc_copy_apache,        true},
	[FASTCOPY_PATH_SPOOL]           = {fc_copy_spool,         true},
	[FASTCOPY_PATH_FASTCGI_INPUT]   = {fc_copy_fastcgi_input, true},
	[FASTCOPY_PATH_MMAP]            = {fc_copy_mmap,          false},
	[FASTCOPY_PATH_DISCARD]         = {fc_copy_discard,       false},
	[FASTCOPY_PATH_BUFFERED]        = {fc_copy_buffered,      false},
};

#if PHP_VERSION_ID >= 80600
static bool has_notifier(php_stream *stream)
{
	php_stream_context *context = PHP_STREAM_CONTEXT(stream);

	return context && context->notifier;
}

/* A plain-files stream whose 8.6 copy cast says "file": not a pipe (is_pipe is
 * S_ISFIFO at open). The select cast hands the descriptor over without flushing
 * or seeking, so asking changes nothing. */
static bool copies_as_file(php_stream *stream)
{
	php_socket_t fd;
	zend_stat_t st;

	return php_stream_is(stream, PHP_STREAM_IS_STDIO)
		&& php_stream_cast(stream, PHP_STREAM_AS_FD_FOR_SELECT | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) == SUCCESS
		&& zend_fstat(fd, &st) == 0 && !S_ISFIFO(st.st_mode);
}

/* Whether stock 8.6's _php_stream_copy_to_stream_ex() copies this pair with its IO
 * copy API (php-src PR #20399) rather than its 8 KiB read/write loop: neither stream
 * userspace, both read buffers empty, no filters, no notifier, both castable with
 * PHP_STREAM_AS_FD_FOR_COPY, and not file to file into O_APPEND. The casts are asked
 * without a result, which only says whether they would succeed. */
bool fc_stock_copies_in_kernel(php_stream *src, php_stream *dest)
{
	int flags = 0;

	if (php_stream_is(src, PHP_STREAM_IS_USERSPACE) || php_stream_is(dest, PHP_STREAM_IS_USERSPACE)
			|| src->writepos != src->readpos || dest->writepos != dest->readpos
			|| php_stream_is_filtered(src) || php_stream_is_filtered(dest)
			|| has_notifier(src) || has_notifier(dest)
			|| php_stream_cast(src, PHP_STREAM_AS_FD_FOR_COPY, NULL, 0) != SUCCESS
			|| php_stream_cast(dest, PHP_STREAM_AS_FD_FOR_COPY, NULL, 0) != SUCCESS) {
		return false;
	}
	return !(copies_as_file(src) && copies_as_file(dest)
		&& php_stream_parse_fopen_modes(dest->mode, &flags) == SUCCESS && (flags & O_APPEND));
}
#endif

/* The copy an overridden built-in makes: the engine's, except the pairs stock 8.6
 * copies in the kernel itself (php-src PR #20399), which stay stock's: the same
 * syscalls, and stock's results exactly. */
zend_result fc_override_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len)
{
#if PHP_VERSION_ID >= 80600
	if (fc_stock_copies_in_kernel(src, dest)) {
		return php_stream_copy_to_stream_ex(src, dest, maxlen, len);
	}
#endif
	return php_fastcopy_copy(src, dest, maxlen, len);
}

/* NULL when a path can run in this process, or why it cannot (phpinfo()). */
const char *fc_path_unavailable(php_fastcopy_path path)
{
	switch (path) {
		case FASTCOPY_PATH_COPY_FILE_RANGE:
		case FASTCOPY_PATH_SENDFILE:
		case FASTCOPY_PATH_SPLICE:
			return fc_kernel_unavailable(path);
		case FASTCOPY_PATH_FASTCGI:
			return fc_fastcgi_unavailable();
		case FASTCOPY_PATH_APACHE:
			return fc_apache_unavailable();
		case FASTCOPY_PATH_SPOOL:
			return fc_kernel_unavailable(FASTCOPY_PATH_COPY_FILE_RANGE);
		case FASTCOPY_PATH_FASTCGI_INPUT:
			return fc_fastcgi_input_unavailable();
		case FASTCOPY_PATH_MMAP:
#ifdef FASTCOPY_HAVE_MMAP
			return NULL;
#else
			return "not built: no mmap() on this platform";
#endif
		default:
			return NULL;
	}
}

/* Whether a path can carry bytes between these two kinds of endpoint at all. */
static bool path_fits(php_fastcopy_path path, const fc_job *job)
{
	const fc_endpoint *in = &job->in, *out = &job->out;

	switch (path) {
		case FASTCOPY_PATH_COPY_FILE_RANGE:
			return in->kind == FC_KIND_FILE && out->kind == FC_KIND_FILE;
		case FASTCOPY_PATH_SENDFILE:
			return in->kind == FC_KIND_FILE && out->kind != FC_KIND_NONE;
		case FASTCOPY_PATH_SPLICE:
			return (in->kind == FC_KIND_PIPE || in->kind == FC_KIND_SOCKET) && out->kind != FC_KIND_NONE;
		case FASTCOPY_PATH_FASTCGI:
			return in->kind == FC_KIND_FILE && out->fastcgi;
		case FASTCOPY_PATH_APACHE:
			return in->kind == FC_KIND_FILE && out->apache;
		case FASTCOPY_PATH_SPOOL:
			return fc_is_request_body(in->stream) && out->kind == FC_KIND_FILE;
		case FASTCOPY_PATH_FASTCGI_INPUT:
			return fc_is_request_body(in->stream) && out->kind == FC_KIND_FILE && fc_fastcgi_input_possible();
		case FASTCOPY_PATH_MMAP:
			return in->kind == FC_KIND_FILE && !fc_output_discards(job);
		case FASTCOPY_PATH_DISCARD:
			return in->kind == FC_KIND_FILE && fc_output_discards(job);
		default:
			return true;
	}
}

static fc_status run_path(php_fastcopy_path path, fc_job *job)
{
	fc_status st;

	fc_stats_call(path);
	if (paths[path].kernel) {
		fc_endpoint_enter_kernel(&job->in);
		fc_endpoint_enter_kernel(&job->out);
	}
	job->in_path = true;
	job->path = path;
	job->path_start = job->done;
	st = paths[path].copy(job);
	job->in_path = false;
	if (paths[path].kernel) {
		fc_endpoint_leave_kernel(&job->in);
		fc_endpoint_leave_kernel(&job->out);
	}
	fc_stats_bytes(path, job->done - job->path_start);
	return st;
}

/* A path whose first call moved nothing hands over with ZERO, which is how procfs
 * and sysfs files look. Whether that is what it was, or just the end of the file,
 * only the next path can tell: ZERO is counted once a later path has found data. */
static void count_zero_verdicts(const fc_job *job, unsigned zero_paths, size_t done_then)
{
	if (job->done == done_then) {
		return;
	}
	for (int p = 0; p < FASTCOPY_PATH_COUNT; p++) {
		if (zero_paths & (1u << p)) {
			fc_stats_fallback((php_fastcopy_path) p, FC_REASON_ZERO);
		}
	}
}

static fc_status try_paths(fc_job *job)
{
	unsigned zero_paths = 0;
	size_t done_at_zero = 0;
	fc_status st = FC_DONE;

	for (int p = 0; p < FASTCOPY_PATH_COUNT && job->remaining > 0; p++) {
		php_fastcopy_path path = (php_fastcopy_path) p;

		if (!path_fits(path, job)) {
			continue;
		}
		if (fc_switched_off(path)) {
			continue;
		}
		if (paths[path].kernel && job->out.append) {
			/* The kernel refuses O_APPEND (EBADF, EINVAL): don't even ask. */
			fc_stats_fallback(path, FC_REASON_O_APPEND);
			continue;
		}
		if (paths[path].kernel && job->out.via_output) {
			/* The other paths write through the output layer themselves. */
			st = fc_output_settle(job);
			if (st != FC_CONTINUE) {
				break;
			}
		}

		st = run_path(path, job);
		if (st != FC_FALLBACK) {
			break;
		}
		st = FC_DONE;
		if (job->reason == FC_REASON_ZERO) {
			if (!zero_paths) {
				done_at_zero = job->done;
			}
			zero_paths |= 1u << path;
		} else {
			fc_stats_fallback(path, job->reason);
		}
	}
	count_zero_verdicts(job, zero_paths, done_at_zero);
	return st;
}

static fc_status copy_by_best_path(fc_job *job)
{
	/* Into the file it reads from: none of the paths can do that right. */
	if (fc_same_file(job)) {
		fc_status st = fc_copy_same_file(job);

		if (st != FC_FALLBACK) {
			return st;
		}
	}
	return try_paths(job);
}

/* Why the script ended inside a path: the path ended the connection (a file that
 * shrank under a range it had promised), the client hung up (aborts not ignored),
 * max_execution_time, or anything else that bails out (a fatal error raised by an
 * output handler, for one). */
static int bailout_reason(const fc_job *job)
{
	if (job->ended_by) {
		return job->ended_by;
	}
	if (PG(connection_status) & PHP_CONNECTION_ABORTED) {
		return FC_REASON_CLIENT_ABORTED;
	}
	if (PG(connection_status) & PHP_CONNECTION_TIMEOUT) {
		return FC_REASON_TIMED_OUT;
	}
	return FC_REASON_SCRIPT_ENDED;
}

/* Undoes whatever the copy changed outside itself. */
static void release_job(fc_job *job)
{
	fc_wrappers_release(job);
	fc_mmap_release(job);
	fc_buffered_release(job);
	fc_endpoint_leave_kernel(&job->in);
	fc_endpoint_leave_kernel(&job->out);
	fc_sigpipe_restore(&job->sigpipe);
}

PHP_FASTCOPY_API zend_result php_fastcopy_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len)
{
	fc_job job;
	volatile fc_status st = FC_FAILED;

	if (len) {
		*len = 0;
	}
	if (maxlen == 0) {
		return SUCCESS;
	}

	memset(&job, 0, sizeof(job));
	job.remaining = maxlen == PHP_STREAM_COPY_ALL ? SIZE_MAX : maxlen;

	/* A write into the output layer bails out when the client has gone and
	 * ignore_user_abort is off; the worker must come out of it intact. */
	zend_try {
		/* The destination first: opening the source may drop its read buffer
		 * (the kernel then reads those bytes again from the file). Each side
		 * is the stream under any wrapper that only passes bytes on. */
		fc_endpoint_open(&job.out, fc_see_through_destination(&job, dest), false);
		/* Under mod_php, php://output is written by Apache alone, which ignores
		 * SIGPIPE itself: no need for a sigaction() on each of sabre/http's pieces. */
		if (!job.out.apache) {
			fc_sigpipe_block(&job.sigpipe);
		}
		st = fc_see_through_source(&job, src);
		if (st == FC_CONTINUE) {
			st = copy_by_best_path(&job);
		}
	} zend_catch {
		/* The script ends inside a path (the client went away, aborts not
		 * ignored): what that path sent still counts in fastcopy_stats(), and
		 * so does why it stopped. */
		if (job.in_path) {
			fc_stats_bytes(job.path, job.done - job.path_start);
			fc_stats_fallback(job.path, bailout_reason(&job));
		}
		release_job(&job);
		zend_bailout();
	} zend_end_try();

	release_job(&job);
	if (len) {
		*len = job.done;
	}
	return st == FC_FAILED ? FAILURE : SUCCESS;
}
