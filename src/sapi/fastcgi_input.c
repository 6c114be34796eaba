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
 * read as stock reads it, so a full upload_tmp_dir behaves exactly as stock. */

#include "src/engine.h"
#include "src/sapi/fastcgi_request.h"

#include "SAPI.h"
#include "php_memory_streams.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define FCGI_STDIN       5
#define FC_HEADER_BYTES  8
#define FC_FILL          FC_REQUEST_BODY_FILL
/* 32 fills: a record and a half of nginx's, few syscalls, one Zend chunk. */
#define FC_BATCH_FILLS   32

typedef struct {
	fc_fcgi_request *req;
	char *buf;
	size_t cap;       /* the batch: whole fills */
	size_t fetched;   /* payload bytes read from the socket into buf */
	size_t consumed;  /* of which the mirrored fcgi_read() has taken */
	int ended;        /* the socket said end of file (1) or failed (-1) */
	bool drop_conn;   /* fcgi_read() would have cleared keep */
} fc_stdin;

static bool is_fpm(void)
{
	return strcmp(sapi_module.name, "fpm-fcgi") == 0;
}

bool fc_fastcgi_input_possible(void)
{
	return is_fpm();
}

const char *fc_fastcgi_input_unavailable(void)
{
	if (!is_fpm()) {
		return "the SAPI is not PHP-FPM";
	}
	return fc_fastcgi_unavailable();
}

/* FPM's safe_read() of count bytes of our own (a header, padding): count, fewer
 * at end of file, -1 on an error. */
static ssize_t read_exact(fc_stdin *s, unsigned char *to, size_t count)
{
	size_t n = 0;

	while (n < count) {
		ssize_t r;

		errno = 0;
		r = read(s->req->fd, to + n, count - n);
		if (r > 0) {
			n += (size_t) r;
		} else if (r == 0) {
			s->ended = 1;
			return (ssize_t) n;
		} else if (errno != EINTR) {
			s->ended = -1;
			return -1;
		}
	}
	return (ssize_t) n;
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
		r = read(s->req->fd, s->buf + s->fetched, room);
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
	unsigned char hdr[FC_HEADER_BYTES], pad[255];
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
		if (req->in_pad && read_exact(s, pad, (size_t) req->in_pad) != req->in_pad) {
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

/* The batch to the destination file: one write, and where that stops short, the
 * stream layer's write of the rest of that fill reports the error as stock's
 * write of the fill would. What did not reach the file goes back in front of
 * php://input's read buffer, as the read/write path gives it back. */
static fc_status deliver_batch(fc_job *job, const char *buf, size_t len)
{
	size_t done = 0, written;
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

/* One batch of whole fills at the live edge. FC_CONTINUE: all of it delivered,
 * go on; FC_FALLBACK with job->reason fallocate()'s errno: no room reserved, read
 * this fill as stock. */
static fc_status move_batch(fc_job *job, fc_fcgi_request *req, int spool_fd, zend_off_t edge, size_t fills,
	char *buf)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	fc_stdin s = {req, buf, fills * FC_FILL, 0, 0, 0, false};
	size_t total = 0;
	int keep = req->keep;
	bool short_fill = false;

	/* The spool must take the batch whole, as stock's writes of each fill would. */
	if (fallocate(spool_fd, FALLOC_FL_KEEP_SIZE, (off_t) edge, (off_t) s.cap) != 0) {
		job->reason = errno;
		/* what a failed reservation kept would take room stock's writes have */
		fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) edge, (off_t) s.cap);
		return FC_FALLBACK;
	}
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
	}
	req->keep = s.drop_conn ? 0 : keep;
	SG(read_post_bytes) += (int64_t) total;
	if (short_fill) {
		SG(post_read) = 1;
	}
	if (total > 0) {
		spool_batch(spool_fd, body, edge, buf, total);
	}
	/* php://input's own seek: its position and the spool's as stock's fills leave them. */
	if (php_stream_seek(in, edge + (zend_off_t) total, SEEK_SET) != 0) {
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream",
			(zend_long) (edge + (zend_off_t) total));
		return FC_FAILED;
	}
	if (job->remaining != SIZE_MAX) {
		job->remaining -= total;
	}
	return deliver_batch(job, buf, total);
}

fc_status fc_copy_fastcgi_input(fc_job *job)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	fc_fcgi_request *req;
	char *buf = NULL;
	int reason;
	bool reserve_refused = false;
	fc_status st = FC_DONE;

	if (in->readfilters.head) {
		return fc_fallback(job, FASTCOPY_REASON_FILTERED);
	}
	if (!fc_request_body_fills_stock(in)) {
		return fc_fallback(job, FASTCOPY_REASON_FILL_SIZE);
	}
	if (!body || SG(post_read)) {
		return fc_fallback(job, FASTCOPY_REASON_BEHIND);
	}
	/* Behind the live edge stock's fills append to the spool from where they
	 * read it: not whole fills of the socket. */
	if (in->position + (in->writepos - in->readpos) != (zend_off_t) SG(read_post_bytes)) {
		return fc_fallback(job, FASTCOPY_REASON_BEHIND);
	}
	if (has_body_file()) {
		return fc_fallback(job, FASTCOPY_REASON_BODY_FILE);
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
			st = fc_request_body_drain(job);
			if (st != FC_CONTINUE) {
				break;
			}
			st = FC_DONE;
			continue;
		}
		if (SG(post_read) || SG(request_info).content_length <= SG(read_post_bytes)) {
			/* the end of the body: stock's reads */
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
			st = fc_request_body_fill(job);
			if (st != FC_CONTINUE) {
				break;
			}
			st = FC_DONE;
			continue;
		}
		if (!buf) {
			buf = emalloc(FC_BATCH_FILLS * FC_FILL);
		}
		st = move_batch(job, req, spool_fd, edge, fills, buf);
		if (st == FC_FALLBACK) {
			/* no room reserved: this fill as stock reads it; a filesystem that
			 * cannot reserve at all is not asked again in this copy */
			reserve_refused = job->reason == EOPNOTSUPP || job->reason == ENOSYS;
			st = fc_request_body_fill(job);
		}
		if (st != FC_CONTINUE) {
			break;
		}
		st = FC_DONE;
	}
	if (buf) {
		efree(buf);
	}
	return st;
}

#else

bool fc_fastcgi_input_possible(void)
{
	return false;
}

const char *fc_fastcgi_input_unavailable(void)
{
	return "not built: needs Linux";
}

fc_status fc_copy_fastcgi_input(fc_job *job)
{
	return fc_fallback(job, ENOSYS);
}

#endif
