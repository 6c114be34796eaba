/*
 * fcref: the C reference for the fastcopy benchmark. It does the same
 * transfer as the PHP case scripts with one raw syscall in a loop, so its
 * figures are the limit of this machine for that case.
 *
 *   fcref MODE src=PATH dst=SPEC [offset=N] [length=N] [count=N] report=FILE
 *
 * MODE: sendfile | copy_file_range | splice | read | mmapwrite | fastcgi | fastcgi_copy
 * SPEC: file:PATH | dir:PATH (count small files) | tcp:HOST:PORT |
 *       unix:PATH | stdout | memory
 *
 * Like the PHP side, only the copy is timed (open/connect are not, except
 * in the many-small-files mode where open/close is part of each copy).
 * Sockets are shut down and drained to EOF inside the timed part so the
 * figure covers delivery, not just queueing into the socket buffer.
 *
 * fastcgi sends the file as FastCGI STDOUT records with the syscalls of the
 * extension's fastcgi path (src/fastcgi.c) and nothing of PHP: the file's
 * size read once per batch of 14 records, each record's 8-byte header
 * written and its payload spliced into a pipe, the batch spliced to the
 * socket. What arrives is payload plus headers; bytes in the
 * report count the payload.
 *
 * fastcgi_copy sends the same records as the fastcgi path's copy route
 * (src/sapi/fastcgi_copy.c, a TCP pool whose web server is on this host):
 * the file mapped 56 records at a time (MAP_POPULATE), the size read once per
 * mapping, each batch of 14 headers and payloads in one writev().
 *
 * mmapwrite is the copy route of a plain copy without PHP (fastcopy's mmap
 * window, which fastcopy_stream() takes to a TCP peer on this host): the file
 * mapped 4 MiB at a time (MAP_POPULATE, fastcopy.mmap_window's default) and
 * write()n from the mapping 1 MiB at a time (fastcopy.buffer_size's).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_MAX 0x7ffff000L /* largest count Linux moves per call */

static const char *mode, *src, *dst, *report;
static long long offset, length = -1, count = 1;
static int is_socket;

static void die(const char *what)
{
	fprintf(stderr, "fcref: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_dst(void)
{
	if (!strncmp(dst, "file:", 5)) {
		int fd = open(dst + 5, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) die("open dst");
		return fd;
	}
	if (!strcmp(dst, "stdout"))
		return 1;
	if (!strncmp(dst, "tcp:", 4)) {
		char host[64];
		const char *colon = strrchr(dst + 4, ':');
		struct sockaddr_in sa = { .sin_family = AF_INET };
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		snprintf(host, sizeof host, "%.*s", (int)(colon - dst - 4), dst + 4);
		sa.sin_port = htons(atoi(colon + 1));
		inet_pton(AF_INET, host, &sa.sin_addr);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die("connect tcp");
		is_socket = 1;
		return fd;
	}
	if (!strncmp(dst, "unix:", 5)) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		snprintf(sa.sun_path, sizeof sa.sun_path, "%s", dst + 5);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) die("connect unix");
		is_socket = 1;
		return fd;
	}
	fprintf(stderr, "fcref: bad dst %s\n", dst);
	exit(2);
}

/* Moves len bytes from in (at *off) to out with the chosen syscall. */
static long long copy_fd(int in, int out, long long off, long long len)
{
	long long done = 0;
	while (done < len) {
		size_t want = len - done > CHUNK_MAX ? CHUNK_MAX : len - done;
		ssize_t n;
		off_t o = off + done;
		if (!strcmp(mode, "sendfile"))
			n = sendfile(out, in, &o, want);
		else if (!strcmp(mode, "copy_file_range"))
			n = copy_file_range(in, &o, out, NULL, want, 0);
		else if (!strcmp(mode, "splice"))
			n = splice(in, &o, out, NULL, want, SPLICE_F_MOVE | SPLICE_F_MORE);
		else {
			fprintf(stderr, "fcref: bad mode %s\n", mode);
			exit(2);
		}
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) die(mode);
		if (n == 0) break; /* source shorter than asked */
		done += n;
	}
	return done;
}

/* The copy route's window and block: fastcopy.mmap_window and fastcopy.buffer_size's defaults. */
#define MMAP_WINDOW (4L << 20)
#define WRITE_BLOCK (1L << 20)

/* Writes all of buf to out, as fastcopy's blocks do: the rest again after a short write. */
static void write_all(int out, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(out, buf, len);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) die("write");
		buf += n;
		len -= n;
	}
}

/* The file mapped a window at a time and written from the mapping in blocks. */
static long long mmap_write(int in, int out, long long off, long long len)
{
	long page = sysconf(_SC_PAGESIZE);
	long long done = 0;
	while (done < len) {
		long long at = off + done, map_at = at & ~((long long)page - 1);
		size_t lead = at - map_at, n = len - done > MMAP_WINDOW ? MMAP_WINDOW : len - done;
		char *map = mmap(NULL, lead + n, PROT_READ, MAP_SHARED | MAP_POPULATE, in, map_at);
		if (map == MAP_FAILED) die("mmap");
		for (size_t w = 0; w < n; w += WRITE_BLOCK)
			write_all(out, map + lead + w, n - w > WRITE_BLOCK ? WRITE_BLOCK : n - w);
		munmap(map, lead + n);
		done += n;
	}
	return done;
}

/* As FPM frames its output: records of at most 0xfff8 bytes, no padding. */
#define FCGI_PAYLOAD_MAX 0xfff8

static void fcgi_header(unsigned char *h, size_t len)
{
	static const unsigned char proto[8] = {1, 6, 0, 1}; /* version 1, STDOUT, request 1 */
	memcpy(h, proto, sizeof proto);
	h[4] = (unsigned char)(len >> 8);
	h[5] = (unsigned char)len;
}

static long long fastcgi_records(int in, int out, long long off, long long len)
{
	int p[2];
	long long done = 0;
	if (pipe(p) < 0) die("pipe");
	long size = fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	long page = sysconf(_SC_PAGESIZE);
	if (size < 0) size = fcntl(p[1], F_GETPIPE_SZ);
	/* A record takes a slot for its header and one per page its payload
	 * touches (seldom page-aligned: one more). The batch must fit, or the
	 * blocking write would wait for ever; src/fastcgi.c sends 14. */
	long per_record = 1 + (FCGI_PAYLOAD_MAX + page - 1) / page + 1;
	long batch = size / page / per_record;
	if (batch > 14) batch = 14;
	if (batch < 1) { errno = EINVAL; die("pipe too small for one record"); }
	while (done < len) {
		size_t queued = 0;
		struct stat st;
		/* As the extension does once per batch: never promise more than the file has. */
		if (fstat(in, &st) < 0) die("fstat");
		if (st.st_size <= off + done) break;
		for (long i = 0; i < batch && done < len; i++) {
			size_t n = len - done > FCGI_PAYLOAD_MAX ? FCGI_PAYLOAD_MAX : len - done;
			unsigned char h[8];
			fcgi_header(h, n);
			if (write(p[1], h, sizeof h) != (ssize_t)sizeof h) die("write header");
			queued += sizeof h;
			while (n > 0) {
				loff_t o = off + done;
				ssize_t k = splice(in, &o, p[1], NULL, n, SPLICE_F_MOVE);
				if (k < 0 && errno == EINTR) continue;
				if (k < 0) die("splice file");
				if (k == 0) { errno = EIO; die("file shorter than asked"); }
				n -= k;
				done += k;
				queued += k;
			}
		}
		while (queued > 0) {
			ssize_t k = splice(p[0], NULL, out, NULL, queued, SPLICE_F_MOVE | (done < len ? SPLICE_F_MORE : 0));
			if (k < 0 && errno == EINTR) continue;
			if (k <= 0) die("splice socket");
			queued -= k;
		}
	}
	close(p[0]);
	close(p[1]);
	return done;
}

/* The fastcgi path's copy route: records written from a mapping, a batch of 14 per writev(). */
static long long fastcgi_copy(int in, int out, long long off, long long len)
{
	enum { BATCH = 14, WINDOW_RECORDS = 4 * BATCH };
	long page = sysconf(_SC_PAGESIZE);
	long long done = 0;
	while (done < len) {
		struct stat st;
		/* As the extension does once per mapping: never promise more than the file has. */
		if (fstat(in, &st) < 0) die("fstat");
		if (st.st_size <= off + done) break;
		long long at = off + done, map_at = at & ~((long long)page - 1), rest = len - done;
		if (rest > st.st_size - at) rest = st.st_size - at;
		size_t lead = at - map_at, n = rest > (long long)WINDOW_RECORDS * FCGI_PAYLOAD_MAX ? (size_t)WINDOW_RECORDS * FCGI_PAYLOAD_MAX : (size_t)rest;
		char *map = mmap(NULL, lead + n, PROT_READ, MAP_SHARED | MAP_POPULATE, in, map_at);
		if (map == MAP_FAILED) die("mmap");
		for (size_t w = 0; w < n;) {
			struct iovec iov[2 * BATCH];
			unsigned char h[BATCH][8];
			int k = 0;
			for (; k < BATCH && w < n; k++) {
				size_t r = n - w > FCGI_PAYLOAD_MAX ? FCGI_PAYLOAD_MAX : n - w;
				fcgi_header(h[k], r);
				iov[2 * k] = (struct iovec){ h[k], 8 };
				iov[2 * k + 1] = (struct iovec){ map + lead + w, r };
				w += r;
			}
			struct iovec *v = iov;
			int left = 2 * k;
			while (left > 0) {
				ssize_t m = writev(out, v, left);
				if (m < 0 && errno == EINTR) continue;
				if (m <= 0) die("writev");
				while (left > 0 && (size_t)m >= v->iov_len) {
					m -= v->iov_len;
					v++;
					left--;
				}
				if (m > 0) {
					v->iov_base = (char *)v->iov_base + m;
					v->iov_len -= m;
				}
			}
		}
		munmap(map, lead + n);
		done += n;
	}
	return done;
}

/* The memory case: read the range into one heap buffer, as php://memory ends up. */
static long long read_to_memory(int in, long long off, long long len)
{
	char *buf = malloc(len ? len : 1);
	long long done = 0;
	if (!buf) die("malloc");
	while (done < len) {
		ssize_t n = pread(in, buf + done, len - done > CHUNK_MAX ? CHUNK_MAX : len - done, off + done);
		if (n < 0 && errno == EINTR) continue;
		if (n < 0) die("pread");
		if (n == 0) break;
		done += n;
	}
	free(buf);
	return done;
}

static void wait_eof(int fd)
{
	char buf[4096];
	shutdown(fd, SHUT_WR);
	while (read(fd, buf, sizeof buf) > 0)
		;
}

static long long run(void)
{
	if (!strncmp(dst, "dir:", 4)) {
		/* Many small files: open, copy, close each one, like the PHP loop. */
		long long total = 0;
		char sp[4096], dp[4096];
		access("/fcbench-mark-begin", F_OK);
		for (long long i = 0; i < count; i++) {
			snprintf(sp, sizeof sp, "%s/f%06lld", src, i);
			snprintf(dp, sizeof dp, "%s/f%06lld", dst + 4, i);
			int in = open(sp, O_RDONLY), out = open(dp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			struct stat st;
			if (in < 0 || out < 0 || fstat(in, &st) < 0) die("open small");
			total += copy_fd(in, out, 0, st.st_size);
			close(in);
			close(out);
		}
		return total;
	}
	int in = open(src, O_RDONLY);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0) die("open src");
	long long len = length >= 0 ? length : st.st_size - offset;
	if (!strcmp(dst, "memory")) {
		access("/fcbench-mark-begin", F_OK);
		return read_to_memory(in, offset, len);
	}
	int out = open_dst();
	access("/fcbench-mark-begin", F_OK); /* strace marker: copy phase starts */
	long long n = !strcmp(mode, "fastcgi") ? fastcgi_records(in, out, offset, len)
		: !strcmp(mode, "fastcgi_copy") ? fastcgi_copy(in, out, offset, len)
		: !strcmp(mode, "mmapwrite") ? mmap_write(in, out, offset, len)
		: copy_fd(in, out, offset, len);
	if (is_socket) wait_eof(out);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fcref MODE src=PATH dst=SPEC [offset=N] [length=N] [count=N] report=FILE\n");
		return 2;
	}
	mode = argv[1];
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) continue;
		*eq++ = 0;
		if (!strcmp(argv[i], "src")) src = eq;
		else if (!strcmp(argv[i], "dst")) dst = eq;
		else if (!strcmp(argv[i], "report")) report = eq;
		else if (!strcmp(argv[i], "offset")) offset = atoll(eq);
		else if (!strcmp(argv[i], "length")) length = atoll(eq);
		else if (!strcmp(argv[i], "count")) count = atoll(eq);
	}
	if (!src || !dst || !report) {
		fprintf(stderr, "fcref: src, dst and report are required\n");
		return 2;
	}
	if (!strcmp(mode, "read") && strcmp(dst, "memory")) {
		fprintf(stderr, "fcref: mode read is for dst=memory\n");
		return 2;
	}

	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	double t0 = now();
	long long bytes = run();
	double t1 = now();
	access("/fcbench-mark-end", F_OK);
	getrusage(RUSAGE_SELF, &r1);

	FILE *f = fopen(report, "w");
	if (!f) die("open report");
	fprintf(f, "{\"ok\":true,\"bytes\":%lld,\"wall\":%.9f,\"utime\":%.6f,\"stime\":%.6f,\"maxrss_kb\":%ld}\n",
		bytes, t1 - t0,
		(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) / 1e6,
		(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6,
		r1.ru_maxrss);
	fclose(f);
	return 0;
}
