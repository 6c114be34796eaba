/* PHP's output layer as a destination: php://output, fpassthru() and readfile().
 * The layer is fed a block at a time, so chunked output buffers keep memory flat;
 * under the CLI with nothing buffered, it only settles the headers and the kernel
 * paths write to descriptor 1 (docs/internals.md, "The output layer"). */

#include "src/endpoint/endpoint.h"
#include "src/core/sapi_name.h"

#include "SAPI.h"
#include "php_output.h"
#include <unistd.h>

/* php://output streams, as ext/standard's php:// wrapper creates them. */
bool fc_is_output_stream(const php_stream *stream)
{
	return strcmp(stream->ops->label, "Output") == 0;
}

/* The descriptor behind the output layer, or -1 when output must go through it: an
 * output buffer is active, output is disabled (the client went away), or the SAPI
 * does its own framing. The CLI writes every byte of unbuffered output to STDOUT
 * with write(2) and waits when it is full, which is what the kernel paths do. */
int fc_output_fd(void)
{
	if (!fc_sapi_is(FC_SAPI_CLI)) {
		return -1;
	}
	if (php_output_get_level() > 0 || (php_output_get_status() & PHP_OUTPUT_DISABLED)) {
		return -1;
	}
	return STDOUT_FILENO;
}

/* An output buffer that only holds bytes and passes them on unchanged: PHP's default
 * handler (output_buffering = N, ob_start(null, N)) with a chunk size and allowed to
 * be flushed. A callback, ob_gzhandler, zlib.output_compression, or a buffer without
 * a chunk size (it keeps everything until the script says) must see the bytes. */
bool fc_output_passes_bytes_on(const php_output_handler *h)
{
	return !(h->flags & (PHP_OUTPUT_HANDLER_USER | PHP_OUTPUT_HANDLER_DISABLED))
		&& (h->flags & PHP_OUTPUT_HANDLER_FLUSHABLE) && h->size > 0
		&& zend_string_equals_literal(h->name, "default output handler");
}

static bool handlers_pass_bytes_on(void)
{
	php_output_handler **h = (php_output_handler **) zend_stack_base(&OG(handlers));

	for (int i = 0, n = zend_stack_count(&OG(handlers)); i < n; i++) {
		if (!fc_output_passes_bytes_on(h[i])) {
			return false;
		}
	}
	return true;
}

/* Where stock's writes would have emptied PHP's output buffers to the SAPI, they
 * pass on whatever a path writing through them has left there. */
void fc_output_pass_buffers(void)
{
	php_output_handler **h = (php_output_handler **) zend_stack_base(&OG(handlers));

	for (int i = 0, n = zend_stack_count(&OG(handlers)); i < n; i++) {
		if (h[i]->buffer.used > 0) {
			php_output_flush_all();
			return;
		}
	}
}

/* Why output goes nowhere: the client hung up (and the script ignores it), or
 * the SAPI sends headers only (HEAD). */
static int why_disabled(void)
{
	return PG(connection_status) & PHP_CONNECTION_ABORTED ? FC_REASON_CLIENT_ABORTED : FC_REASON_OUTPUT_DISABLED;
}

/* For a path that writes past the output layer: checks that nothing in it would see
 * or change the bytes, then sends what it holds (headers, buffered output, the SAPI's
 * own buffer) to the client, so that what follows comes after it. Returns 0, or the
 * reason the copy must go through the layer. A client found gone while flushing
 * ends the script here unless it ignores aborts, as any output would. */
int fc_output_pass_through(void)
{
	if (php_output_get_status() & (PHP_OUTPUT_DISABLED | PHP_OUTPUT_LOCKED)) {
		return php_output_get_status() & PHP_OUTPUT_DISABLED ? why_disabled() : FC_REASON_OUTPUT_DISABLED;
	}
	if (!handlers_pass_bytes_on()) {
		return FC_REASON_OUTPUT_HANDLER;
	}
	php_output_flush_all();
	sapi_flush();
	if (PG(connection_status) & PHP_CONNECTION_ABORTED || php_output_get_status() & PHP_OUTPUT_DISABLED) {
		return why_disabled();
	}
	return 0;
}

/* Whether everything written to this destination is thrown away: php://output once
 * output is disabled, with nothing in the layer that would see the bytes first (an
 * output handler's callback, or a buffer the script may read back). Stock still
 * reads the whole source there and returns its length; the engine skips it.
 * Returns 0, or the reason output is discarded. */
int fc_output_discards(const fc_job *job)
{
	if (!fc_is_output_stream(job->out.stream) || !(php_output_get_status() & PHP_OUTPUT_DISABLED)
			|| !handlers_pass_bytes_on()) {
		return 0;
	}
	return why_disabled();
}
