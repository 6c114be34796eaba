/* What differs between the PHP versions fastcopy builds on, for every layer. */

#ifndef FASTCOPY_PHP_COMPAT_H
#define FASTCOPY_PHP_COMPAT_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_streams.h"

/* PHP 8.6's stream errors (php-src PR #20524): the stream functions run inside an
 * error "operation" that the context's error_mode and error_store act on at its end,
 * and stream errors carry a code that stream_last_errors() reports. Before 8.6, no
 * operations and plain messages. */
#if PHP_VERSION_ID >= 80600
# define FC_ERROR_OPERATION_BEGIN() php_stream_error_operation_begin()
# define FC_ERROR_OPERATION_END(context) php_stream_error_operation_end(context)
# define FC_ERROR_OPERATION_END_FOR_STREAM(stream) php_stream_error_operation_end_for_stream(stream)
# define FC_STREAM_NOTICE(stream, code, ...) php_stream_notice(stream, code, __VA_ARGS__)
#else
# define FC_ERROR_OPERATION_BEGIN() ((void) 0)
# define FC_ERROR_OPERATION_END(context) ((void) (context))
# define FC_ERROR_OPERATION_END_FOR_STREAM(stream) ((void) (stream))
# define FC_STREAM_NOTICE(stream, code, ...) php_error_docref(NULL, E_NOTICE, __VA_ARGS__)
#endif

/* Closes a copy's destination: 8.6 fails the copy when that close fails (a full
 * disk or an NFS server refusing the data at close: php-src c07cc850, PR #12067);
 * before, stock ignores the result. */
static inline bool fc_close_destination(php_stream *stream)
{
#if PHP_VERSION_ID >= 80600
	return php_stream_close(stream) == 0;
#else
	php_stream_close(stream);
	return true;
#endif
}

#endif
