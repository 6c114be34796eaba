/*
 * drain: the receiving end of the socket and pipe cases. It throws the data
 * away as fast as it can, so the sender is what gets measured: TCP with
 * recv(MSG_TRUNC) (discarded in the kernel, no copy), pipes and unix sockets
 * with splice() into /dev/null. With FCBENCH_DRAIN=read it read()s into a
 * 1 MiB buffer instead, like a typical consumer (slower: on loopback TCP the
 * receiver's copy then caps every sender at about the same speed).
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
#include <fcntl.h>
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
static int devnull = -1;

/* splice() to /dev/null: a pipe goes straight there, a socket via a pipe. */
static long long splice_fd(int fd, int is_pipe)
{
	long long total = 0;
	int p[2] = { -1, -1 };
	if (!is_pipe && pipe(p) < 0) return -1;
	for (;;) {
		ssize_t n = splice(fd, NULL, is_pipe ? devnull : p[1], NULL, 1 << 20, SPLICE_F_MOVE);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0 && total == 0) { total = -1; break; } /* not spliceable: read() it */
		if (n <= 0) break;
		total += n;
		for (ssize_t left = n; !is_pipe && left > 0;) {
			ssize_t m = splice(p[0], NULL, devnull, NULL, left, SPLICE_F_MOVE);
			if (m < 0 && errno == EINTR) continue;
			if (m <= 0) exit(1);
			left -= m;
		}
	}
	if (!is_pipe) {
		close(p[0]);
		close(p[1]);
	}
	return total;
}

static long long drain_fd(int fd, int is_pipe, int is_tcp)
{
	long long total = 0;
	if (devnull >= 0 && is_tcp) {
		for (;;) {
			ssize_t n = recv(fd, NULL, 1 << 30, MSG_TRUNC);
			if (n < 0 && errno == EINTR) continue;
			if (n <= 0) return total;
			total += n;
		}
	}
	if (devnull >= 0) {
		total = splice_fd(fd, is_pipe);
		if (total >= 0) return total;
		total = 0;
	}
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
	const char *how = getenv("FCBENCH_DRAIN");
	if (!how || strcmp(how, "read"))
		devnull = open("/dev/null", O_WRONLY);

	if (!strcmp(argv[1], "stdin")) {
		write_count(argv[2], drain_fd(0, 1, 0));
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
		long long n = drain_fd(c, 0, !strcmp(argv[1], "tcp"));
		write_count(countfile, n);
		close(c); /* the sender waits for this EOF before it stops its clock */
	}
}
