/* What each stream of a copy is underneath, decided before any path runs: a
 * descriptor the kernel may use (descriptor.c), PHP's output layer (output.c), or a
 * userspace wrapper seen through to the stream under it (wrappers.c). */

#ifndef FASTCOPY_ENDPOINT_H
#define FASTCOPY_ENDPOINT_H

#include "src/core/job.h"

#include "php_output.h"

/* descriptor.c */
typedef enum {
	FC_WAIT_READY,
	FC_WAIT_WOULD_BLOCK, /* non-blocking stream: the caller stops here */
	FC_WAIT_TIMED_OUT    /* socket timeout elapsed; timed_out is set on the stream */
} fc_wait_result;

/* output_path: for php://output, the server path it belongs to (or -1) */
void fc_endpoint_open(fc_endpoint *ep, php_stream *stream, bool is_source, int output_path);
void fc_endpoint_enter_kernel(fc_endpoint *ep);
void fc_endpoint_leave_kernel(fc_endpoint *ep);
fc_wait_result fc_endpoint_wait(fc_endpoint *ep, short events);
bool fc_endpoint_ready_now(const fc_endpoint *ep, short events);
bool fc_timed_out_read_fails(void);

/* peer.c: where a connected socket's peer is, asked once per connection */
typedef enum {
	FC_PEER_UNKNOWN = 0,    /* not a connected socket, or not known */
	FC_PEER_REMOTE,         /* TCP to another host */
	FC_PEER_SAME_HOST_TCP,  /* TCP to a loopback address or another of this host's */
	FC_PEER_UNIX            /* a unix socket: always this host */
} fc_peer;
fc_peer fc_socket_peer(int fd, const zend_stat_t *st);

/* output.c */
bool fc_is_output_stream(const php_stream *stream);
int fc_output_fd(void);
int fc_output_pass_through(void);
int fc_output_discards(const fc_job *job);
bool fc_output_passes_bytes_on(const php_output_handler *h);
void fc_output_pass_buffers(void);

/* stock_writes.c: PHP's output buffers now; how many of the `total` bytes a copy
 * from `outer` at `start` puts into them stock's writes (of *write_size each) would
 * have pushed through to the SAPI, false where that cannot be told */
void fc_output_buffers_take(fc_output_buffers *b);
size_t fc_output_buffers_held(const fc_output_buffers *b);
bool fc_stock_output_passes(const fc_output_buffers *b, php_stream *outer, zend_off_t start, bool passthru,
	size_t total, size_t *passes, size_t *write_size);

/* wrappers.c */
php_stream *fc_see_through_destination(fc_job *job, php_stream *stream);
php_stream *fc_see_through_source(fc_job *job, php_stream *stream);
void fc_wrappers_release(fc_job *job);

#endif
