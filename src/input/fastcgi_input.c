/* The fastcgi_input path: php://input under PHP-FPM at the live edge, the body still
 * in the FastCGI socket. Whole fills, a batch at a time, are read by the mirror of
 * FPM's reads (fpm_stdin.c), written once to the spool and once to the destination
 * file, or routed into the file by splice (splice_route.c). Everything not proven
 * whole, stock's reads take (request_body.c). */

#include "src/input/fpm_stdin.h"
#include "src/paths/paths.h"
#include "src/core/sapi_name.h"

#include "SAPI.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* 128 fills, 1 MiB: 32 of nginx's 32 KiB records; the work done once per batch
 * (the spool's descriptor and size, seeks, a reservation or a clone) is then a
 * small part of it. */
#define FC_BATCH_FILLS   128
/* Free space under which a filesystem counts as nearly full: the route reserves the
 * spool's batch first, and a batch that shares it with the file is one fill. */
#define FC_ROOM_NEARLY_FULL ((uint64_t) 64 * 1024 * 1024)

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
	/* Only the route writes the file while it is open (stock's reads close it first),
	 * so its offset is the one fc_route_open() read, moved on by each flush. */
	if (route->on) {
		out_start = route->out_at;
		s.route = route;
	}
	/* Until in_len and in_pad say where the socket stands again, FPM must not
	 * reuse the connection: a worker that dies in a read closes it. */
	req->keep = 0;
	for (size_t f = 0; f < fills; f++) {
		size_t got = fc_stdin_read_fill(&s);

		total += got;
		if (got < FC_FILL) {
			short_fill = true;
			break;
		}
		/* a whole fill is stock's to deliver whatever comes next */
		s.committed = total;
		fc_route_flush_some(&s);
	}
	req->keep = s.drop_conn ? 0 : keep;
	fc_route_finish(&s);
	SG(read_post_bytes) += (int64_t) total;
	if (short_fill) {
		SG(post_read) = 1;
	}
	if (s.landed > 0) {
		size_t read_back, spooled = fc_route_spool(route, spool_fd, edge, out_start, s.landed, buf, &read_back);

		if (spooled < s.landed) {
			spool_batch(spool_fd, body, edge + (zend_off_t) spooled, buf + spooled, read_back);
		}
	}
	if (total > 0) {
		spool_batch(spool_fd, body, edge + (zend_off_t) s.landed, buf + s.landed, total - s.landed);
	}
	/* php://input's own seek: its position and the spool's as stock's fills leave them. */
	if (php_stream_seek(in, edge + (zend_off_t) total, SEEK_SET) != 0) {
		fc_route_close(route);
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream",
			(zend_long) (edge + (zend_off_t) total));
		return FC_FAILED;
	}
	if (job->remaining != SIZE_MAX) {
		job->remaining -= total;
	}
	if (!route->on) {
		/* what is left may warn, and a user error handler may end the script */
		fc_route_close(route);
	}
	return deliver_batch(job, buf, s.landed, total);
}

/* One copy's state from one step to the next. */
typedef struct {
	fc_fcgi_request *req;
	fc_route route;
	bool route_tried;
	bool reserve_refused;
	char *buf;
} fc_input_copy;

/* Stock's own read for this step: the route's descriptors are closed first, since
 * stock's reads may warn and a user error handler may end the script there. */
static fc_status as_stock(fc_job *job, fc_input_copy *c, fc_status (*stock_read)(fc_job *job))
{
	fc_route_close(&c->route);
	return stock_read(job);
}

/* One step at the live edge: what php://input read ahead, the end of the body, a
 * fill as stock reads it, or a batch. FC_CONTINUE: go on. */
static fc_status next_step(fc_job *job, fc_input_copy *c)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	zend_stat_t sb;
	zend_off_t edge;
	size_t fills;
	int spool_fd, reason;
	fc_status st;

	if (in->writepos > in->readpos) {
		/* what php://input read ahead goes first, as stock's next read takes it */
		return as_stock(job, c, fc_request_body_drain);
	}
	if (SG(post_read) || SG(request_info).content_length <= SG(read_post_bytes)) {
		/* the end of the body: stock's reads */
		return as_stock(job, c, fc_copy_request_body);
	}
	fills = (size_t) ((SG(request_info).content_length - SG(read_post_bytes)) / FC_FILL);
	if (job->remaining != SIZE_MAX) {
		fills = MIN(fills, job->remaining / FC_FILL);
	}
	fills = MIN(fills, FC_BATCH_FILLS);
	spool_fd = c->reserve_refused ? -1 : fc_spool_fd(body, &reason);
	edge = in->position;
	if (fills == 0 || spool_fd < 0 || zend_fstat(spool_fd, &sb) != 0 || sb.st_size != edge
			|| edge != (zend_off_t) SG(read_post_bytes)) {
		/* Less than a fill, the spool still in memory (its first 16 KiB), or
		 * a spool that lost a write: this fill as stock reads it. */
		return as_stock(job, c, fc_request_body_fill);
	}
	if (!c->buf) {
		/* room past the batch for the padding and header read with its last payload */
		c->buf = emalloc(FC_BATCH_FILLS * FC_FILL + sizeof(((fc_stdin *) NULL)->ahead));
	}
	if (!c->route_tried) {
		c->route_tried = true;
		fc_route_open(&c->route, job, spool_fd, &sb, edge);
	}
	/* A batch spools all its fills before the file gets them: on a nearly full
	 * filesystem that holds both, that would take room stock's writes, a fill
	 * to the spool then to the file, leave to the file. One fill at a time there. */
	if (!c->route.on && job->out.kind == FC_KIND_FILE && job->out.st.st_dev == sb.st_dev
			&& nearly_full(spool_fd)) {
		fills = 1;
	}
	st = move_batch(job, c->req, spool_fd, edge, fills, c->buf, &c->route);
	if (st == FC_FALLBACK) {
		/* no room reserved: this fill as stock reads it; a filesystem that
		 * cannot reserve at all is not asked again in this copy */
		c->reserve_refused = job->reason == EOPNOTSUPP || job->reason == ENOSYS;
		st = as_stock(job, c, fc_request_body_fill);
	}
	return st;
}

static fc_status copy_fastcgi_input(fc_job *job)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	fc_input_copy c = {NULL, {-1, -1, -1, -1, 0, false}, false, false, NULL};
	int reason;
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
	if (fc_request_has_body_file()) {
		return fc_fallback(job, FC_REASON_REQUEST_BODY_FILE);
	}
	if (!(c.req = fc_fastcgi_request(&reason))) {
		return fc_fallback(job, reason);
	}

	while (job->remaining > 0) {
		st = next_step(job, &c);
		if (st != FC_CONTINUE) {
			break;
		}
		st = FC_DONE;
	}
	fc_route_close(&c.route);
	if (c.buf) {
		efree(c.buf);
	}
	return st;
}

const fc_server_path fc_fastcgi_input_path = {
	NULL, copy_fastcgi_input, fastcgi_input_possible, fastcgi_input_unavailable
};

#else

const fc_server_path fc_fastcgi_input_path = {"not built: needs Linux"};

#endif
