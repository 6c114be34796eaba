/* The path that works for every pair of streams: PHP's own read and write calls, in
 * blocks far larger than stock's 8 KiB. Because it goes through the stream layer,
 * filters, userspace wrappers, TLS and notifications behave exactly as with stock
 * PHP, and so do the notices of a failing write. Where stock PHP loses data (a write
 * that stops short after the bytes were read) this path gives them back to a
 * seekable source, or waits until they are delivered. */

#include "src/paths/paths.h"
#include "src/endpoint/endpoint.h"

#include "ext/standard/php_fopen_wrappers.h"
#include <errno.h>

/* Blocks that PHP turns into strings (a userspace wrapper's stream_read() and
 * stream_write(), the buffer an output handler's callback receives) are capped so
 * that our block buffer, a string of the same size and the copy an output buffer
 * keeps all fit in one of Zend's 2 MiB chunks (511 usable pages of 4 KiB). Our
 * buffer, allocated before the first read and held to the end, then keeps mapped a
 * chunk where each block's string finds room. With 1 MiB blocks they cannot share
 * one (256 + 257 pages): each string, such as the fread() result icewind's
 * CallbackWrapper returns, took a chunk of its own that Zend mapped, faulted in and
 * unmapped again for every block, unless the worker's history of earlier requests
 * happened to make it cache one. A Nextcloud-shaped download through FPM then cost
 * 5 times stock's CPU (bench/cases/http/nextcloud.php); strings of 2 MiB and more
 * are fresh mappings always. 256 KiB blocks measured the same as 128 and 512 KiB,
 * and still call stream_read() 32 times less often than stock's 8 KiB. */
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
static fc_status move_block(fc_job *job, char *buf, size_t len)
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

/* php://input, the request body. The SAPI hands the body over as it is read, and
 * php://input keeps what it got in a spool (SG(request_info).request_body) that
 * later reads, seeks and new handles are served from. So the size of each read
 * decides what is spooled, SG(read_post_bytes), when SG(post_read) is set, how far
 * a later fseek() may go (stock's first read of a copy of 1000 bytes spools 8 KiB),
 * what is kept of a client that hangs up (FPM's fcgi_read() drops what one call had
 * gathered) and how many notices a full upload_tmp_dir raises. Such a source is
 * read as stock's copy loop reads it: through its read buffer, 8 KiB at a time,
 * each block written before the next is read. A read filter on it does not matter:
 * the filter sees the same reads too. */
bool fc_is_request_body(const php_stream *stream)
{
	return stream->wrapper == &php_stream_php_wrapper && strcmp(stream->ops->label, "Input") == 0;
}

/* The block of stock's copy loop (CHUNK_SIZE in main/streams/streams.c). */
#define FC_STOCK_BLOCK FC_REQUEST_BODY_FILL

/* Each fill of php://input's read buffer asks for what the buffer has room for:
 * 8 KiB, its chunk size, unless a script set another chunk size or a long line
 * (fgets()) grew the buffer. The paths that take whole fills at once (spool,
 * fastcgi_input) count on 8 KiB fills. */
bool fc_request_body_fills_stock(const php_stream *in)
{
	return in->chunk_size == FC_REQUEST_BODY_FILL && in->readbuflen <= FC_REQUEST_BODY_FILL;
}

/* Bytes PHP has already read ahead from the source come first, exactly once. For a
 * seekable source opening its endpoint has already dropped them (the kernel reads
 * them again from the file); a pipe's or socket's read-ahead exists only here. */
fc_status fc_copy_readahead(fc_job *job)
{
	php_stream *in = job->in.stream;
	size_t buffered, len;
	char *buf;
	fc_status st;

	/* The request body's loop drains its buffer as stock's first read does. */
	if (in->writepos <= in->readpos || fc_is_request_body(in)) {
		return FC_CONTINUE;
	}
	buffered = (size_t) (in->writepos - in->readpos);
	len = MIN(buffered, job->remaining);

	/* Copied out before writing: the write may run PHP code that reads the source. */
	buf = emalloc(len);
	st = move_block(job, buf, len);
	efree(buf);

	if (st == FC_CONTINUE && job->remaining == 0) {
		return FC_DONE;
	}
	return st;
}

/* What php://input has read ahead, and no more: one read from its buffer, as the
 * first read of stock's next block takes it, and its write. */
fc_status fc_request_body_drain(fc_job *job)
{
	php_stream *in = job->in.stream;
	size_t buffered = (size_t) (in->writepos - in->readpos);
	char buf[FC_STOCK_BLOCK];
	fc_status st;

	if (buffered == 0) {
		return FC_CONTINUE;
	}
	st = move_block(job, buf, MIN(MIN(buffered, job->remaining), sizeof(buf)));
	if (st == FC_CONTINUE && job->remaining == 0) {
		return FC_DONE;
	}
	return st;
}

/* One read of stock's copy loop from the request body, and its write. */
fc_status fc_request_body_fill(fc_job *job)
{
	char buf[FC_STOCK_BLOCK];

	return move_block(job, buf, MIN(sizeof(buf), job->remaining));
}

fc_status fc_copy_request_body(fc_job *job)
{
	char buf[FC_STOCK_BLOCK];

	while (job->remaining > 0) {
		fc_status st = move_block(job, buf, MIN(sizeof(buf), job->remaining));

		if (st != FC_CONTINUE) {
			return st;
		}
	}
	return FC_DONE;
}

fc_status fc_copy_buffered(fc_job *job)
{
	php_stream *in = job->in.stream;
	size_t size = MIN(fc_block_size(job), job->remaining), block;
	char *buf;
	fc_status st = FC_DONE;

	if (fc_is_request_body(in)) {
		return fc_copy_request_body(job);
	}

	/* Read straight into our block: with its buffer on, PHP would fill it chunk_size
	 * (8 KiB) at a time and call a userspace wrapper's stream_read() as often. Read
	 * filters ignore the flag and keep their own buffering. */
	if ((in->flags & PHP_STREAM_FLAG_NO_BUFFER) == 0) {
		in->flags |= PHP_STREAM_FLAG_NO_BUFFER;
		job->unbuffered = in;
	}
	buf = emalloc(size);

	/* The first block is stock's chunk size: a source that fails at once (a
	 * directory, a dead socket) then reports exactly the notice stock reports. */
	block = MIN((size_t) in->chunk_size, size);
	while (job->remaining > 0) {
		st = move_block(job, buf, MIN(block, job->remaining));
		if (st != FC_CONTINUE) {
			break;
		}
		block = size;
		st = FC_DONE;
	}

	efree(buf);
	fc_buffered_release(job);
	return st;
}

void fc_buffered_release(fc_job *job)
{
	if (job->unbuffered) {
		job->unbuffered->flags &= ~PHP_STREAM_FLAG_NO_BUFFER;
		job->unbuffered = NULL;
	}
}
