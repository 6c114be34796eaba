/* One copy: its two endpoints, what it has moved, and how a step ends. Every layer
 * of src/ works on this job; nothing here knows about zvals or arginfo. */

#ifndef FASTCOPY_JOB_H
#define FASTCOPY_JOB_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_network.h"
#include "php_fastcopy.h"
#include "src/core/reasons.h"
#include "src/core/sigpipe.h"

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
	int output_path;            /* php://output that only this server path passes (fastcgi, apache), or -1 */
	int restore_flags;          /* fd flags to put back after a kernel path, or -1 */
} fc_endpoint;

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

/* PHP's own output buffers as a copy into php://output found them, innermost last:
 * each one's chunk size and what it held. levels is -1 when one is not a plain
 * buffer (a callback) or there are more than can be followed. */
#define FC_OUTPUT_LEVELS 8
typedef struct {
	int levels;
	size_t chunk[FC_OUTPUT_LEVELS];
	size_t held[FC_OUTPUT_LEVELS];
} fc_output_buffers;

/* One copy. Everything it changes outside itself (descriptor flags, a stream's
 * buffering, a mapping, the signal mask) is recorded here, so that the engine
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
	php_stream *outer_in;       /* the source as stock reads it: the outermost wrapper */
	bool passthru;              /* for fpassthru() and readfile(): stock's passthru writes */
	bool layer_only;            /* what is left must go through PHP's output buffer */
	size_t stock_write;         /* nonzero: write into PHP's output buffers in stock's sizes */
	fc_output_buffers output;   /* PHP's output buffers when the copy began */
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

/* What the kernel moved, accounted as PHP's own reads and writes would have. */
void fc_job_took(fc_job *job, size_t n);
void fc_job_gave(fc_job *job, size_t n);
void fc_job_moved(fc_job *job, size_t n);
fc_status fc_fallback(fc_job *job, int reason);

#endif
