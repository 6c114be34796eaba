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
	st = fc_move_block(job, buf, len);
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
	st = fc_move_block(job, buf, MIN(MIN(buffered, job->remaining), sizeof(buf)));
	if (st == FC_CONTINUE && job->remaining == 0) {
		return FC_DONE;
	}
	return st;
}

/* One read of stock's copy loop from the request body, and its write. */
fc_status fc_request_body_fill(fc_job *job)
{
	char buf[FC_STOCK_BLOCK];

	return fc_move_block(job, buf, MIN(sizeof(buf), job->remaining));
}

fc_status fc_copy_request_body(fc_job *job)
{
	char buf[FC_STOCK_BLOCK];

	while (job->remaining > 0) {
		fc_status st = fc_move_block(job, buf, MIN(sizeof(buf), job->remaining));

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
		st = fc_move_block(job, buf, MIN(block, job->remaining));
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
