/*
 * fcup: the C floor of the upload case. A FastCGI responder, one process
 * serving one connection at a time like a pm=static PHP-FPM worker with one
 * child, behind the same nginx as the PHP pools: it parses the records of a
 * PUT and stores the STDIN payload in the file named by the FCUP_FILE param,
 * with nothing of PHP.
 *
 *   fcup listen=unix:PATH|tcp:127.0.0.1:PORT spool=DIR
 *
 * Per request (FastCGI params): FCUP_FILE, the destination (created,
 * truncated); FCUP_SPOOL, if not empty, asks for a spool of the body kept
 * byte for byte in DIR as PHP keeps php://input's in upload_tmp_dir (a
 * mkstemp() file, removed at the end of the request; FCUP_KEEP, if not empty,
 * renames it to FCUP_FILE.spool instead, for the bench to check it).
 * The records up to the empty PARAMS are read one by one (nothing read past
 * them: the reflink mode splices the body from the socket). Then two ways:
 *
 * - FCUP_SPOOL empty or "1": each read() from the socket fills a 1 MiB
 *   buffer; the payloads of the complete records in it are written with one
 *   writev() to the file and, with a spool, the same iovec with one writev()
 *   to the spool: the cheapest exact way on ext4.
 * - FCUP_SPOOL "reflink": each STDIN header read() (8 bytes, with the padding
 *   of the record before), its payload splice()d from the socket into a 1 MiB
 *   pipe and from the pipe into the file (at most 256 KiB in the pipe), and
 *   every 256 KiB stored (and at the end) that range copy_file_range()d from
 *   the file into the spool at the same offset: a reflink on XFS (reflink=1)
 *   and btrfs, the ranges being block-aligned; a kernel copy elsewhere. The
 *   cheapest exact way where reflinks exist: the body crosses no user buffer
 *   and the spool costs no copy.
 *
 * Then "Status: 201" and END_REQUEST.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define BUF (1 << 20)
#define MAXIOV 1024
/* What the reflink mode lets the pipe hold and spools at once: block-aligned
 * ranges, and a 1 MiB pipe (256 slots) cannot fill by slots before bytes
 * unless the socket hands over fragments under 1 KiB, which the non-blocking
 * splice below survives anyway. */
#define CHUNK (256 << 10)

static unsigned char buf[BUF];
static char params[65536];
static size_t nparams;
static const char *spool_dir = "/tmp";

static void die(const char *what)
{
	fprintf(stderr, "fcup: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int writev_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n > MAXIOV ? MAXIOV : n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= w;
		}
	}
	return 0;
}

/* The same payloads to the file and to the spool; 1 on failure. */
static int flush(int fd, int spool, struct iovec *iov, int niov)
{
	/* writev_all() moves the iovec on: the spool gets a copy of it. */
	static struct iovec again[MAXIOV * 4];
	if (spool >= 0)
		memcpy(again, iov, niov * sizeof iov[0]);
	return fd < 0 || writev_all(fd, iov, niov) < 0 || (spool >= 0 && writev_all(spool, again, niov) < 0);
}

/* Exactly n bytes from the socket; -1 on EOF or error. */
static int read_full(int fd, unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

/* Everything in the pipe into the file (at its position); -1 on failure. */
static int drain(int p, int fd, size_t *inpipe, off_t *stored)
{
	while (*inpipe > 0) {
		ssize_t n = splice(p, NULL, fd, NULL, *inpipe, SPLICE_F_MOVE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		*inpipe -= n;
		*stored += n;
	}
	return 0;
}

/* [from, to) of the file into the spool at the same offsets; -1 on failure. */
static int spool_range(int fd, int spool, off_t from, off_t to)
{
	loff_t in = from, out = from;
	while (in < to) {
		ssize_t n = copy_file_range(fd, &in, spool, &out, to - in, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
	}
	return 0;
}

/*
 * The reflink mode's body, from the first STDIN header on: payloads spliced
 * socket -> pipe -> file, the spool made from the file; 1 on failure.
 */
static int body_reflink(int c, int fd, int spool)
{
	static int p[2] = {-1, -1};
	unsigned char h[8 + 255];
	size_t pad = 0, inpipe = 0;
	off_t stored = 0, spooled = 0;
	if (p[0] < 0) {
		if (pipe2(p, O_CLOEXEC) < 0)
			die("pipe2");
		/* The size the fastcgi path's pipe has: fewer splices per byte. */
		fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	}
	for (;;) {
		/* The padding of the record before comes with this header: one read(). */
		if (read_full(c, h, pad + 8) < 0)
			return 1;
		unsigned char *r = h + pad;
		size_t clen = (r[4] << 8) | r[5];
		pad = r[6];
		if (r[1] != 5) { /* not STDIN (nginx sends none here): skipped */
			if (read_full(c, buf, clen) < 0)
				return 1;
			continue;
		}
		if (clen == 0) {
			/* Its padding too: a close with unread bytes would reset a TCP peer. */
			if (pad && read_full(c, h, pad) < 0)
				return 1;
			break;
		}
		while (clen > 0) {
			size_t want = CHUNK - inpipe < clen ? CHUNK - inpipe : clen;
			/*
			 * Into an empty pipe the splice blocks only for the socket; into
			 * one holding bytes it must not wait for room (we are the one
			 * who drains it, and slots may run out before bytes do): EAGAIN
			 * drains it and tries again.
			 */
			ssize_t n = splice(c, NULL, p[1], NULL, want, SPLICE_F_MOVE | (inpipe ? SPLICE_F_NONBLOCK : 0));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN && inpipe) {
				if (drain(p[0], fd, &inpipe, &stored) < 0)
					return 1;
				continue;
			}
			if (n <= 0)
				return 1;
			inpipe += n;
			clen -= n;
			if (inpipe == CHUNK && drain(p[0], fd, &inpipe, &stored) < 0)
				return 1;
			/* Whole chunks only, so every range but the last is block-aligned. */
			if (stored - spooled >= CHUNK) {
				off_t to = stored - (stored - spooled) % CHUNK;
				if (spool_range(fd, spool, spooled, to) < 0)
					return 1;
				spooled = to;
			}
		}
	}
	if (drain(p[0], fd, &inpipe, &stored) < 0 || spool_range(fd, spool, spooled, stored) < 0)
		return 1;
	return 0;
}

/* The value of a param in the PARAMS stream, or NULL. */
static const char *param(const char *want, char *out, size_t outlen)
{
	size_t i = 0, wl = strlen(want);
	while (i < nparams) {
		uint32_t l[2];
		for (int k = 0; k < 2; k++) {
			unsigned char *p = (unsigned char *)params + i;
			if (p[0] & 0x80) {
				l[k] = ((uint32_t)(p[0] & 0x7f) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
				i += 4;
			} else {
				l[k] = p[0];
				i += 1;
			}
		}
		if (i + l[0] + l[1] > nparams)
			return NULL;
		if (l[0] == wl && memcmp(params + i, want, wl) == 0 && l[1] < outlen) {
			memcpy(out, params + i + l[0], l[1]);
			out[l[1]] = 0;
			return out;
		}
		i += l[0] + l[1];
	}
	return NULL;
}

static void respond(int c, uint16_t id, const char *status)
{
	char body[256];
	int bl = snprintf(body, sizeof body, "Status: %s\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n", status);
	unsigned char out[512];
	size_t o = 0;
	unsigned char h[8] = {1, 6, id >> 8, id & 0xff, bl >> 8, bl & 0xff, 0, 0};
	memcpy(out + o, h, 8), o += 8;
	memcpy(out + o, body, bl), o += bl;
	unsigned char e[8] = {1, 6, id >> 8, id & 0xff, 0, 0, 0, 0};
	memcpy(out + o, e, 8), o += 8;
	unsigned char end[16] = {1, 3, id >> 8, id & 0xff, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	memcpy(out + o, end, 16), o += 16;
	(void)!write(c, out, o);
}

static void serve(int c)
{
	size_t have = 0, off = 0;
	int fd = -1, spool = -1, failed = 0, reflink = 0;
	uint16_t id = 1;
	char path[PATH_MAX], sdir[16], keep[16], spath[PATH_MAX + 16];
	nparams = 0;
	spath[0] = 0;
	/* BEGIN_REQUEST and PARAMS one record at a time, up to the empty PARAMS. */
	for (;;) {
		unsigned char h[8];
		if (read_full(c, h, 8) < 0) {
			close(c);
			return;
		}
		size_t clen = (h[4] << 8) | h[5], rlen = clen + h[6];
		if (read_full(c, buf, rlen) < 0) {
			close(c);
			return;
		}
		id = (h[2] << 8) | h[3];
		if (h[1] == 4 && clen == 0)
			break;
		if (h[1] == 4 && nparams + clen <= sizeof params)
			memcpy(params + nparams, buf, clen), nparams += clen;
	}
	if (param("FCUP_SPOOL", sdir, sizeof sdir) && sdir[0]) {
		reflink = strcmp(sdir, "reflink") == 0;
		snprintf(spath, sizeof spath, "%s/phpXXXXXX", spool_dir);
		if ((spool = mkstemp(spath)) < 0)
			failed = 1, spath[0] = 0;
	}
	/* copy_file_range() reads the file: the reflink mode opens it read-write. */
	if (!param("FCUP_FILE", path, sizeof path) || (fd = open(path, (reflink ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		failed = 1;
	if (reflink && !failed) {
		failed = body_reflink(c, fd, spool);
		goto end;
	}
	/* Otherwise (or to consume the body of a failed request) the buffered loop. */
	for (;;) {
		ssize_t n = read(c, buf + have, BUF - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += n;
		struct iovec iov[MAXIOV * 4];
		int niov = 0, done = 0;
		off = 0;
		while (have - off >= 8) {
			unsigned char *h = buf + off;
			size_t clen = (h[4] << 8) | h[5], rlen = 8 + clen + h[6];
			if (have - off < rlen)
				break;
			if (h[1] == 5 && clen) { /* STDIN */
				if (niov == (int)(sizeof iov / sizeof iov[0]))
					failed |= flush(fd, spool, iov, niov), niov = 0;
				iov[niov].iov_base = h + 8, iov[niov++].iov_len = clen;
			} else if (h[1] == 5) {
				done = 1;
			}
			off += rlen;
		}
		if (niov)
			failed |= flush(fd, spool, iov, niov);
		memmove(buf, buf + off, have - off);
		have -= off;
		if (done)
			break;
	}
end:
	if (fd >= 0)
		close(fd);
	if (spool >= 0)
		close(spool);
	if (spath[0]) {
		char kept[PATH_MAX + 16];
		/* FCUP_KEEP: the spool kept beside the file for the bench to compare. */
		if (param("FCUP_KEEP", keep, sizeof keep) && keep[0] && fd >= 0) {
			snprintf(kept, sizeof kept, "%s.spool", path);
			if (rename(spath, kept) < 0)
				unlink(spath);
		} else {
			unlink(spath);
		}
	}
	respond(c, id, failed ? "500 Internal Server Error" : "201 Created");
	close(c);
}

int main(int argc, char **argv)
{
	const char *listen_at = NULL;
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "listen=", 7) == 0)
			listen_at = argv[i] + 7;
		else if (strncmp(argv[i], "spool=", 6) == 0)
			spool_dir = argv[i] + 6;
	if (!listen_at) {
		fprintf(stderr, "usage: fcup listen=unix:PATH|tcp:127.0.0.1:PORT [spool=DIR]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int s;
	if (strncmp(listen_at, "unix:", 5) == 0) {
		struct sockaddr_un a = {.sun_family = AF_UNIX};
		snprintf(a.sun_path, sizeof a.sun_path, "%s", listen_at + 5);
		unlink(a.sun_path);
		if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || bind(s, (void *)&a, sizeof a) < 0)
			die("bind");
		chmod(a.sun_path, 0666);
	} else if (strncmp(listen_at, "tcp:", 4) == 0) {
		const char *hp = listen_at + 4, *colon = strrchr(hp, ':');
		struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(colon + 1))};
		char host[64];
		snprintf(host, sizeof host, "%.*s", (int)(colon - hp), hp);
		inet_pton(AF_INET, host, &a.sin_addr);
		int one = 1;
		if ((s = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			die("socket");
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(s, (void *)&a, sizeof a) < 0)
			die("bind");
	} else {
		fprintf(stderr, "fcup: listen=%s: unix: or tcp: expected\n", listen_at);
		return 2;
	}
	if (listen(s, 16) < 0)
		die("listen");
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		serve(c);
	}
}
