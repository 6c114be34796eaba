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

/* The ways the engine can move bytes, in the order it tries them, each with the
 * name fastcopy_stats() and fastcopy.disable use: this list makes both. */
#define PHP_FASTCOPY_PATHS(X) \
	X(COPY_FILE_RANGE, "copy_file_range") \
	X(SENDFILE,        "sendfile") \
	X(SPLICE,          "splice") \
	X(HANDOVER,        "handover")      /* php://output under PHP-FPM: the file sent by the web server itself */ \
	X(FASTCGI,         "fastcgi")       /* php://output under PHP-FPM: records straight to the socket */ \
	X(APACHE,          "apache")        /* php://output under mod_php: a FILE bucket to Apache's filters */ \
	X(SPOOL,           "spool")         /* php://input already in its spool file: copy_file_range from it */ \
	X(BODY_FILE,       "body_file")     /* php://input under PHP-FPM from the web server's REQUEST_BODY_FILE */ \
	X(FASTCGI_INPUT,   "fastcgi_input") /* php://input under PHP-FPM at the live edge: records from its socket */ \
	X(MMAP,            "mmap") \
	X(DISCARD,         "discard")       /* into an output layer that discards it: the source is skipped */ \
	X(BUFFERED,        "buffered")

#define PHP_FASTCOPY_PATH_CONSTANT(id, name) FASTCOPY_PATH_##id,
typedef enum {
	PHP_FASTCOPY_PATHS(PHP_FASTCOPY_PATH_CONSTANT)
	FASTCOPY_PATH_COUNT
} php_fastcopy_path;
#undef PHP_FASTCOPY_PATH_CONSTANT

/* Not a path but a step before them: seeing through userspace stream wrappers that
 * pass bytes on unchanged, to the stream underneath. Counted in fastcopy_stats()
 * and switched off by fastcopy.disable like a path. */
#define FASTCOPY_STEP_WRAPPERS FASTCOPY_PATH_COUNT
#define FASTCOPY_COUNTERS      (FASTCOPY_PATH_COUNT + 1)

/* Counters per fallback reason: the errno values and the engine's own reasons
 * (src/core/reasons.h; src/core/names.c checks this count). */
#define FASTCOPY_FALLBACK_SLOTS 195

typedef struct {
	zend_ulong calls;
	zend_ulong bytes;
	zend_ulong fallbacks[FASTCOPY_FALLBACK_SLOTS];
	/* fastcgi_input only: of its bytes, how many were spliced from the socket into
	 * the file, and how many of the spool were cloned from the file (a reflink) */
	zend_ulong spliced;
	zend_ulong spool_cloned;
	/* body_file only: bytes whose spool is the stored body itself, not a copy */
	zend_ulong spool_shared;
	/* handover only: bytes the web server sent itself, and the responses it sent them in */
	zend_ulong handed_over;
	zend_ulong responses;
} php_fastcopy_path_stats;

ZEND_BEGIN_MODULE_GLOBALS(fastcopy)
	/* settings */
	zend_long disabled_paths;     /* bit (1 << php_fastcopy_path) per path switched off */
	zend_long buffer_size;        /* block size of the read/write and mmap paths */
	zend_long mmap_window;        /* bytes of the source mapped at once */
	bool spool_clone;             /* fastcgi_input: splice into the file, clone the spool from it */
	bool same_host_copies;        /* a TCP peer on this host is sent copies, not the kernel's pages */
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
