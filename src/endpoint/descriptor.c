/* What a php_stream is to the kernel: its descriptor and kind, its blocking mode
 * and timeout, and waiting on it as the stream's own read or write would. */

#include "src/endpoint/endpoint.h"

#include <errno.h>
#include <sys/stat.h>
#ifndef PHP_WIN32
# include <fcntl.h>
# include <sys/socket.h>
# include <unistd.h>
#endif

static fc_kind kind_of(int fd, zend_stat_t *st)
{
	if (zend_fstat(fd, st) != 0) {
		return FC_KIND_NONE;
	}
	if (S_ISREG(st->st_mode)) {
		return FC_KIND_FILE;
	}
#ifdef S_ISFIFO
	if (S_ISFIFO(st->st_mode)) {
		return FC_KIND_PIPE;
	}
#endif
#ifdef S_ISSOCK
	if (S_ISSOCK(st->st_mode)) {
		return FC_KIND_SOCKET;
	}
#endif
	return FC_KIND_OTHER;
}

/* The socket data of a PHP socket stream, NULL for anything else. All of
 * xp_socket's stream types (tcp, udp, unix, socket pairs) share php_sockop_write.
 * ext/openssl takes tcp:// over so that crypto can be enabled later: until it is,
 * such a stream is a plain socket, its data begins with the same
 * php_netstream_data_t, and its cast to a descriptor refuses once TLS is on. */
static php_netstream_data_t *socket_data(php_stream *stream)
{
	if (stream->ops->write == php_stream_socket_ops.write
			|| strcmp(stream->ops->label, "tcp_socket/ssl") == 0) {
		return (php_netstream_data_t *) stream->abstract;
	}
	return NULL;
}

/* Only plain descriptors and sockets may be handed to the kernel: a filter, a
 * userspace wrapper or TLS must see every byte. */
static bool is_fd_stream(php_stream *stream, bool is_source)
{
	if (is_source ? stream->readfilters.head != NULL : stream->writefilters.head != NULL) {
		return false;
	}
	return php_stream_is(stream, PHP_STREAM_IS_STDIO) || socket_data(stream) != NULL;
}

/* php://output where the SAPI writes straight to a descriptor: that descriptor,
 * always waited on as the CLI's own writer waits. */
static void open_output(fc_endpoint *ep, int output_path)
{
	int fd = fc_output_fd();

	/* Under PHP-FPM the output layer ends in its FastCGI socket, under mod_php in
	 * Apache's filters: only that server's path passes it, once it has proven them. */
	if (output_path >= 0) {
		ep->output_path = output_path;
		ep->via_output = true;
		return;
	}

	if (fd < 0 || (ep->kind = kind_of(fd, &ep->st)) == FC_KIND_NONE) {
		return;
	}
	ep->fd = fd;
	ep->via_output = true;
#ifndef PHP_WIN32
	{
		int flags = fcntl(fd, F_GETFL);
		ep->append = flags != -1 && (flags & O_APPEND) != 0;
	}
#endif
}

void fc_endpoint_open(fc_endpoint *ep, php_stream *stream, bool is_source, int output_path)
{
	php_socket_t fd;

	memset(ep, 0, sizeof(*ep));
	ep->stream = stream;
	ep->fd = -1;
	ep->output_path = -1;
	ep->restore_flags = -1;

	if (!is_source && fc_is_output_stream(stream)) {
		open_output(ep, output_path);
		return;
	}
	if (!is_fd_stream(stream, is_source)) {
		return;
	}
	/* The cast synchronises a seekable stream: its read buffer is dropped and the
	 * descriptor sought to the stream's position, so the kernel reads (or writes)
	 * exactly where PHP would; a FILE*-backed stream is fflush()ed. CAST_INTERNAL:
	 * a pipe's or socket's read-ahead is copied first by the engine, not lost. */
	if (php_stream_cast(stream, PHP_STREAM_AS_FD | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) != SUCCESS
			|| fd < 0) {
		return;
	}
	ep->kind = kind_of((int) fd, &ep->st);
	if (ep->kind == FC_KIND_NONE) {
		return;
	}
	ep->fd = (int) fd;

	ep->sock = socket_data(stream);
	if (ep->sock) {
		ep->nonblocking = !ep->sock->is_blocked;
	}
#ifndef PHP_WIN32
	/* A regular file as the source neither blocks nor appends. */
	if (!(is_source && ep->kind == FC_KIND_FILE)) {
		int flags = fcntl(ep->fd, F_GETFL);
		if (flags != -1) {
			ep->append = (flags & O_APPEND) != 0;
			if (!ep->sock) {
				ep->nonblocking = (flags & O_NONBLOCK) != 0;
			}
		}
	}
#endif
}

/* A socket stream's timeout is enforced by us with poll(), so a kernel path must not
 * block inside the syscall: make the descriptor non-blocking for its duration. */
void fc_endpoint_enter_kernel(fc_endpoint *ep)
{
#ifndef PHP_WIN32
	if (ep->sock && ep->restore_flags == -1) {
		int flags = fcntl(ep->fd, F_GETFL);
		if (flags != -1 && !(flags & O_NONBLOCK) && fcntl(ep->fd, F_SETFL, flags | O_NONBLOCK) == 0) {
			ep->restore_flags = flags;
		}
	}
#endif
}

void fc_endpoint_leave_kernel(fc_endpoint *ep)
{
#ifndef PHP_WIN32
	if (ep->restore_flags != -1) {
		fcntl(ep->fd, F_SETFL, ep->restore_flags);
		ep->restore_flags = -1;
	}
#endif
}

/* Waits the way the stream's own read or write would: a non-blocking stream stops,
 * a socket waits up to its timeout (stream_set_timeout, default_socket_timeout),
 * anything else for as long as it takes. */
fc_wait_result fc_endpoint_wait(fc_endpoint *ep, short events)
{
	struct timeval *timeout = NULL;
	int ready;

	if (ep->nonblocking) {
		return FC_WAIT_WOULD_BLOCK;
	}
	if (ep->sock) {
		if (ep->sock->timeout.tv_sec != -1) {
			timeout = &ep->sock->timeout;
		}
		ep->sock->timeout_event = false;
	}
	do {
		ready = php_pollfd_for(ep->fd, events, timeout);
	} while (ready < 0 && errno == EINTR);

	if (ready == 0) {
		if (ep->sock) {
			ep->sock->timeout_event = true;
		}
		return FC_WAIT_TIMED_OUT;
	}
	/* On a poll error the next syscall reports the real problem. */
	return FC_WAIT_READY;
}

/* What a socket read that timed out returns on this PHP: -1 (8.2: the copy then
 * fails) or 0 (later versions: the copy ends successfully). Asked of the running
 * PHP once, with a socket pair and a timeout of a microsecond, so the engine ends a
 * timed-out copy exactly as this PHP's own copy loop would. */
bool fc_timed_out_read_fails(void)
{
	static int answer = -1;

	if (answer == -1) {
		int fds[2];
		php_stream *probe;
		struct timeval tiny = {0, 1};
		char byte;

		answer = 0;
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0) {
			probe = php_stream_sock_open_from_socket(fds[0], NULL);
			if (probe) {
				probe->flags |= PHP_STREAM_FLAG_NO_BUFFER | PHP_STREAM_FLAG_SUPPRESS_ERRORS;
				php_stream_set_option(probe, PHP_STREAM_OPTION_READ_TIMEOUT, 0, &tiny);
				answer = php_stream_read(probe, &byte, 1) < 0;
				php_stream_close(probe);
			} else {
				close(fds[0]);
			}
			close(fds[1]);
		}
	}
	return answer == 1;
}

bool fc_endpoint_ready_now(const fc_endpoint *ep, short events)
{
	struct timeval zero = {0, 0};

	return php_pollfd_for(ep->fd, events, &zero) > 0;
}
