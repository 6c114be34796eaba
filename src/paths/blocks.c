/* Blocks through PHP's stream layer, as the paths that use it share them: their size,
 * writing one the way stock's copy loop does, giving back to the source what did not
 * reach the destination, and reporting a kernel path's failed write as the stream's
 * own write would. */

#include "src/paths/paths.h"
#include "src/endpoint/endpoint.h"
#include "src/core/php_compat.h"

#include <errno.h>

/* Blocks that PHP turns into strings (a userspace wrapper's reads and writes, an
 * output handler's buffer) are capped so that our buffer, such a string and an
 * output buffer's copy share one of Zend's 2 MiB chunks: with 1 MiB blocks every
 * string was a fresh mapping, and a Nextcloud-shaped download cost 5 times stock's
 * CPU (docs/internals.md, "Blocks through PHP's stream layer"). */
#define FC_PHP_BLOCK_MAX ((size_t) 256 << 10)

static bool strings_in_php(const php_stream *stream)
{
	return php_stream_is(stream, PHP_STREAM_IS_USERSPACE) || fc_is_output_stream(stream);
}

/* The block size for the paths that go through the stream layer. A block takes at
 * most a quarter of what memory_limit still allows (never less than stock's 8 KiB):
 * a large fastcopy.buffer_size must not end a script that stock's copy would not. */
size_t fc_block_size(const fc_job *job)
{
	size_t size = (size_t) FASTCOPY_G(buffer_size);

	/* into PHP's output buffers as stock's writes go, where they must end as stock's */
	if (job->stock_write) {
		return job->stock_write;
	}
	if (strings_in_php(job->in.stream) || strings_in_php(job->out.stream)) {
		size = MIN(size, FC_PHP_BLOCK_MAX);
	}
	if (PG(memory_limit) > 0) {
		size_t limit = (size_t) PG(memory_limit), used = zend_memory_usage(false);
		size_t room = limit > used ? (limit - used) / 4 : 0;

		size = MAX(MIN(size, room), 8192);
	}
	return size;
}

/* A userspace stream_write() that returned 0 or less after taking part of a block
 * makes php_stream_write() come back short. Stock writes a regular file's bytes
 * with one php_stream_write() per mapping and gives up on a short count; from any
 * other source its read loop calls the wrapper once more with the rest. */
static bool short_write_ends_copy(const fc_job *job)
{
	return job->in.kind == FC_KIND_FILE && php_stream_is(job->out.stream, PHP_STREAM_IS_USERSPACE);
}

/* Writes len bytes the way stock's copy loop does: php_stream_write() until it
 * returns 0 or less. *written says how far it got. FC_CONTINUE: all written;
 * FC_DONE: a non-blocking destination is full; FC_FAILED: the stream reported an
 * error. */
fc_status fc_write_block(fc_job *job, const char *buf, size_t len, size_t *written)
{
	php_stream *out = job->out.stream;
	bool plain_fd = job->out.kind != FC_KIND_NONE && job->out.sock == NULL;
	ssize_t w = 0;

	*written = 0;
	while (*written < len) {
		errno = 0;
		w = php_stream_write(out, buf + *written, len - *written);
		if (w > 0) {
			*written += (size_t) w;
			if (*written < len && short_write_ends_copy(job)) {
				w = -1;
				break;
			}
			if (*written < len && job->out.sock && job->out.sock->timeout_event) {
				/* The socket timed out part-way and said so; stock would wait
				 * the whole timeout again only to fail with a second notice. */
				w = -1;
				break;
			}
		} else if (w < 0 && errno == EINTR && plain_fd) {
			/* A signal interrupted write(2) on a pipe or file: plain_wrapper
			 * returns -1 silently and stock gives up; carry on instead. */
			continue;
		} else {
			break;
		}
	}
	job->done += *written;

	if (*written == len) {
		return FC_CONTINUE;
	}
	return w == 0 && job->out.nonblocking ? FC_DONE : FC_FAILED;
}

/* Bytes taken from the source that did not reach the destination go back in front
 * of the source's read buffer, which every read drains first (even with
 * PHP_STREAM_FLAG_NO_BUFFER): pipes, sockets, filters and userspace wrappers can
 * all give back this way. The next read or copy starts at the first byte that was
 * not delivered, where stock PHP would have dropped them. */
static void give_back_at(fc_job *job, size_t at, const char *buf, size_t n)
{
	php_stream *in = job->in.stream;
	size_t buffered = (size_t) (in->writepos - in->readpos);

	if (n == 0) {
		return;
	}
	if (in->readbuflen < n + buffered) {
		in->readbuf = perealloc(in->readbuf, n + buffered, in->is_persistent);
		in->readbuflen = n + buffered;
	}
	memmove(in->readbuf + at + n, in->readbuf + in->readpos + at, buffered - at);
	memmove(in->readbuf, in->readbuf + in->readpos, at);
	memcpy(in->readbuf + at, buf, n);
	in->readpos = 0;
	in->writepos = (zend_off_t) (n + buffered);
	in->position -= (zend_off_t) n;
	in->eof = 0;
	if (job->remaining != SIZE_MAX) {
		job->remaining += n;
	}
	job->given_back = at + n;
}

void fc_give_back(fc_job *job, const char *buf, size_t n)
{
	give_back_at(job, 0, buf, n);
}

/* For bytes that come after those given back a moment ago (our splice pipe is
 * emptied a piece at a time). */
void fc_give_back_after(fc_job *job, const char *buf, size_t n)
{
	give_back_at(job, job->given_back, buf, n);
}

/* One block: read up to len bytes from the source, write them out. FC_DONE at EOF
 * (or a non-blocking/timed-out source with nothing to give, as stock). */
fc_status fc_move_block(fc_job *job, char *buf, size_t len)
{
	ssize_t got = php_stream_read(job->in.stream, buf, len);
	size_t written;
	fc_status st;

	if (got < 0) {
		return FC_FAILED;
	}
	if (got == 0) {
		return FC_DONE;
	}
	if (job->remaining != SIZE_MAX) {
		job->remaining -= (size_t) got;
	}

	st = fc_write_block(job, buf, (size_t) got, &written);
	if (st != FC_CONTINUE) {
		fc_give_back(job, buf + written, (size_t) got - written);
	}
	return st;
}

/* A write that failed in a kernel path is reported as the stream's own write would
 * report it (php_sockop_write, php_stdiop_write), with the size of the block the
 * read/write path would have tried, so the message reads the same. */
void fc_report_write_error(const fc_job *job, int err)
{
	const fc_endpoint *out = &job->out;
	zend_long attempted = (zend_long) MIN(job->remaining, fc_block_size(job));

	if (out->stream->flags & PHP_STREAM_FLAG_SUPPRESS_ERRORS) {
		return;
	}
	if (out->sock) {
#if PHP_VERSION_ID >= 80600
		/* a warning from 8.6 on, with its code (php-src PR #20524) */
		php_stream_warn(out->stream, NetworkSendFailed, "Send of " ZEND_LONG_FMT " bytes failed with errno=%d %s",
			attempted, err, strerror(err));
#else
		php_error_docref(NULL, E_NOTICE, "Send of " ZEND_LONG_FMT " bytes failed with errno=%d %s",
			attempted, err, strerror(err));
#endif
	} else {
		FC_STREAM_NOTICE(out->stream, WriteFailed, "Write of " ZEND_LONG_FMT " bytes failed with errno=%d %s",
			attempted, err, strerror(err));
	}
}
