/* The path that works for every pair of streams: PHP's own read and write calls, in
 * blocks far larger than stock's 8 KiB. Because it goes through the stream layer,
 * filters, userspace wrappers, TLS and notifications behave exactly as with stock
 * PHP, and so do the notices of a failing write. Where stock PHP loses data (a write
 * that stops short after the bytes were read) this path gives them back to a
 * seekable source, or waits until they are delivered. */

#include "src/paths/paths.h"
#include "src/endpoint/endpoint.h"

/* Bytes PHP has already read ahead from the source come first, exactly once. For a
 * seekable source opening its endpoint has already dropped them (the kernel reads
 * them again from the file); a pipe's or socket's read-ahead exists only here. */
fc_status fc_copy_readahead(fc_job *job)
{
	php_stream *in = job->in.stream;
	size_t buffered, len;
	char *buf;
	fc_status st;

	if (in->writepos <= in->readpos) {
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

fc_status fc_copy_buffered(fc_job *job)
{
	php_stream *in = job->in.stream;
	size_t size = MIN(fc_block_size(job), job->remaining), block;
	char *buf;
	fc_status st = FC_DONE;

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
