/*
  +----------------------------------------------------------------------+
  | fastcopy: stream copies at the speed of the kernel                   |
  +----------------------------------------------------------------------+
  | BSD 3-Clause License, see the LICENSE file.                          |
  +----------------------------------------------------------------------+
*/

#ifndef PHP_FASTCOPY_H
#define PHP_FASTCOPY_H

#include "php.h"
#include "php_streams.h"

extern zend_module_entry fastcopy_module_entry;
#define phpext_fastcopy_ptr &fastcopy_module_entry

#define PHP_FASTCOPY_VERSION "0.1.0"

#ifdef PHP_WIN32
# define PHP_FASTCOPY_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
# define PHP_FASTCOPY_API __attribute__ ((visibility("default")))
#else
# define PHP_FASTCOPY_API
#endif

/* The ways the engine can move bytes, in the order it tries them. */
typedef enum {
	FASTCOPY_PATH_COPY_FILE_RANGE = 0,
	FASTCOPY_PATH_SENDFILE,
	FASTCOPY_PATH_SPLICE,
	FASTCOPY_PATH_FASTCGI,        /* php://output under PHP-FPM: records straight to the socket */
	FASTCOPY_PATH_APACHE,         /* php://output under mod_php: a FILE bucket to Apache's filters */
	FASTCOPY_PATH_SPOOL,          /* php://input already in its spool file: copy_file_range from it */
	FASTCOPY_PATH_FASTCGI_INPUT,  /* php://input under PHP-FPM at the live edge: records from its socket */
	FASTCOPY_PATH_MMAP,
	FASTCOPY_PATH_DISCARD,        /* into an output layer that discards it: the source is skipped */
	FASTCOPY_PATH_BUFFERED,
	FASTCOPY_PATH_COUNT
} php_fastcopy_path;

/* Not a path but a step before them: seeing through userspace stream wrappers that
 * pass bytes on unchanged, to the stream underneath. Counted in fastcopy_stats()
 * and switched off by fastcopy.disable like a path. */
#define FASTCOPY_STEP_WRAPPERS FASTCOPY_PATH_COUNT
#define FASTCOPY_COUNTERS      (FASTCOPY_PATH_COUNT + 1)

/* Fallback reasons are errno values, plus some that are not errors of a syscall. */
#define FASTCOPY_REASON_ERRNO_MAX  150
#define FASTCOPY_REASON_ZERO       (FASTCOPY_REASON_ERRNO_MAX + 1) /* 0 bytes on the first call */
#define FASTCOPY_REASON_APPEND     (FASTCOPY_REASON_ERRNO_MAX + 2) /* O_APPEND destination */
#define FASTCOPY_REASON_OTHER      (FASTCOPY_REASON_ERRNO_MAX + 3) /* errno beyond the table */
#define FASTCOPY_REASON_HANDLER    (FASTCOPY_REASON_ERRNO_MAX + 4) /* an output handler must see the bytes */
#define FASTCOPY_REASON_ABORTED    (FASTCOPY_REASON_ERRNO_MAX + 5) /* output disabled: HEAD, headers only */
#define FASTCOPY_REASON_FINISHED   (FASTCOPY_REASON_ERRNO_MAX + 6) /* after fastcgi_finish_request() */
#define FASTCOPY_REASON_UNVERIFIED (FASTCOPY_REASON_ERRNO_MAX + 7) /* FPM's request socket not verified */
#define FASTCOPY_REASON_CLIENT     (FASTCOPY_REASON_ERRNO_MAX + 8) /* the client hung up */
#define FASTCOPY_REASON_TIMEOUT    (FASTCOPY_REASON_ERRNO_MAX + 9) /* max_execution_time ended the script */
#define FASTCOPY_REASON_ENDED      (FASTCOPY_REASON_ERRNO_MAX + 10) /* the script ended otherwise (exit, fatal error) */
#define FASTCOPY_REASON_SMALL      (FASTCOPY_REASON_ERRNO_MAX + 11) /* Apache would see the whole response */
#define FASTCOPY_REASON_SUBREQUEST (FASTCOPY_REASON_ERRNO_MAX + 12) /* an Apache sub-request */
#define FASTCOPY_REASON_HEAD       (FASTCOPY_REASON_ERRNO_MAX + 13) /* a HEAD request: Apache drops the body */
#define FASTCOPY_REASON_FILTERS    (FASTCOPY_REASON_ERRNO_MAX + 14) /* Apache's filters do not end in its core */
/* why a userspace stream was not seen through */
#define FASTCOPY_REASON_CALLBACK   (FASTCOPY_REASON_ERRNO_MAX + 15) /* its read (or write) callback is set */
#define FASTCOPY_REASON_SUBCLASS   (FASTCOPY_REASON_ERRNO_MAX + 16) /* a subclass of a known wrapper */
#define FASTCOPY_REASON_UNKNOWN    (FASTCOPY_REASON_ERRNO_MAX + 17) /* a class not known to pass bytes on */
#define FASTCOPY_REASON_INNER      (FASTCOPY_REASON_ERRNO_MAX + 18) /* the stream underneath is not usable */
#define FASTCOPY_REASON_FILTERED   (FASTCOPY_REASON_ERRNO_MAX + 19) /* a stream filter on the wrapper */
/* why a path ended the connection itself */
#define FASTCOPY_REASON_SHRANK     (FASTCOPY_REASON_ERRNO_MAX + 20) /* the file ended inside a range promised */
#define FASTCOPY_REASON_FILTER_FAILED (FASTCOPY_REASON_ERRNO_MAX + 21) /* an Apache filter failed the range */
/* why php://input was not copied from its spool */
#define FASTCOPY_REASON_MEMORY     (FASTCOPY_REASON_ERRNO_MAX + 22) /* the spool is still in memory (< 16 KiB) */
#define FASTCOPY_REASON_UNSPOOLED  (FASTCOPY_REASON_ERRNO_MAX + 23) /* the next bytes are still with the SAPI */
/* why php://input was not read from PHP-FPM's socket by fastcgi_input */
#define FASTCOPY_REASON_BEHIND     (FASTCOPY_REASON_ERRNO_MAX + 24) /* not at the live edge of the body */
#define FASTCOPY_REASON_BODY_FILE  (FASTCOPY_REASON_ERRNO_MAX + 25) /* the body is in REQUEST_BODY_FILE */
/* why neither took whole fills of php://input: its fills are not stock's 8 KiB */
#define FASTCOPY_REASON_FILL_SIZE  (FASTCOPY_REASON_ERRNO_MAX + 26)
#define FASTCOPY_REASON_SLOTS      (FASTCOPY_REASON_ERRNO_MAX + 27)

typedef struct {
	zend_ulong calls;
	zend_ulong bytes;
	zend_ulong fallbacks[FASTCOPY_REASON_SLOTS];
	/* fastcgi_input only: of its bytes, how many were spliced from the socket into
	 * the file, and how many of the spool were cloned from the file (a reflink) */
	zend_ulong spliced;
	zend_ulong spool_cloned;
} php_fastcopy_path_stats;

ZEND_BEGIN_MODULE_GLOBALS(fastcopy)
	/* settings */
	zend_long disabled_paths;     /* bit (1 << php_fastcopy_path) per path switched off */
	zend_long buffer_size;        /* block size of the read/write and mmap paths */
	zend_long mmap_window;        /* bytes of the source mapped at once */
	bool spool_clone;             /* fastcgi_input: splice into the file, clone the spool from it */
	/* runtime state: counters since the process (or thread) started */
	php_fastcopy_path_stats stats[FASTCOPY_COUNTERS];
ZEND_END_MODULE_GLOBALS(fastcopy)

ZEND_EXTERN_MODULE_GLOBALS(fastcopy)
#define FASTCOPY_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(fastcopy, v)

#if defined(ZTS) && defined(COMPILE_DL_FASTCOPY)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* The engine, for other extensions. Same contract as php_stream_copy_to_stream_ex():
 * copies up to maxlen bytes (PHP_STREAM_COPY_ALL for everything) from the current
 * position of src to dest, stores the count in *len and returns FAILURE after an I/O
 * error that was reported the way the failing stream reports it. */
PHP_FASTCOPY_API zend_result php_fastcopy_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len);

/* The output-layer counterpart, for fpassthru()-like callers: copies src from its
 * position to its end into PHP's output, returns the count or -1 as
 * php_stream_passthru() does. */
PHP_FASTCOPY_API ssize_t php_fastcopy_passthru(php_stream *src);

/* Name of a path (or of FASTCOPY_STEP_WRAPPERS) as fastcopy_stats() and
 * fastcopy.disable spell it. */
PHP_FASTCOPY_API const char *php_fastcopy_path_name(php_fastcopy_path path);

#endif /* PHP_FASTCOPY_H */
