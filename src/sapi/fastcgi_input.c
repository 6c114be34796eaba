/* php://input under PHP-FPM at the live edge: the request body still in the
 * FastCGI socket. Stock reads it 8 KiB per fill of php://input's read buffer:
 * fcgi_read() into a buffer (a read() per 8 KiB, a read() per record header and
 * padding), a write to the spool, a seek, a read back from the spool, then the
 * copy loop's write. This path reads the same records with reads as large as a
 * record's payload, many fills at once, and writes the batch once to the spool
 * and once to the destination file.
 *
 * Exactness rests on two things. First, FPM never reads ahead on STDIN: the
 * socket's next byte is the one in_len/in_pad of its fcgi_request describe, and
 * this path reads no byte past the last fill it commits (a payload read stops at
 * the record's end and at the batch's end, a header is read only when a fill
 * needs more). Second, each fill is run through a mirror of FPM's own
 * sapi_cgi_read_post() and fcgi_read(), call by call, over those bytes, so what a
 * fill gets (all 8 KiB, or, when the connection breaks, what stock keeps: nothing
 * of a fill whose header read failed, what arrived of a payload at its end of
 * file), SG(read_post_bytes), SG(post_read) and the request's in_len, in_pad and
 * keep come out as stock's. Only whole fills while CONTENT_LENGTH has 8 KiB more
 * are taken here; the last partial fill, the end of the body and every case not
 * proven go through stock's reads (the read/write path's). The spool space for a
 * batch is reserved first (fallocate, size kept): where it cannot be, that fill is
 * read as stock reads it, so a full upload_tmp_dir behaves exactly as stock; on a
 * nearly full filesystem that holds the file too, a batch is one fill.
 *
 * With fastcopy.spool_clone=1, where the file and the spool share a filesystem
 * that clones (XFS, btrfs) and their offsets agree within a block, the payloads do
 * not cross user space at all: they are spliced socket -> pipe -> file, and the
 * spool is made by cloning the file's new range (FICLONERANGE), so the body is
 * written once: half the writes and the page cache, for more of the worker's CPU
 * than writing from the buffer (bench/), so it is asked for, not the default. Only
 * bytes of whole fills already taken reach the file early, so a broken connection
 * leaves the file as stock's fills would; anything unusual (a splice or clone refused,
 * a pipe that stops taking bytes) moves the rest of the batch into the buffer
 * and carries on as above. */

#include "src/sapi/sapi.h"
#include "src/paths/paths.h"
#include "src/core/stats.h"
#include "src/core/sapi_name.h"
#include "src/sapi/fastcgi_request.h"

#include "SAPI.h"
#include "php_memory_streams.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/fs.h>

#define FCGI_STDIN       5
#define FC_HEADER_BYTES  8
#define FC_FILL          FC_REQUEST_BODY_FILL
/* 128 fills, 1 MiB: 32 of nginx's 32 KiB records; the work done once per batch
 * (the spool's descriptor and size, seeks, a reservation or a clone) is then a
 * small part of it. */
#define FC_BATCH_FILLS   128
/* Free space under which a filesystem counts as nearly full: the route reserves the
 * spool's batch first, and a batch that shares it with the file is one fill. */
#define FC_ROOM_NEARLY_FULL ((uint64_t) 64 * 1024 * 1024)

#if defined(FICLONERANGE) && defined(F_SETPIPE_SZ)
# define FC_SPLICE_ROUTE 1
/* Room for what is not flushed yet (under FC_ROUTE_FLUSH, a fill and a record past
 * it), in page-sized pipe slots however the socket fragments it. */
# define FC_ROUTE_PIPE   (1024 * 1024)
/* Whole fills in the pipe beyond this go on into the file. */
# define FC_ROUTE_FLUSH  (128 * 1024)
# define FC_XFS_MAGIC    0x58465342
# define FC_BTRFS_MAGIC  0x9123683E
#endif

/* Stock's reads may warn, and a user error handler may end the script there: the
 * route's descriptors are closed before them. */
#ifdef FC_SPLICE_ROUTE
# define ROUTE_CLOSE(r) route_close(r)
#else
# define ROUTE_CLOSE(r) ((void) (r))
#endif

/* The splice route of one copy. */
typedef struct {
	int pipe_rd, pipe_wr;
	int out_fd;
	int file_rd;         /* the file, readable: the clone's source */
	zend_off_t out_at;   /* the file's offset: where the next payload lands */
	bool on;
} fc_route;

typedef struct {
	fc_fcgi_request *req;
	char *buf;
	size_t cap;       /* the batch: whole fills */
	size_t fetched;   /* payload bytes taken from the socket: [landed, fetched) in buf or the pipe */
	size_t consumed;  /* of which the mirrored fcgi_read() has taken */
	int ended;        /* the socket said end of file (1) or failed (-1) */
	bool drop_conn;   /* fcgi_read() would have cleared keep */
	/* padding and the next header, read at once while the batch needs that header */
	unsigned char ahead[255 + FC_HEADER_BYTES];
	size_t ahead_pos, ahead_len;
	int ahead_ended;
	/* the splice route: payloads in the pipe, then in the file */
	fc_job *job;
	fc_route *route;  /* NULL: payloads read into buf */
	size_t landed;    /* payload bytes already in the file */
	size_t committed; /* bytes of the fills taken whole so far */
} fc_stdin;

static bool is_fpm(void)
{
	return fc_sapi_is(FC_SAPI_FPM);
}

static bool fastcgi_input_possible(void)
{
	return is_fpm();
}

static const char *fastcgi_input_unavailable(void)
{
	if (!is_fpm()) {
		return "the SAPI is not PHP-FPM";
	}
	return fc_fastcgi_unavailable();
}

/* read() until count bytes, end of file or an error; *ended says which ended it. */
static size_t read_full(int fd, unsigned char *to, size_t count, int *ended)
{
	size_t n = 0;

	*ended = 0;
	while (n < count) {
		ssize_t r;

		errno = 0;
		r = read(fd, to + n, count - n);
		if (r > 0) {
			n += (size_t) r;
		} else if (r == 0) {
			*ended = 1;
			break;
		} else if (errno != EINTR) {
			*ended = -1;
			break;
		}
	}
	return n;
}

/* FPM's safe_read() of count bytes of our own (a header, padding): count, fewer
 * at end of file, -1 on an error. What was read ahead is served first, and the
 * way its read ended shows only once it is used up, where stock's own read would
 * have ended. */
static ssize_t read_exact(fc_stdin *s, unsigned char *to, size_t count)
{
	size_t n = MIN(count, s->ahead_len - s->ahead_pos);
	int ended;

	memcpy(to, s->ahead + s->ahead_pos, n);
	s->ahead_pos += n;
	if (n == count) {
		return (ssize_t) n;
	}
	if (s->ahead_ended != 0) {
		ended = s->ahead_ended;
	} else {
		n += read_full(s->req->fd, to + n, count - n, &ended);
	}
	if (ended != 0) {
		s->ended = ended;
	}
	return ended < 0 ? -1 : (ssize_t) n;
}

/* Padding, and the header stock reads right after it when the batch needs more:
 * one read() for both. */
static ssize_t read_padding(fc_stdin *s, size_t pad)
{
	unsigned char scratch[255];

	if (s->consumed < s->cap && s->ahead_pos == s->ahead_len && s->ahead_ended == 0) {
		s->ahead_pos = 0;
		s->ahead_len = read_full(s->req->fd, s->ahead, pad + FC_HEADER_BYTES, &s->ahead_ended);
	}
	return read_exact(s, scratch, pad);
}

#ifdef FC_SPLICE_ROUTE
/* The whole fills taken so far, from the pipe into the file. */
static bool route_flush(fc_stdin *s)
{
	while (s->landed < s->committed) {
		ssize_t w = splice(s->route->pipe_rd, NULL, s->route->out_fd, NULL, s->committed - s->landed,
			SPLICE_F_MOVE);

		if (w > 0) {
			s->landed += (size_t) w;
			s->route->out_at += (zend_off_t) w;
			fc_job_gave(s->job, (size_t) w);
			fc_stats_spliced((size_t) w);
		} else if (!(w < 0 && errno == EINTR)) {
			return false;
		}
	}
	return true;
}

/* Off the route for the rest of the copy: what the pipe holds goes into buf,
 * where the batch's later bytes follow it. */
static void route_leave(fc_stdin *s)
{
	size_t have = s->fetched - s->landed;
	int ended;

	if (read_full(s->route->pipe_rd, (unsigned char *) s->buf + s->landed, have, &ended) != have) {
		/* cannot happen: the pipe holds exactly these bytes */
		s->ended = -1;
		s->fetched = s->landed;
	}
	s->route->on = false;
	s->route = NULL;
}

/* splice() of the socket into the pipe (non-blocking: the pipe is); a pipe out of
 * slots and nothing left to flush leaves the route. */
static ssize_t route_fetch(fc_stdin *s, size_t room)
{
	bool waited = false;

	for (;;) {
		ssize_t r = splice(s->req->fd, NULL, s->route->pipe_wr, NULL, room, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		struct pollfd p = {s->req->fd, POLLIN, 0};

		if (r >= 0 || (errno != EAGAIN && errno != EINTR)) {
			return r;
		}
		if (errno == EINTR) {
			continue;
		}
		if (s->landed < s->committed) {
			if (!route_flush(s)) {
				route_leave(s);
				errno = EAGAIN;
				return -1;
			}
			continue;
		}
		if (waited) {
			route_leave(s);
			errno = EAGAIN;
			return -1;
		}
		/* FPM's reads block without a time limit: so does this wait */
		while (poll(&p, 1, -1) < 0 && errno == EINTR) {
		}
		waited = true;
	}
}
#endif

/* One read() of up to room payload bytes into buf. When they end the record and
 * the batch needs more, its padding and the next header come in the same read:
 * they are what stock reads next. Those go to the look-ahead. */
static ssize_t read_payload_and_header(fc_stdin *s, size_t room)
{
	size_t rest = (size_t) s->req->in_len - (s->fetched - s->consumed), more = 0;
	ssize_t r;

	if (room == rest && s->fetched + rest < s->cap && s->ahead_pos == s->ahead_len && s->ahead_ended == 0) {
		more = (size_t) s->req->in_pad + FC_HEADER_BYTES;
	}
	r = read(s->req->fd, s->buf + s->fetched, room + more);
	if (r > 0 && (size_t) r > room) {
		s->ahead_pos = 0;
		s->ahead_len = (size_t) r - room;
		memcpy(s->ahead, s->buf + s->fetched + room, s->ahead_len);
		r = (ssize_t) room;
	}
	return r;
}

/* FPM's safe_read() of count payload bytes, served from what was fetched; a fetch
 * reads as much as the record and the batch still hold. */
static ssize_t read_payload(fc_stdin *s, size_t count)
{
	size_t avail;

	while (s->fetched - s->consumed < count && s->ended == 0) {
		size_t room = MIN((size_t) s->req->in_len - (s->fetched - s->consumed), s->cap - s->fetched);
		ssize_t r;

		if (room == 0) {
			break;
		}
		errno = 0;
#ifdef FC_SPLICE_ROUTE
		if (s->route) {
			r = route_fetch(s, room);
			if (r < 0 && errno == EAGAIN) {
				continue; /* off the route now: read() the rest */
			}
		} else
#endif
		r = read_payload_and_header(s, room);
		if (r > 0) {
			s->fetched += (size_t) r;
		} else if (r == 0) {
			s->ended = 1;
		} else if (errno != EINTR) {
			s->ended = -1;
		}
	}
	avail = s->fetched - s->consumed;
	if (avail >= count) {
		s->consumed += count;
		return (ssize_t) count;
	}
	if (s->ended < 0) {
		/* what safe_read() had gathered is lost with the error */
		return -1;
	}
	s->consumed += avail;
	return (ssize_t) avail;
}

/* main/fastcgi.c's fcgi_read(), decision for decision, over the mirror's reads. */
static int mirror_fcgi_read(fc_stdin *s, int len)
{
	fc_fcgi_request *req = s->req;
	unsigned char hdr[FC_HEADER_BYTES];
	int n = 0, rest = len;

	while (rest > 0) {
		ssize_t ret;

		if (req->in_len == 0) {
			if (read_exact(s, hdr, sizeof(hdr)) != (ssize_t) sizeof(hdr) || hdr[0] < 1 || hdr[1] != FCGI_STDIN) {
				s->drop_conn = true;
				return 0;
			}
			req->in_len = (hdr[4] << 8) | hdr[5];
			req->in_pad = hdr[6];
			if (req->in_len == 0) {
				return n;
			}
		}
		ret = read_payload(s, (size_t) MIN(req->in_len, rest));
		if (ret < 0) {
			s->drop_conn = true;
			return (int) ret;
		}
		if (ret == 0) {
			return n;
		}
		req->in_len -= (int) ret;
		rest -= (int) ret;
		n += (int) ret;
		if (req->in_len != 0) {
			return n;
		}
		if (req->in_pad && read_padding(s, (size_t) req->in_pad) != req->in_pad) {
			s->drop_conn = true;
			/* as fcgi_read(): the last read's count, not the call's */
			return (int) ret;
		}
	}
	return n;
}

/* fpm_main.c's sapi_cgi_read_post() for one whole fill. */
static size_t mirror_read_post(fc_stdin *s)
{
	size_t got = 0;

	while (got < FC_FILL) {
		int r = mirror_fcgi_read(s, (int) (FC_FILL - got));

		if (r <= 0) {
			break;
		}
		got += (size_t) r;
	}
	return got;
}

static bool has_body_file(void)
{
	char *file = sapi_getenv("REQUEST_BODY_FILE", sizeof("REQUEST_BODY_FILE") - 1);
	bool set = file && *file;

	if (file) {
		efree(file);
	}
	return set;
}

/* The batch's bytes to the spool's end, in the space reserved for them. */
static bool spool_batch(int fd, php_stream *body, zend_off_t at, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = pwrite(fd, buf + done, len - done, (off_t) (at + (zend_off_t) done));

		if (w > 0) {
			done += (size_t) w;
		} else if (!(w < 0 && errno == EINTR)) {
			break;
		}
	}
	if (done < len) {
		/* The reservation did not hold (another writer, a quota): the stream
		 * layer writes the rest and says why, as stock's spool write would. */
		php_stream_seek(body, 0, SEEK_END);
		php_stream_write(body, buf + done, len - done);
	}
	/* The spool's own position catches up with its file. */
	php_stream_seek(body, 0, SEEK_END);
	return done == len;
}

/* The batch's bytes from `base` on to the destination file: one write, and where
 * that stops short, the stream layer's write of the rest of that fill reports the
 * error as stock's write of the fill would. What did not reach the file goes back
 * in front of php://input's read buffer, as the read/write path gives it back. */
static fc_status deliver_batch(fc_job *job, const char *buf, size_t base, size_t len)
{
	size_t done = base, written;
	fc_status st;

	while (done < len) {
		ssize_t w = write(job->out.fd, buf + done, len - done);

		if (w > 0) {
			done += (size_t) w;
			fc_job_gave(job, (size_t) w);
		} else if (!(w < 0 && errno == EINTR)) {
			break;
		}
	}
	while (done < len) {
		size_t fill_end = MIN(len, (done / FC_FILL + 1) * FC_FILL);

		st = fc_write_block(job, buf + done, fill_end - done, &written);
		done += written;
		if (st != FC_CONTINUE) {
			fc_give_back(job, buf + done, len - done);
			return st;
		}
	}
	return FC_CONTINUE;
}

#ifdef FC_SPLICE_ROUTE
static void route_close(fc_route *route)
{
	if (route->pipe_rd >= 0) {
		close(route->pipe_rd);
		close(route->pipe_wr);
		route->pipe_rd = route->pipe_wr = -1;
	}
	if (route->file_rd >= 0 && route->file_rd != route->out_fd) {
		close(route->file_rd);
	}
	route->file_rd = -1;
	route->on = false;
}

/* A descriptor that reads the destination: the clone's source must be readable,
 * and file_put_contents() opens its file write-only. The same file opened again
 * through /proc, or nothing. */
static int readable_file(int fd, const zend_stat_t *st)
{
	char path[40];
	struct stat again;
	int flags = fcntl(fd, F_GETFL), rd;

	if (flags < 0) {
		return -1;
	}
	if ((flags & O_ACCMODE) == O_RDWR) {
		return fd;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (rd < 0) {
		return -1;
	}
	if (fstat(rd, &again) != 0 || again.st_ino != st->st_ino || again.st_dev != st->st_dev) {
		close(rd);
		return -1;
	}
	return rd;
}

/* The last filesystem that refused a clone (XFS made without reflink): not tried
 * again in this process. */
static dev_t no_clone_dev;
static bool no_clone_known;

/* Whether the route can carry this copy (fastcopy.spool_clone=1): a file on the
 * spool's filesystem, one that clones, at an offset that agrees with the spool's
 * within a block. */
static void route_open(fc_route *route, fc_job *job, int spool_fd, const zend_stat_t *sb, zend_off_t edge)
{
	struct statfs fs;
	zend_off_t at;
	int p[2];

	if (!FASTCOPY_G(spool_clone) || job->out.kind != FC_KIND_FILE || job->out.append || sb->st_dev != job->out.st.st_dev
			|| sb->st_blksize <= 0 || (no_clone_known && no_clone_dev == sb->st_dev)
			|| fstatfs(spool_fd, &fs) != 0
			|| ((unsigned long) fs.f_type != FC_XFS_MAGIC && (unsigned long) fs.f_type != FC_BTRFS_MAGIC)
			|| (at = zend_lseek(job->out.fd, 0, SEEK_CUR)) < 0 || (at - edge) % sb->st_blksize != 0) {
		return;
	}
	route->out_fd = job->out.fd;
	route->file_rd = readable_file(job->out.fd, &job->out.st);
	if (route->file_rd < 0) {
		return;
	}
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
		route_close(route);
		return;
	}
	route->pipe_rd = p[0];
	route->pipe_wr = p[1];
	/* a smaller pipe (pipe-max-size) would leave the route in every batch */
	if (fcntl(p[1], F_SETPIPE_SZ, FC_ROUTE_PIPE) < FC_ROUTE_PIPE) {
		route_close(route);
		return;
	}
	route->out_at = at;
	route->on = true;
}

/* The spool's range [at, at + len) from the file's [from, from + len): a clone
 * where the filesystem shares extents, else a copy in the kernel, else through buf
 * (free there: those bytes never entered it). */
static void spool_from_file(fc_route *route, int spool_fd, php_stream *body, zend_off_t at, zend_off_t from,
	size_t len, char *buf)
{
	struct file_clone_range r;
	loff_t in = from, out = at;
	size_t done = 0;

	r.src_fd = route->file_rd;
	r.src_offset = (uint64_t) from;
	r.src_length = len;
	r.dest_offset = (uint64_t) at;
	if (ioctl(spool_fd, FICLONERANGE, &r) == 0) {
		fc_stats_spool_cloned(len);
		return;
	}
	/* not again in this copy: each batch would pay the refusal */
	route->on = false;
	if (errno == EOPNOTSUPP || errno == ENOTTY || errno == EXDEV) {
		struct stat sb;

		if (fstat(spool_fd, &sb) == 0) {
			no_clone_dev = sb.st_dev;
			no_clone_known = true;
		}
	}
	while (done < len) {
		ssize_t n = copy_file_range(route->file_rd, &in, spool_fd, &out, len - done, 0);

		if (n > 0) {
			done += (size_t) n;
		} else if (!(n < 0 && errno == EINTR)) {
			break;
		}
	}
	if (done < len) {
		ssize_t n = pread(route->file_rd, buf + done, len - done, (off_t) (from + (zend_off_t) done));

		spool_batch(spool_fd, body, at + (zend_off_t) done, buf + done, n > 0 ? (size_t) n : 0);
	}
}
#endif

/* Whether fd's filesystem has under FC_ROOM_NEARLY_FULL free (or cannot say). */
static bool nearly_full(int fd)
{
	struct statfs fs;

	return fstatfs(fd, &fs) != 0 || (uint64_t) fs.f_bavail * (uint64_t) fs.f_bsize < FC_ROOM_NEARLY_FULL;
}

/* One batch of whole fills at the live edge. FC_CONTINUE: all of it delivered,
 * go on; FC_FALLBACK with job->reason fallocate()'s errno: no room reserved, read
 * this fill as stock. */
static fc_status move_batch(fc_job *job, fc_fcgi_request *req, int spool_fd, zend_off_t edge, size_t fills,
	char *buf, fc_route *route)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	fc_stdin s;
	size_t total = 0;
	zend_off_t out_start = 0;
	int keep = req->keep;
	bool short_fill = false;

	memset(&s, 0, sizeof(s));
	s.req = req;
	s.buf = buf;
	s.cap = fills * FC_FILL;
	s.job = job;
	/* The spool must take the batch whole, as stock's writes of each fill would. A
	 * clone takes no data blocks, and the file's own write on the same filesystem
	 * comes first: the route reserves only when that filesystem is nearly full. */
	if ((!route->on || nearly_full(spool_fd))
			&& fallocate(spool_fd, FALLOC_FL_KEEP_SIZE, (off_t) edge, (off_t) s.cap) != 0) {
		job->reason = errno;
		/* what a failed reservation kept would take room stock's writes have */
		fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) edge, (off_t) s.cap);
		return FC_FALLBACK;
	}
#ifdef FC_SPLICE_ROUTE
	/* Only the route writes the file while it is open (stock's reads close it first),
	 * so its offset is the one route_open() read, moved on by each flush. */
	if (route->on) {
		out_start = route->out_at;
		s.route = route;
	}
#endif
	/* Until in_len and in_pad say where the socket stands again, FPM must not
	 * reuse the connection: a worker that dies in a read closes it. */
	req->keep = 0;
	for (size_t f = 0; f < fills; f++) {
		size_t got = mirror_read_post(&s);

		total += got;
		if (got < FC_FILL) {
			short_fill = true;
			break;
		}
#ifdef FC_SPLICE_ROUTE
		/* a whole fill is stock's to deliver whatever comes next */
		s.committed = total;
		if (s.route && s.fetched - s.landed >= FC_ROUTE_FLUSH && !route_flush(&s)) {
			route_leave(&s);
		}
#endif
	}
	req->keep = s.drop_conn ? 0 : keep;
#ifdef FC_SPLICE_ROUTE
	if (s.route && (!route_flush(&s) || s.fetched > s.landed)) {
		/* a fill cut short, or the file refused: the rest from buf */
		route_leave(&s);
	}
#endif
	SG(read_post_bytes) += (int64_t) total;
	if (short_fill) {
		SG(post_read) = 1;
	}
#ifdef FC_SPLICE_ROUTE
	if (s.landed > 0) {
		spool_from_file(route, spool_fd, body, edge, out_start, s.landed, buf);
	}
#endif
	if (total > 0) {
		spool_batch(spool_fd, body, edge + (zend_off_t) s.landed, buf + s.landed, total - s.landed);
	}
	/* php://input's own seek: its position and the spool's as stock's fills leave them. */
	if (php_stream_seek(in, edge + (zend_off_t) total, SEEK_SET) != 0) {
		ROUTE_CLOSE(route);
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream",
			(zend_long) (edge + (zend_off_t) total));
		return FC_FAILED;
	}
	if (job->remaining != SIZE_MAX) {
		job->remaining -= total;
	}
#ifdef FC_SPLICE_ROUTE
	if (!route->on) {
		/* what is left may warn, and a user error handler may end the script */
		route_close(route);
	}
#endif
	return deliver_batch(job, buf, s.landed, total);
}

static fc_status copy_fastcgi_input(fc_job *job)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	fc_fcgi_request *req;
	char *buf = NULL;
	int reason;
	bool reserve_refused = false;
	fc_route route = {-1, -1, -1, -1, 0, false};
#ifdef FC_SPLICE_ROUTE
	bool route_tried = false;
#endif
	fc_status st = FC_DONE;

	if (in->readfilters.head) {
		return fc_fallback(job, FC_REASON_FILTERED);
	}
	if (!fc_request_body_fills_stock(in)) {
		return fc_fallback(job, FC_REASON_FILL_SIZE);
	}
	if (!body || SG(post_read)) {
		return fc_fallback(job, FC_REASON_BEHIND_LIVE_EDGE);
	}
	/* Behind the live edge stock's fills append to the spool from where they
	 * read it: not whole fills of the socket. */
	if (in->position + (in->writepos - in->readpos) != (zend_off_t) SG(read_post_bytes)) {
		return fc_fallback(job, FC_REASON_BEHIND_LIVE_EDGE);
	}
	if (has_body_file()) {
		return fc_fallback(job, FC_REASON_REQUEST_BODY_FILE);
	}
	if (!(req = fc_fastcgi_request(&reason))) {
		return fc_fallback(job, reason);
	}

	while (job->remaining > 0) {
		zend_stat_t sb;
		zend_off_t edge;
		size_t fills;
		int spool_fd;

		if (in->writepos > in->readpos) {
			/* what php://input read ahead goes first, as stock's next read takes it */
			ROUTE_CLOSE(&route);
			st = fc_request_body_drain(job);
			if (st != FC_CONTINUE) {
				break;
			}
			st = FC_DONE;
			continue;
		}
		if (SG(post_read) || SG(request_info).content_length <= SG(read_post_bytes)) {
			/* the end of the body: stock's reads */
			ROUTE_CLOSE(&route);
			st = fc_copy_request_body(job);
			break;
		}
		fills = (size_t) ((SG(request_info).content_length - SG(read_post_bytes)) / FC_FILL);
		if (job->remaining != SIZE_MAX) {
			fills = MIN(fills, job->remaining / FC_FILL);
		}
		fills = MIN(fills, FC_BATCH_FILLS);
		spool_fd = reserve_refused ? -1 : fc_spool_fd(body, &reason);
		edge = in->position;
		if (fills == 0 || spool_fd < 0 || zend_fstat(spool_fd, &sb) != 0 || sb.st_size != edge
				|| edge != (zend_off_t) SG(read_post_bytes)) {
			/* Less than a fill, the spool still in memory (its first 16 KiB), or
			 * a spool that lost a write: this fill as stock reads it. */
			ROUTE_CLOSE(&route);
			st = fc_request_body_fill(job);
			if (st != FC_CONTINUE) {
				break;
			}
			st = FC_DONE;
			continue;
		}
		if (!buf) {
			/* room past the batch for the padding and header read with its last payload */
			buf = emalloc(FC_BATCH_FILLS * FC_FILL + sizeof(((fc_stdin *) NULL)->ahead));
		}
#ifdef FC_SPLICE_ROUTE
		if (!route_tried) {
			route_tried = true;
			route_open(&route, job, spool_fd, &sb, edge);
		}
#endif
		/* A batch spools all its fills before the file gets them: on a nearly full
		 * filesystem that holds both, that would take room stock's writes, a fill
		 * to the spool then to the file, leave to the file. One fill at a time there. */
		if (!route.on && job->out.kind == FC_KIND_FILE && job->out.st.st_dev == sb.st_dev
				&& nearly_full(spool_fd)) {
			fills = 1;
		}
		st = move_batch(job, req, spool_fd, edge, fills, buf, &route);
		if (st == FC_FALLBACK) {
			/* no room reserved: this fill as stock reads it; a filesystem that
			 * cannot reserve at all is not asked again in this copy */
			reserve_refused = job->reason == EOPNOTSUPP || job->reason == ENOSYS;
			ROUTE_CLOSE(&route);
			st = fc_request_body_fill(job);
		}
		if (st != FC_CONTINUE) {
			break;
		}
		st = FC_DONE;
	}
#ifdef FC_SPLICE_ROUTE
	route_close(&route);
#endif
	if (buf) {
		efree(buf);
	}
	return st;
}

const fc_server_path fc_fastcgi_input_path = {
	NULL, copy_fastcgi_input, fastcgi_input_possible, fastcgi_input_unavailable
};

#else

const fc_server_path fc_fastcgi_input_path = {"not built: needs Linux"};

#endif
