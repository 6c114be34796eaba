/* Internal to the engine: a copy job, its two endpoints and the paths that move
 * bytes between them. Nothing here knows about zvals or arginfo. */

#ifndef FASTCOPY_ENGINE_H
#define FASTCOPY_ENGINE_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_network.h"
#include "php_ini.h"
#include "zend_smart_str.h"
#include "php_fastcopy.h"

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

#if defined(HAVE_MMAP) && defined(HAVE_SYS_MMAN_H)
# define FASTCOPY_HAVE_MMAP 1
#endif

typedef enum {
	FC_KIND_NONE = 0, /* no descriptor the kernel may use directly */
	FC_KIND_FILE,     /* regular file */
	FC_KIND_PIPE,
	FC_KIND_SOCKET,
	FC_KIND_OTHER     /* character device, tty, ... */
} fc_kind;

typedef struct {
	php_stream *stream;
	php_netstream_data_t *sock; /* PHP socket streams: their blocking mode and timeout */
	int fd;                     /* -1 unless kind != FC_KIND_NONE */
	fc_kind kind;
	zend_stat_t st;             /* of fd, taken when the endpoint was opened */
	bool append;                /* O_APPEND: the kernel paths refuse it */
	bool nonblocking;           /* the stream's mode: stop at EAGAIN rather than wait */
	bool via_output;            /* php://output, written past the output layer */
	bool fastcgi;               /* php://output under PHP-FPM: records to its socket */
	bool apache;                /* php://output under mod_php: buckets to Apache's filters */
	int restore_flags;          /* fd flags to put back after a kernel path, or -1 */
} fc_endpoint;

/* sigpipe.c: a peer that hangs up must not kill PHP */
typedef struct {
#ifndef PHP_WIN32
	bool blocked;
	bool was_pending;
	sigset_t old_mask;
#else
	int unused;
#endif
} fc_sigpipe_guard;

/* Userspace wrappers seen through on one side of a copy, outermost first, with the
 * position of the stream under each when it was seen through: what the stream under
 * it moved by, each wrapper moved by too, as if every byte had passed through it. */
#define FC_WRAPPERS_MAX 8
typedef struct {
	php_stream *wrapper[FC_WRAPPERS_MAX];
	php_stream *under[FC_WRAPPERS_MAX];
	zend_off_t under_start[FC_WRAPPERS_MAX];
	int depth;
} fc_wrapped;

/* One copy. Everything it changes outside itself (descriptor flags, a stream's
 * buffering, a mapping, the signal mask) is recorded here, so that fc_job_release()
 * undoes it on every way out, including a bailout from inside a write. */
typedef struct {
	fc_endpoint in;
	fc_endpoint out;
	size_t remaining;           /* SIZE_MAX: until EOF */
	size_t done;                /* bytes delivered to out */
	int reason;                 /* why the last path fell back */
	int ended_by;               /* why a path ended the connection itself, if it did */
	bool in_path;               /* a path is running: a bailout counts its bytes */
	php_fastcopy_path path;     /* which */
	size_t path_start;          /* done when it began */
	php_stream *unbuffered;     /* source whose read buffer we switched off */
	size_t given_back;          /* bytes put back in front of the source's buffer */
	fc_wrapped in_wrapped;      /* userspace wrappers seen through, and so not */
	fc_wrapped out_wrapped;     /* in in.stream / out.stream */
	size_t unwrapped_at;        /* done when the copy first saw through one */
	char *map;                  /* current mmap window */
	size_t map_len;
	fc_sigpipe_guard sigpipe;
} fc_job;

typedef enum {
	FC_CONTINUE, /* go on with the next step */
	FC_DONE,     /* finished: length reached, EOF, timeout or a non-blocking stop */
	FC_FAILED,   /* an I/O error, already reported: the copy returns false */
	FC_FALLBACK  /* this path declined, job->reason says why; nothing was lost */
} fc_status;

typedef enum {
	FC_WAIT_READY,
	FC_WAIT_WOULD_BLOCK, /* non-blocking stream: the caller stops here */
	FC_WAIT_TIMED_OUT    /* socket timeout elapsed; timed_out is set on the stream */
} fc_wait_result;

/* Largest count one read/write-like syscall moves on Linux (MAX_RW_COUNT). */
#define FC_KERNEL_CHUNK ((size_t) 0x7ffff000)

/* endpoint/descriptor.c */
void fc_endpoint_open(fc_endpoint *ep, php_stream *stream, bool is_source);
void fc_endpoint_enter_kernel(fc_endpoint *ep);
void fc_endpoint_leave_kernel(fc_endpoint *ep);
fc_wait_result fc_endpoint_wait(fc_endpoint *ep, short events);
bool fc_endpoint_ready_now(const fc_endpoint *ep, short events);
bool fc_timed_out_read_fails(void);
void fc_job_took(fc_job *job, size_t n);
void fc_job_gave(fc_job *job, size_t n);
void fc_job_moved(fc_job *job, size_t n);
fc_status fc_fallback(fc_job *job, int reason);
void fc_report_write_error(const fc_job *job, int err);

/* engine.c */
const char *fc_path_unavailable(php_fastcopy_path path);
bool fc_switched_off(int counter);
#if PHP_VERSION_ID >= 80600
bool fc_stock_copies_in_kernel(php_stream *src, php_stream *dest);
#endif
zend_result fc_override_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len);

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

/* endpoint/wrappers.c */
php_stream *fc_see_through_destination(fc_job *job, php_stream *stream);
fc_status fc_see_through_source(fc_job *job, php_stream *stream);
void fc_wrappers_release(fc_job *job);

/* paths/buffered.c: through PHP's stream layer */
/* php://input's fill: what stock's reads ask its SAPI for at a time */
#define FC_REQUEST_BODY_FILL 8192
bool fc_is_request_body(const php_stream *stream);
bool fc_request_body_fills_stock(const php_stream *in);
fc_status fc_copy_readahead(fc_job *job);
fc_status fc_copy_buffered(fc_job *job);
fc_status fc_copy_request_body(fc_job *job);
fc_status fc_request_body_fill(fc_job *job);
fc_status fc_request_body_drain(fc_job *job);
void fc_buffered_release(fc_job *job);
size_t fc_block_size(const fc_job *job);
fc_status fc_write_block(fc_job *job, const char *buf, size_t len, size_t *written);
void fc_give_back(fc_job *job, const char *buf, size_t n);
void fc_give_back_after(fc_job *job, const char *buf, size_t n);

/* endpoint/output.c */
bool fc_is_output_stream(const php_stream *stream);
int fc_output_fd(void);
fc_status fc_output_settle(fc_job *job);
int fc_output_pass_through(void);
int fc_output_discards(const fc_job *job);

/* sapi/fastcgi.c */
bool fc_fastcgi_possible(void);
fc_status fc_copy_fastcgi(fc_job *job);
const char *fc_fastcgi_unavailable(void);

/* sapi/fastcgi_input.c */
fc_status fc_copy_fastcgi_input(fc_job *job);
const char *fc_fastcgi_input_unavailable(void);
bool fc_fastcgi_input_possible(void);

/* sapi/apache.c */
bool fc_apache_possible(void);
fc_status fc_copy_apache(fc_job *job);
const char *fc_apache_unavailable(void);

/* copy_file.c */
zend_result fc_copy_file(const char *src, const char *dest, php_stream_context *ctx);

/* override.c */
ZEND_INI_MH(fc_on_update_override);
#ifdef FASTCOPY_DEV
ZEND_INI_MH(fc_on_update_dev_parameters);
#endif
void fc_override_install(void);
void fc_override_uninstall(void);
void fc_override_describe(smart_str *out);
void fc_override_describe_declined(smart_str *out);
void fc_override_declined_to_array(zval *array);

/* php_fastcopy.c: fastcopy_stream(), and the stream_copy_to_stream() override, which
 * leaves to stock the pairs stock copies in the kernel itself */
void fc_stream_copy_function(INTERNAL_FUNCTION_PARAMETERS, bool as_override);

/* paths/kernel.c */
fc_status fc_copy_file_range(fc_job *job);
fc_status fc_copy_sendfile(fc_job *job);
fc_status fc_copy_splice(fc_job *job);
const char *fc_kernel_unavailable(php_fastcopy_path path);

/* paths/same_file.c */
bool fc_same_file(const fc_job *job);
fc_status fc_copy_same_file(fc_job *job);

/* paths/spool.c: php://input from its spool file */
int fc_spool_fd(php_stream *body, int *reason);
fc_status fc_copy_spool(fc_job *job);

/* paths/discard.c */
fc_status fc_copy_discard(fc_job *job);

/* paths/mmap_window.c */
fc_status fc_copy_mmap(fc_job *job);
void fc_mmap_release(fc_job *job);
void fc_mmap_shutdown(void);

/* sigpipe.c */
void fc_sigpipe_block(fc_sigpipe_guard *guard);
void fc_sigpipe_restore(fc_sigpipe_guard *guard);

/* stats.c */
void fc_stats_call(php_fastcopy_path path);
void fc_stats_bytes(php_fastcopy_path path, size_t n);
void fc_stats_fallback(php_fastcopy_path path, int reason);
void fc_stats_to_array(zval *return_value);
const char *fc_reason_name(int reason, char *buf, size_t buflen);

#endif
