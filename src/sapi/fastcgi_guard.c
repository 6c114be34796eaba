/* Proving, before the fastcgi paths write anything, that SG(server_context) is
 * PHP-FPM's fcgi_request as they read it: its layout once per process (every field
 * within the values FPM gives it, the listening socket really listening), the
 * descriptor once per connection (a connected stream socket accepted from that
 * listening socket). A process where any of that fails is refused for good. */

#include "src/sapi/fastcgi_request.h"
#include "src/core/reasons.h"
#include "src/sapi/guarded_read.h"
#include "src/core/sapi_name.h"

#include "SAPI.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

typedef union {
	struct sockaddr sa;
	struct sockaddr_un un;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
} fc_sockaddr;

/* What this process has proven; FPM serves one request at a time per process. */
static struct {
	const fc_fcgi_request *req; /* the request object whose layout was checked */
	const char *failed;         /* why the guess was refused, for good */
	fc_sockaddr listen_addr;
	socklen_t listen_len;
	dev_t conn_dev;             /* the connection last verified */
	ino_t conn_ino;
} guard;

static bool sapi_speaks_fastcgi(void)
{
	return fc_sapi_is(FC_SAPI_FPM) || fc_sapi_is(FC_SAPI_CGI_FCGI);
}

static int sock_opt(int fd, int opt)
{
	int value = -1;
	socklen_t len = sizeof(value);

	return getsockopt(fd, SOL_SOCKET, opt, &value, &len) == 0 ? value : -1;
}

/* A socket accepted from a listening socket has the listener's local address: the
 * same path for a unix socket; the same port, and the same address unless the
 * listener was bound to the wildcard, for TCP. */
static bool same_local_address(const fc_sockaddr *a, socklen_t alen)
{
	const fc_sockaddr *l = &guard.listen_addr;

	if (a->sa.sa_family != l->sa.sa_family) {
		return false;
	}
	switch (a->sa.sa_family) {
		case AF_UNIX:
			return alen == guard.listen_len && memcmp(a->un.sun_path, l->un.sun_path,
				alen - offsetof(struct sockaddr_un, sun_path)) == 0;
		case AF_INET:
			return a->in.sin_port == l->in.sin_port && (l->in.sin_addr.s_addr == htonl(INADDR_ANY)
				|| a->in.sin_addr.s_addr == l->in.sin_addr.s_addr);
		case AF_INET6:
			return a->in6.sin6_port == l->in6.sin6_port
				&& (IN6_IS_ADDR_UNSPECIFIED(&l->in6.sin6_addr)
					|| memcmp(&a->in6.sin6_addr, &l->in6.sin6_addr, sizeof(struct in6_addr)) == 0);
		default:
			return false;
	}
}

/* Once per process: the fields read as FPM sets them, and the listening socket is one. */
static const char *check_layout(const fc_fcgi_request *ctx)
{
	fc_fcgi_request copy;
	const unsigned char *buf_end;

	/* php-cgi outside FastCGI mode stores (void *) 1 there. */
	if ((uintptr_t) ctx < 65536 || (uintptr_t) ctx % sizeof(void *) != 0) {
		return "no FastCGI request";
	}
	/* Read through the kernel first: an unmapped address fails, it does not fault. */
	fc_guarded_self();
	if (!fc_guarded_read(ctx, &copy, sizeof(copy))) {
		return "request not readable";
	}
	buf_end = ctx->out_buf + sizeof(copy.out_buf);
	if (copy.listen_socket < 0 || copy.fd < 0 || copy.fd == copy.listen_socket
			|| (copy.tcp | copy.keep | copy.ended) & ~1
#ifdef TCP_NODELAY
			|| copy.nodelay & ~1
#endif
			|| copy.id < 1 || copy.id > 0xffff || copy.in_len < 0 || copy.in_len > 0xffff
			|| copy.in_pad < 0 || copy.in_pad > 0xff
			|| copy.out_pos < ctx->out_buf || copy.out_pos > buf_end
			|| (copy.out_hdr && (copy.out_hdr < ctx->out_buf || copy.out_hdr >= copy.out_pos))) {
		return "request layout not recognised";
	}
	if (sock_opt(copy.listen_socket, SO_ACCEPTCONN) != 1 || sock_opt(copy.listen_socket, SO_TYPE) != SOCK_STREAM) {
		return "no listening socket where the layout puts it";
	}
	guard.listen_len = sizeof(guard.listen_addr);
	if (getsockname(copy.listen_socket, &guard.listen_addr.sa, &guard.listen_len) != 0) {
		return "listening socket has no address";
	}
	return NULL;
}

/* Once per connection: the descriptor is a connected stream socket accepted from
 * the pool's listening socket. 0, or why the path declines this copy. */
static int check_connection(int fd, const zend_stat_t *st)
{
	fc_sockaddr local, peer;
	socklen_t local_len = sizeof(local), peer_len = sizeof(peer);

	if (!S_ISSOCK(st->st_mode) || sock_opt(fd, SO_TYPE) != SOCK_STREAM || sock_opt(fd, SO_ACCEPTCONN) != 0
			|| getsockname(fd, &local.sa, &local_len) != 0 || !same_local_address(&local, local_len)) {
		return FC_REASON_UNVERIFIED;
	}
	/* The web server reset a TCP connection it had closed when its client left:
	 * the headers flushed just before reached a closed socket, whose kernel answered
	 * with a reset. The socket is still the pool's; the client is gone. */
	if (getpeername(fd, &peer.sa, &peer_len) != 0) {
		return errno == ENOTCONN ? FC_REASON_CLIENT_ABORTED : FC_REASON_UNVERIFIED;
	}
	guard.conn_dev = st->st_dev;
	guard.conn_ino = st->st_ino;
	return 0;
}

/* The verified request of the running script, or NULL with *reason set. */
fc_fcgi_request *fc_fastcgi_request(int *reason)
{
	fc_fcgi_request *req = (fc_fcgi_request *) SG(server_context);
	zend_stat_t st;

	*reason = FC_REASON_UNVERIFIED;
	if (guard.failed) {
		return NULL;
	}
	if (req != guard.req) {
		guard.failed = check_layout(req);
		if (guard.failed) {
			return NULL;
		}
		guard.req = req;
		guard.conn_ino = 0;
	}
	if (req->ended || req->fd < 0) {
		*reason = FC_REASON_REQUEST_FINISHED;
		return NULL;
	}
	if (zend_fstat(req->fd, &st) != 0) {
		return NULL;
	}
	if (st.st_ino != guard.conn_ino || st.st_dev != guard.conn_dev) {
		*reason = check_connection(req->fd, &st);
		if (*reason != 0) {
			return NULL;
		}
	}
	return req;
}

bool fc_fastcgi_possible(void)
{
	return sapi_speaks_fastcgi() && !guard.failed;
}

/* NULL when the path can serve this process, or why it cannot. */
const char *fc_fastcgi_unavailable(void)
{
	int reason;

	if (!sapi_speaks_fastcgi()) {
		return "the SAPI is not PHP-FPM";
	}
	/* phpinfo() runs inside a request: prove the layout now if no copy has. */
	if (!guard.failed && SG(server_context)) {
		fc_fastcgi_request(&reason);
	}
	return guard.failed;
}

#endif
