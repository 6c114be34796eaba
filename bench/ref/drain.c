/*
 * drain: the receiving end of the socket and pipe cases. By default it throws
 * the data away as fast as it can, so the sender is what gets measured: TCP
 * with recv(MSG_TRUNC) (discarded in the kernel, no copy), pipes and unix
 * sockets with splice() into /dev/null. With "read" as its last argument (the
 * cases that measure both ends) or FCBENCH_DRAIN=read it read()s into a 1 MiB
 * buffer instead, like a real consumer: on a same-host socket that copy is the
 * receiver's share of the host's cost (on loopback TCP it also caps every
 * sender at about the same speed).
 *
 *   drain tcp PORTFILE [read|discard]    listen on 127.0.0.1, an ephemeral port written to PORTFILE
 *   drain unix PATH [read|discard]       listen on a unix socket at PATH
 *   drain stdin COUNTFILE [read|discard] read standard input to EOF
 *
 * Socket modes serve one connection at a time until killed, one process for
 * all of them (the bench reads its CPU from /proc/PID/schedstat around each
 * connection); after each connection the byte count is written to PATH.count
 * (or PORTFILE.count). stdin mode is a new process per run: after the count
 * it writes the CPU it used from just before its first read to EOF (its own
 * /proc/self/schedstat, seconds), so its start-up is left out.
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

/* CPU this process has used, in seconds: the scheduler's nanoseconds, as the bench's proc_cpu() reads them. */
static double self_cpu(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");
	if (f) {
		if (fscanf(f, "%llu", &ns) != 1) ns = 0;
		fclose(f);
	}
	return ns / 1e9;
}

/* cpu < 0: the count alone (the socket modes, measured from outside). */
static void write_count(const char *path, long long n, double cpu)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f) return;
	if (cpu < 0)
		fprintf(f, "%lld\n", n);
	else
		fprintf(f, "%lld %.9f\n", n, cpu);
	fclose(f);
	rename(tmp, path); /* readers never see a half-written count */
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: drain tcp PORTFILE | unix PATH | stdin COUNTFILE [read|discard]\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	alarm(2 * 3600);
	/* The argument first (a case that measures both ends always reads), else the environment. */
	const char *how = argc == 4 ? argv[3] : getenv("FCBENCH_DRAIN");
	if (!how || strcmp(how, "read"))
		devnull = open("/dev/null", O_WRONLY);
	else
		memset(buf, 1, sizeof buf); /* a consumer's buffer is in use already: no first-touch faults in the count */

	if (!strcmp(argv[1], "stdin")) {
		double cpu0 = self_cpu();
		long long n = drain_fd(0, 1, 0);
		write_count(argv[2], n, self_cpu() - cpu0);
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
		write_count(countfile, n, -1);
		close(c); /* the sender waits for this EOF before it stops its clock */
	}
}
