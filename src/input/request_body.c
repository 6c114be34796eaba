/* php://input, read as stock's copy loop reads it: through its read buffer, 8 KiB
 * at a time, each block written before the next is read. */

#include "src/input/input.h"
#include "src/paths/paths.h"

#include "ext/standard/php_fopen_wrappers.h"

/* php://input's spool keeps what each read got from the SAPI, so the size of each
 * read decides what is spooled, SG(read_post_bytes), SG(post_read), how far a later
 * fseek() may go and what is kept of a client that hangs up: it is read as stock's
 * copy loop reads it (docs/internals.md, "php://input read as stock reads it"). */
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
