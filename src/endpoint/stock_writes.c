/* How stock's copy of a file feeds PHP's output layer, and so how far its writes
 * pass PHP's own output buffers. A path that writes past the buffers (to PHP-FPM's
 * socket, to Apache, to the web server by a hand-over, or nowhere) may take only
 * what stock's writes would have pushed through them; the rest goes into the
 * buffers in stock's own writes, so that they end as stock's end: headers_sent(),
 * ob_get_length() and a header() call after the copy see what they see with stock
 * (docs/internals.md, "What stock leaves in PHP's output buffers"). */

#include "src/endpoint/endpoint.h"

#include <unistd.h>

/* The read loops' block (CHUNK_SIZE in main/streams/streams.c, passthru's buffer). */
#define FC_STOCK_READ 8192

void fc_output_buffers_take(fc_output_buffers *b)
{
	php_output_handler **h = (php_output_handler **) zend_stack_base(&OG(handlers));
	int levels = zend_stack_count(&OG(handlers));

	b->levels = levels <= FC_OUTPUT_LEVELS ? levels : -1;
	for (int i = 0; i < levels && b->levels >= 0; i++) {
		/* a callback must see every write as stock's: its pieces are not told here */
		if (!fc_output_passes_bytes_on(h[i])) {
			b->levels = -1;
			break;
		}
		b->chunk[i] = h[i]->size;
		b->held[i] = h[i]->buffer.used;
	}
}

size_t fc_output_buffers_held(const fc_output_buffers *b)
{
	size_t held = 0;

	for (int i = 0; i < b->levels; i++) {
		held += b->held[i];
	}
	return held;
}

/* Stock writes a mapped file at once, in pieces PHP's own types can count:
 * readfile() and fpassthru() wherever the stream maps (Debian maps plain files up to
 * 4 MiB only), stream_copy_to_stream() too before 8.6, which reads 8 KiB at a time
 * instead. The mapping starts where the copy does, which mmap() takes only at a page
 * boundary. */
static size_t mapped_write_size(bool passthru)
{
#if PHP_VERSION_ID >= 80600
	if (!passthru) {
		return 0;
	}
#endif
	return passthru ? (size_t) INT_MAX : (size_t) PHP_STREAM_MMAP_MAX;
}

/* One write into the innermost buffer: php_output_handler_append() passes all that
 * a chunked buffer holds on, into the buffer below it or, from the outermost, to
 * the SAPI. Returns the bytes that reached the SAPI. */
static size_t push(size_t *held, const size_t *chunk, int level, size_t len)
{
	held[level] += len;
	if (held[level] < chunk[level]) {
		return 0;
	}
	len = held[level];
	held[level] = 0;
	return level == 0 ? len : push(held, chunk, level - 1, len);
}

/* How many of total bytes written write_size at a time pass all the buffers. */
static size_t passes_in(const fc_output_buffers *b, size_t total, size_t write_size)
{
	size_t held[FC_OUTPUT_LEVELS], at = 0, passes = 0;

	memcpy(held, b->held, sizeof(held));
	while (at < total) {
		size_t write = MIN(write_size, total - at);

		at += write;
		/* What reaches the SAPI has emptied every buffer on its way down, what they
		 * held before the copy first: all of the copy so far has passed. */
		if (push(held, b->chunk, b->levels - 1, write) > 0) {
			passes = at;
		}
	}
	return passes;
}

bool fc_stock_output_passes(const fc_output_buffers *b, php_stream *outer, zend_off_t start, bool passthru,
	size_t total, size_t *passes, size_t *write_size)
{
	size_t mapped = mapped_write_size(passthru);

	if (b->levels < 0) {
		return false;
	}
	*write_size = FC_STOCK_READ;
	if (b->levels == 0) {
		*passes = total;
		return true;
	}
	*passes = passes_in(b, total, FC_STOCK_READ);
	/* Whether stock maps the file is asked (an fstat() on Debian) only where the
	 * answer changes something: sabre/http's 4 MiB pieces pass whole either way. */
	if (mapped && start % sysconf(_SC_PAGESIZE) == 0
			&& !(*passes == total && passes_in(b, total, mapped) == total) && php_stream_mmap_possible(outer)) {
		*write_size = mapped;
		*passes = passes_in(b, total, mapped);
	}
	return true;
}
