/* The engine: for one copy, pick the fastest path that is correct for the two
 * endpoints and fall back, path by path, when one declines. Every path leaves the
 * job exactly past the last byte it delivered, so a fallback after partial progress
 * neither loses nor repeats a byte. */

#include "src/engine.h"
#include "src/core/names.h"
#include "src/core/sigpipe.h"
#include "src/core/stats.h"
#include "src/endpoint/endpoint.h"
#include "src/paths/paths.h"
#include "src/sapi/sapi.h"
#include "src/input/input.h"

#include "SAPI.h"

typedef fc_status (*fc_path_fn)(fc_job *job);

/* php://input goes through the stream layer only as stock's copy loop reads it. */
static fc_status copy_buffered(fc_job *job)
{
	return fc_is_request_body(job->in.stream) ? fc_copy_request_body(job) : fc_copy_buffered(job);
}

static const struct {
	fc_path_fn copy;
	bool kernel;                  /* writes past PHP's stream layer: no O_APPEND, php://output settled first */
	const fc_server_path *server; /* a server's own path, asked through what it registered */
	bool owns_output;             /* php://output ends in that server's writer, which only this path passes */
	bool past_buffers;            /* into php://output without PHP's output buffers seeing the bytes */
} paths[FASTCOPY_PATH_COUNT] = {
	[FASTCOPY_PATH_COPY_FILE_RANGE] = {fc_copy_file_range, true},
	[FASTCOPY_PATH_SENDFILE]        = {fc_copy_sendfile,   true},
	[FASTCOPY_PATH_SPLICE]          = {fc_copy_splice,     true},
	[FASTCOPY_PATH_HANDOVER]        = {NULL,               true, &fc_handover_path, false, true},
	[FASTCOPY_PATH_FASTCGI]         = {NULL,               true, &fc_fastcgi_path, true, true},
	[FASTCOPY_PATH_APACHE]          = {NULL,               true, &fc_apache_path, true, true},
	[FASTCOPY_PATH_SPOOL]           = {fc_copy_spool,      true},
	[FASTCOPY_PATH_BODY_FILE]       = {NULL,               true, &fc_body_file_path},
	[FASTCOPY_PATH_FASTCGI_INPUT]   = {NULL,               true, &fc_fastcgi_input_path},
	[FASTCOPY_PATH_MMAP]            = {fc_copy_mmap,       false},
	[FASTCOPY_PATH_DISCARD]         = {fc_copy_discard,    false, NULL, false, true},
	[FASTCOPY_PATH_BUFFERED]        = {copy_buffered,      false},
};

/* Whether a server's path can run in this process at all. */
static bool server_possible(const fc_server_path *server)
{
	return !server->not_built && server->possible();
}

/* The server path php://output belongs to in this process, or -1. */
static int output_owner(void)
{
	for (int p = 0; p < FASTCOPY_PATH_COUNT; p++) {
		if (paths[p].owns_output && server_possible(paths[p].server)) {
			return p;
		}
	}
	return -1;
}

/* NULL when a path can run in this process, or why it cannot (phpinfo()). */
const char *fc_path_unavailable(php_fastcopy_path path)
{
	const fc_server_path *server = paths[path].server;

	if (server) {
		return server->not_built ? server->not_built : server->unavailable();
	}
	switch (path) {
		case FASTCOPY_PATH_COPY_FILE_RANGE:
		case FASTCOPY_PATH_SENDFILE:
		case FASTCOPY_PATH_SPLICE:
			return fc_kernel_unavailable(path);
		case FASTCOPY_PATH_SPOOL:
			return fc_kernel_unavailable(FASTCOPY_PATH_COPY_FILE_RANGE);
		case FASTCOPY_PATH_MMAP:
			return fc_mmap_unavailable();
		default:
			return NULL;
	}
}

/* Until headers are sent, the first byte goes through the layer, which sends them
 * and records where output started, exactly as any other output would. */
static fc_status settle_output(fc_job *job)
{
	size_t before = job->done, rest = job->remaining;
	fc_status st;

	if (SG(headers_sent)) {
		return FC_CONTINUE;
	}
	job->remaining = 1;
	fc_stats_call(FASTCOPY_PATH_BUFFERED);
	st = copy_buffered(job);
	fc_stats_bytes(FASTCOPY_PATH_BUFFERED, job->done - before);
	job->remaining = rest == SIZE_MAX ? SIZE_MAX : rest - (job->done - before);

	if (st == FC_FAILED) {
		return FC_FAILED;
	}
	if (job->done == before || job->remaining == 0) {
		return FC_DONE;
	}
	/* A file of one byte has ended: no path need be asked to find that out. (A
	 * file that reports no size, as procfs does, has not.) */
	if (job->in.kind == FC_KIND_FILE) {
		zend_stat_t sb;
		if (zend_fstat(job->in.fd, &sb) == 0 && sb.st_size > 0 && job->in.stream->position >= sb.st_size) {
			job->in.stream->eof = 1;
			return FC_DONE;
		}
	}
	return FC_CONTINUE;
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
		case FASTCOPY_PATH_APACHE:
			return in->kind == FC_KIND_FILE && out->output_path == (int) path;
		case FASTCOPY_PATH_HANDOVER:
			/* the web server in front of PHP-FPM's socket */
			return in->kind == FC_KIND_FILE && out->output_path == FASTCOPY_PATH_FASTCGI;
		case FASTCOPY_PATH_SPOOL:
			return fc_is_request_body(in->stream) && out->kind == FC_KIND_FILE;
		case FASTCOPY_PATH_BODY_FILE:
		case FASTCOPY_PATH_FASTCGI_INPUT:
			return fc_is_request_body(in->stream) && out->kind == FC_KIND_FILE && server_possible(paths[path].server);
		case FASTCOPY_PATH_MMAP:
			return in->kind == FC_KIND_FILE && !fc_output_discards(job);
		case FASTCOPY_PATH_DISCARD:
			return in->kind == FC_KIND_FILE && fc_output_discards(job);
		default:
			return true;
	}
}

/* Asked for (fastcopy.same_host=copy): a TCP peer on this host is sent copies, which
 * it reads at less cost than the kernel's pages, by the paths that write through
 * the stream layer (docs/paths.md, "A peer on this host"). */
static bool copies_to_peer(const fc_job *job)
{
	return FASTCOPY_G(same_host_copies) && job->out.kind == FC_KIND_SOCKET
		&& fc_socket_peer(job->out.fd, &job->out.st) == FC_PEER_SAME_HOST_TCP;
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
	st = paths[path].server ? paths[path].server->copy(job) : paths[path].copy(job);
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
		if (job->layer_only && (paths[path].past_buffers || (paths[path].kernel && job->out.via_output))) {
			continue;
		}
		if ((path == FASTCOPY_PATH_SENDFILE || path == FASTCOPY_PATH_SPLICE) && copies_to_peer(job)) {
			fc_stats_fallback(path, FC_REASON_SAME_HOST);
			continue;
		}
		if (paths[path].kernel && job->out.append) {
			/* The kernel refuses O_APPEND (EBADF, EINVAL): don't even ask. */
			fc_stats_fallback(path, FC_REASON_O_APPEND);
			continue;
		}
		if (paths[path].server && paths[path].server->prepare) {
			int reason = paths[path].server->prepare(job);

			if (reason > 0) {
				fc_stats_call(path);
				fc_stats_fallback(path, reason);
			}
			if (reason != 0) {
				continue;
			}
		}
		if (paths[path].kernel && job->out.via_output) {
			/* The other paths write through the output layer themselves. */
			st = settle_output(job);
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

/* What is left of a file copied into php://output, by the size the endpoint took
 * when the copy began; 0 when that cannot be told. */
static size_t file_left(const fc_job *job)
{
	if (job->in.kind != FC_KIND_FILE || job->in.st.st_size <= job->in.stream->position) {
		return 0;
	}
	return MIN(job->remaining, (size_t) (job->in.st.st_size - job->in.stream->position));
}

/* A file into php://output behind PHP's own output buffer: stock's writes push part
 * of it through the buffer, and the rest stays there until the buffer is full or
 * flushed. Any path may take the part that passes; the buffer gets the rest, as
 * stock's writes leave it (src/endpoint/stock_writes.c). */
static fc_status copy_into_output(fc_job *job)
{
	/* what the source's read buffer held has gone through the layer already */
	size_t left = file_left(job), passes, rest = job->remaining, write_size;
	fc_status st;

	/* the copy began where the source stood before its read buffer was drained */
	if (left == 0 || !fc_stock_output_passes(&job->output, job->outer_in,
			job->in.stream->position - (zend_off_t) job->done, job->passthru, job->done + left, &passes, &write_size)) {
		return try_paths(job);
	}
	passes = passes > job->done ? passes - job->done : 0;
	if (passes >= left) {
		/* all of it passes: to the end, as stock reads on to it */
		st = try_paths(job);
		if (st == FC_DONE) {
			fc_output_pass_buffers();
		}
		return st;
	}
	if (passes > 0) {
		job->remaining = passes;
		st = try_paths(job);
		if (st != FC_DONE || job->remaining > 0) {
			/* the file ended early, or the copy failed or stopped */
			job->remaining = rest == SIZE_MAX ? SIZE_MAX : rest - (passes - job->remaining);
			return st;
		}
		job->remaining = rest == SIZE_MAX ? SIZE_MAX : rest - passes;
		fc_output_pass_buffers();
	}
	/* the rest, once all that passed has passed, in stock's writes */
	job->layer_only = true;
	job->stock_write = MIN(write_size, left - passes);
	return try_paths(job);
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
	return fc_is_output_stream(job->out.stream) ? copy_into_output(job) : try_paths(job);
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

/* Opens the destination endpoint on the stream the copy writes to: under every
 * pass-through wrapper; php://output as the server path that owns it sees it. */
static void open_destination(fc_job *job, php_stream *stream)
{
	stream = fc_see_through_destination(job, stream);
	fc_endpoint_open(&job->out, stream, false, fc_is_output_stream(stream) ? output_owner() : -1);
}

/* Opens the source endpoint on the stream the copy reads from: under every
 * pass-through wrapper, each wrapper's read-ahead copied first. */
static fc_status open_source(fc_job *job, php_stream *stream)
{
	for (;;) {
		php_stream *under;
		fc_status st;

		fc_endpoint_open(&job->in, stream, true, -1);
		/* php://input's own loop drains its buffer as stock's first read does */
		st = fc_is_request_body(job->in.stream) ? FC_CONTINUE : fc_copy_readahead(job);
		if (st != FC_CONTINUE) {
			return st;
		}
		under = fc_see_through_source(job, stream);
		if (!under) {
			return FC_CONTINUE;
		}
		stream = under;
	}
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

static zend_result copy_streams(php_stream *src, php_stream *dest, size_t maxlen, size_t *len, bool passthru)
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
	job.outer_in = src;
	job.passthru = passthru;

	/* A write into the output layer bails out when the client has gone and
	 * ignore_user_abort is off; the worker must come out of it intact. */
	zend_try {
		/* The destination first: opening the source may drop its read buffer
		 * (the kernel then reads those bytes again from the file). Each side
		 * is the stream under any wrapper that only passes bytes on. */
		open_destination(&job, dest);
		if (fc_is_output_stream(job.out.stream)) {
			fc_output_buffers_take(&job.output);
		}
		/* Under mod_php, php://output is written by Apache alone, which ignores
		 * SIGPIPE itself: no need for a sigaction() on each of sabre/http's pieces. */
		if (job.out.output_path != FASTCOPY_PATH_APACHE) {
			fc_sigpipe_block(&job.sigpipe);
		}
		st = open_source(&job, src);
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

PHP_FASTCOPY_API zend_result php_fastcopy_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len)
{
	return copy_streams(src, dest, maxlen, len, false);
}

PHP_FASTCOPY_API ssize_t php_fastcopy_passthru(php_stream *src)
{
	php_stream *out = php_stream_open_wrapper_ex("php://output", "wb", 0, NULL, NULL);
	size_t len = 0;
	zend_result result;

	if (!out) {
		return php_stream_passthru(src);
	}
	result = copy_streams(src, out, PHP_STREAM_COPY_ALL, &len, true);
	php_stream_close(out);

	/* As stock: an error before the first byte is -1, otherwise what was sent. */
	return result == FAILURE && len == 0 ? -1 : (ssize_t) len;
}
