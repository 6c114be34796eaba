/* stream_copy_to_stream()'s parameters, shared by fastcopy_stream() and the
 * overridden built-in, and the copy each asks for. */

#include "src/functions/functions.h"
#include "src/engine.h"

#include "ext/standard/file.h" /* php_stream_context_from_zval() */
#include <fcntl.h>

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

/* stream_copy_to_stream()'s parsing and messages as the running PHP has them:
 * (2, 4) with Z_PARAM_RESOURCE before 8.5; PHP_Z_PARAM_STREAM from 8.5 (php-src
 * PRs #17962 and #18078), which checks argument 1 fully before argument 2 and calls
 * a closed handle "an open stream resource"; (2, 5) with $context from 8.6 (PR
 * #20524), the seek and the copy inside an error operation. */
void fc_stream_copy_function(INTERNAL_FUNCTION_PARAMETERS, bool as_override)
{
	php_stream *src, *dest;
	zend_long maxlen, pos = 0;
	bool maxlen_is_null = 1;
	size_t len;
	zend_result result;
#if PHP_VERSION_ID < 80500
	zval *zsrc, *zdest;
#endif
#if PHP_VERSION_ID >= 80600
	zval *zcontext = NULL;
	php_stream_context *context;
#endif

#if PHP_VERSION_ID >= 80600
	ZEND_PARSE_PARAMETERS_START(2, 5)
#else
	ZEND_PARSE_PARAMETERS_START(2, 4)
#endif
#if PHP_VERSION_ID >= 80500
		PHP_Z_PARAM_STREAM(src)
		PHP_Z_PARAM_STREAM(dest)
#else
		Z_PARAM_RESOURCE(zsrc)
		Z_PARAM_RESOURCE(zdest)
#endif
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(maxlen, maxlen_is_null)
		Z_PARAM_LONG(pos)
#if PHP_VERSION_ID >= 80600
		Z_PARAM_RESOURCE_OR_NULL(zcontext)
#endif
	ZEND_PARSE_PARAMETERS_END();

#if PHP_VERSION_ID < 80500
	php_stream_from_zval(src, zsrc);
	php_stream_from_zval(dest, zdest);
#endif
#if PHP_VERSION_ID >= 80600
	php_stream_error_operation_begin();
	context = php_stream_context_from_zval(zcontext, 0);
#endif

	/* Only a positive offset seeks; 0 and negatives mean "from here", as in stock. */
	if (pos > 0 && php_stream_seek(src, pos, SEEK_SET) < 0) {
#if PHP_VERSION_ID >= 80600
		/* stock ends the operation first, so the warning is outside it */
		php_stream_error_operation_end(context);
#endif
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream", pos);
		RETURN_FALSE;
	}

	/* null and every negative length mean "all", as a size_t they are huge. */
	if (maxlen_is_null) {
		maxlen = (zend_long) PHP_STREAM_COPY_ALL;
	}
	result = as_override ? fc_override_copy(src, dest, (size_t) maxlen, &len)
		: php_fastcopy_copy(src, dest, (size_t) maxlen, &len);
	if (result != SUCCESS) {
		RETVAL_FALSE;
	} else {
		RETVAL_LONG((zend_long) len);
	}
#if PHP_VERSION_ID >= 80600
	php_stream_error_operation_end(context);
#endif
}

