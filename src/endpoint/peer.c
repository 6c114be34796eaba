/* Where a socket's peer is: on another host, or on this one (a unix socket, or TCP
 * to a loopback address or to another address of this host). Over a network the
 * kernel's zero-copy send saves the sender a copy and costs the receiver nothing,
 * being another host; on this host the receiver's copy out of the sender's pages
 * costs more than the sender saves, so the paths send a same-host TCP peer copies
 * instead (docs/paths.md, "A peer on this host"). Asked once per connection: the
 * answer is kept for the socket until another takes its place. */

#include "src/endpoint/endpoint.h"

#include <sys/stat.h>
#ifndef PHP_WIN32
# include <arpa/inet.h>
# include <netinet/in.h>
# include <sys/socket.h>
# include <sys/un.h>
# include <unistd.h>
#endif

typedef union {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage any;
} fc_peer_addr;

#ifndef PHP_WIN32
/* Whether an address is one of this host's: a datagram socket connected to it is
 * routed out of the same address only then (the kernel's local routes take the
 * destination as their source). Unlike a bind() probe, this holds where
 * ip_nonlocal_bind lets any address be bound. Nothing is sent. */
static bool routed_here(const fc_peer_addr *addr, socklen_t len)
{
	fc_peer_addr local;
	socklen_t local_len = sizeof(local);
	int s = socket(addr->sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ours;

	if (s < 0) {
		return false;
	}
	ours = connect(s, &addr->sa, len) == 0 && getsockname(s, &local.sa, &local_len) == 0
		&& local.sa.sa_family == addr->sa.sa_family
		&& (addr->sa.sa_family == AF_INET
			? local.in.sin_addr.s_addr == addr->in.sin_addr.s_addr
			: !memcmp(&local.in6.sin6_addr, &addr->in6.sin6_addr, sizeof(struct in6_addr)));
	close(s);
	return ours;
}

static fc_peer classify(int fd)
{
	fc_peer_addr peer;
	socklen_t len = sizeof(peer);

	if (getpeername(fd, &peer.sa, &len) != 0) {
		return FC_PEER_UNKNOWN;
	}
	switch (peer.sa.sa_family) {
		case AF_UNIX:
			return FC_PEER_UNIX;
		case AF_INET:
			if ((ntohl(peer.in.sin_addr.s_addr) >> 24) == 127) {
				return FC_PEER_SAME_HOST_TCP;
			}
			break;
		case AF_INET6:
			if (IN6_IS_ADDR_LOOPBACK(&peer.in6.sin6_addr)
					|| (IN6_IS_ADDR_V4MAPPED(&peer.in6.sin6_addr) && peer.in6.sin6_addr.s6_addr[12] == 127)) {
				return FC_PEER_SAME_HOST_TCP;
			}
			break;
		default:
			return FC_PEER_UNKNOWN;
	}
	return routed_here(&peer, len) ? FC_PEER_SAME_HOST_TCP : FC_PEER_REMOTE;
}
#endif

/* The connection last asked about: sabre/http's pieces ask once. */
ZEND_TLS struct {
	dev_t dev;
	ino_t ino;
	fc_peer peer;
} asked = {0, 0, FC_PEER_UNKNOWN};

fc_peer fc_socket_peer(int fd, const zend_stat_t *st)
{
#ifdef PHP_WIN32
	return FC_PEER_UNKNOWN;
#else
	if (asked.peer == FC_PEER_UNKNOWN || st->st_dev != asked.dev || st->st_ino != asked.ino) {
		asked.peer = classify(fd);
		asked.dev = st->st_dev;
		asked.ino = st->st_ino;
	}
	return asked.peer;
#endif
}
