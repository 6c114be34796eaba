/*
 * drain: the receiving end of the socket and pipe cases. It reads as fast as
 * it can into a 1 MiB buffer and throws the data away, so the sender is what
 * gets measured.
 *
 *   drain tcp PORTFILE    listen on 127.0.0.1, an ephemeral port written to PORTFILE
 *   drain unix PATH       listen on a unix socket at PATH
 *   drain stdin COUNTFILE read standard input to EOF
 *
 * Socket modes serve one connection at a time until killed; after each
 * connection the byte count is written to PATH.count (or PORTFILE.count).
 * It always stops by itself: when its parent dies, after 15 minutes idle,
 * or after 2 hours in all.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static char buf[1 << 20];

static long long drain_fd(int fd)
{
	long long total = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) break;
		total += n;
	}
	return total;
}

static void write_count(const char *path, long long n)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) return;
	fprintf(f, "%lld\n", n);
	fclose(f);
	rename(tmp, path); /* readers never see a half-written count */
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: drain tcp PORTFILE | unix PATH | stdin COUNTFILE\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	alarm(2 * 3600);

	if (!strcmp(argv[1], "stdin")) {
		write_count(argv[2], drain_fd(0));
		return 0;
	}

	int ls;
	char countfile[4200];
	snprintf(countfile, sizeof countfile, "%s.count", argv[2]);
	if (!strcmp(argv[1], "tcp")) {
		struct sockaddr_in sa = { .sin_family = AF_INET };
		socklen_t len = sizeof sa;
		int one = 1;
		ls = socket(AF_INET, SOCK_STREAM, 0);
		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
		if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(ls, 16) < 0) {
			perror("drain: tcp listen");
			return 1;
		}
		getsockname(ls, (struct sockaddr *)&sa, &len);
		char tmp[4200];
		snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
		FILE *f = fopen(tmp, "w");
		if (!f) return 1;
		fprintf(f, "%d\n", ntohs(sa.sin_port));
		fclose(f);
		rename(tmp, argv[2]);
	} else if (!strcmp(argv[1], "unix")) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		snprintf(sa.sun_path, sizeof sa.sun_path, "%s", argv[2]);
		unlink(argv[2]);
		ls = socket(AF_UNIX, SOCK_STREAM, 0);
		if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(ls, 16) < 0) {
			perror("drain: unix listen");
			return 1;
		}
	} else {
		fprintf(stderr, "drain: unknown mode %s\n", argv[1]);
		return 2;
	}

	for (;;) {
		struct pollfd p = { .fd = ls, .events = POLLIN };
		int r = poll(&p, 1, 15 * 60 * 1000);
		if (r == 0) return 0; /* idle: nobody needs us any more */
		if (r < 0) {
			if (errno == EINTR) continue;
			return 1;
		}
		int c = accept(ls, NULL, NULL);
		if (c < 0) continue;
		long long n = drain_fd(c);
		write_count(countfile, n);
		close(c); /* the sender waits for this EOF before it stops its clock */
	}
}
