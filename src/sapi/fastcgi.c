/* The fastcgi path: under PHP-FPM, a regular file written to the web server as
 * FCGI_STDOUT records of our own, the header from here and the payload spliced
 * from the page cache through a pipe, so no payload byte passes through user
 * memory. Nothing is written before fastcgi_guard.c has proven FPM's request and
 * its connection (docs/internals.md, "PHP-FPM's FastCGI socket"). */

#include "src/sapi/sapi.h"
#include "src/sapi/fastcgi_records.h"
#include "src/endpoint/endpoint.h"
#include "src/core/php_compat.h"

#include "php_main.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

/* Our pipe: a megabyte holds 14 records even when each header takes a page of its
 * own and each payload straddles 17 pages. */
#define FC_PIPE_SIZE (1024 * 1024)

/* Sends all but the last `keep` bytes of our pipe to the socket. The socket is FPM's
 * and blocking; a reader that has gone surfaces as EPIPE or ECONNRESET (SIGPIPE is
 * held off by the engine). */
static bool drain(fc_records *r, size_t keep, bool more)
{
	while (r->in_pipe > keep) {
		ssize_t n = splice(r->pipe_rd, NULL, r->req->fd, NULL, r->in_pipe - keep,
			SPLICE_F_MOVE | (more ? SPLICE_F_MORE : 0));

		if (n > 0) {
			r->in_pipe -= (size_t) n;
		} else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd wait = {r->req->fd, POLLOUT, 0};
			poll(&wait, 1, -1);
		} else if (!(n < 0 && errno == EINTR)) {
			r->socket_err = n < 0 ? errno : EIO;
			return false;
		}
	}
	/* Every payload byte precedes anything kept back (a header at most). */
	fc_records_gave(r, r->payload_in_pipe);
	r->payload_in_pipe = 0;
	if (keep == 0) {
		r->header_pending = false;
	}
	return true;
}

/* Puts bytes of our own (a header, or the rest of a record) into the pipe. */
static bool stage(fc_records *r, const void *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(r->pipe_wr, buf, len);

		if (n > 0) {
			buf = (const char *) buf + n;
			len -= (size_t) n;
			r->in_pipe += (size_t) n;
		} else if (n < 0 && errno == EAGAIN) {
			if (!drain(r, 0, true)) {
				return false;
			}
		} else if (!(n < 0 && errno == EINTR)) {
			r->socket_err = n < 0 ? errno : EIO;
			return false;
		}
	}
	return true;
}

/* The file ended or refused before the open record got any payload: everything
 * before its header goes out, the header comes back, and the stream of records is
 * as if the record had never been begun. A pipe too small to hold a record (a pool
 * over pipe-user-pages-soft gets one of two pages) may have sent the header already:
 * then the record can only be ended with the connection (end_inside_record()). */
static fc_status take_back_header(fc_records *r, int err)
{
	unsigned char header[FC_HEADER_LEN];

	if (!drain(r, FC_HEADER_LEN, false)) {
		return FC_FALLBACK;
	}
	if (r->in_pipe < FC_HEADER_LEN) {
		r->cut_short = err ? err : FC_REASON_FILE_SHRANK;
		return FC_FALLBACK;
	}
	if (read(r->pipe_rd, header, sizeof(header)) != FC_HEADER_LEN) {
		r->socket_err = EIO;
		return FC_FALLBACK;
	}
	r->in_pipe -= FC_HEADER_LEN;
	r->header_pending = false;
	if (err == 0) {
		r->at_end = true;
		return FC_DONE;
	}
	/* The next path reads on from the same offset and reports real errors. */
	return r->job ? fc_fallback(r->job, err) : FC_FALLBACK;
}

/* The open record's payload stopped part-way (the file shrank under us, or the disk
 * failed): read() what the file still has. If it has less than the header promised,
 * the record can only be completed with bytes that are not the file's: what the pipe
 * holds (the file's own) goes out, and the copy ends the connection inside the
 * record (end_inside_record()). */
static fc_status finish_record_by_read(fc_records *r, size_t left)
{
	char buf[8192];

	while (left > 0) {
		ssize_t got = pread(r->fd, buf, MIN(sizeof(buf), left), (off_t) r->offset);

		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got <= 0) {
			r->cut_short = got < 0 ? errno : FC_REASON_FILE_SHRANK;
			if (got < 0 && r->job && !(r->job->in.stream->flags & PHP_STREAM_FLAG_SUPPRESS_ERRORS)) {
				/* as plain_wrapper's read reports it */
				FC_STREAM_NOTICE(r->job->in.stream, ReadFailed, "Read of %zu bytes failed with errno=%d %s",
					r->job->in.stream->chunk_size, r->cut_short, strerror(r->cut_short));
			}
			r->at_end = true;
			return FC_FALLBACK;
		}
		fc_records_took(r, (size_t) got);
		r->payload_in_pipe += (size_t) got;
		if (!stage(r, buf, (size_t) got)) {
			return FC_FALLBACK;
		}
		left -= (size_t) got;
	}
	return FC_CONTINUE;
}

/* One record of len payload bytes from the file's offset into the pipe. */
static fc_status put_record(fc_records *r, size_t len)
{
	unsigned char header[FC_HEADER_LEN];
	size_t left = len;

	fc_record_header(header, r->req->id, len);
	if (!stage(r, header, sizeof(header))) {
		return FC_FALLBACK;
	}
	r->header_pending = true;

	while (left > 0) {
		loff_t at = r->offset;
		ssize_t n = splice(r->fd, &at, r->pipe_wr, NULL, left, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			left -= (size_t) n;
			r->in_pipe += (size_t) n;
			r->payload_in_pipe += (size_t) n;
			r->header_pending = false;
			fc_records_took(r, (size_t) n);
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			/* our pipe is full */
			if (!drain(r, 0, true)) {
				return FC_FALLBACK;
			}
		} else if (r->header_pending) {
			return take_back_header(r, n < 0 ? errno : 0);
		} else {
			return finish_record_by_read(r, left);
		}
	}
	return FC_CONTINUE;
}

/* Records from r->offset until the length or the end of the file, a batch per
 * pipe-full. */
static fc_status send_records(fc_records *r)
{
	bool first = true;
	fc_status st = FC_DONE;

	while (r->remaining > 0) {
		zend_stat_t sb;
		size_t avail;

		/* The size, once per batch: a record never promises more than the file has. */
		if (zend_fstat(r->fd, &sb) != 0 || sb.st_size <= r->offset) {
			if (first) {
				/* procfs and friends report no size: read() will tell */
				return r->job ? fc_fallback(r->job, FC_REASON_ZERO) : FC_FALLBACK;
			}
			r->at_end = true;
			return FC_DONE;
		}
		avail = (size_t) (sb.st_size - r->offset);

		for (int i = 0; i < FC_BATCH_RECORDS && r->remaining > 0 && avail > 0; i++) {
			size_t len = MIN(MIN(r->remaining, avail), FC_RECORD_MAX);

			st = put_record(r, len);
			if (st != FC_CONTINUE) {
				/* what is in the pipe is whole records: deliver it, then stop */
				if (!r->socket_err) {
					drain(r, 0, false);
				}
				return st;
			}
			first = false;
			avail -= len;
		}
		if (!drain(r, 0, r->remaining > 0)) {
			return FC_FALLBACK;
		}
	}
	return FC_DONE;
}

/* The web server has gone: what FPM's own writer does then. The connection is not
 * kept for another request (a record may be cut short), and the script learns of
 * the abort and ends unless it ignores aborts. If it does, the rest of the copy goes
 * into the disabled output layer and is counted as stock counts it. */
/* The copy's descriptor where its stream's position says, for whatever reads it
 * next: the next path, or the script (a shutdown function, after an abort). */
static void leave_offset(const fc_records *r)
{
	if (r->job) {
		zend_lseek(r->fd, (zend_off_t) r->offset, SEEK_SET);
	}
}

static fc_status connection_lost(fc_records *r)
{
	leave_offset(r);
	fc_records_gave(r, r->payload_in_pipe);
	r->payload_in_pipe = 0;
	r->req->keep = 0;
	php_handle_aborted_connection();
	return r->job ? fc_fallback(r->job, r->socket_err) : FC_FALLBACK;
}

/* The file ended inside a record whose header promised more. The web server must
 * never take other bytes for the file's, so the connection ends inside the record:
 * the web server breaks the response off (nginx logs "upstream prematurely closed
 * FastCGI stdout"), FPM does not keep the connection, and the script learns of it
 * as of a client gone. */
static fc_status end_inside_record(fc_records *r)
{
	leave_offset(r);
	if (r->job) {
		r->job->ended_by = r->cut_short;
	}
	fc_fastcgi_end_connection(r->req);
	return r->job ? fc_fallback(r->job, r->cut_short) : FC_FALLBACK;
}

/* Whether the web server reads this connection from this host over TCP, and
 * fastcopy.same_host=copy has such a peer sent copies. */
static bool fc_fastcgi_copies(const fc_fcgi_request *req)
{
	zend_stat_t st;

	return FASTCOPY_G(same_host_copies) && zend_fstat(req->fd, &st) == 0
		&& fc_socket_peer(req->fd, &st) == FC_PEER_SAME_HOST_TCP;
}

/* The records of r's range, through a pipe of our own or by copies; how the connection fared
 * decides what the script sees, as FPM's own writer would have. FPM's buffer must be
 * empty, or the records would overtake it. */
static fc_status send_range(fc_records *r)
{
	int p[2];
	fc_status st;

	if (r->req->out_pos != r->req->out_buf || r->req->out_hdr) {
		return r->job ? fc_fallback(r->job, FC_REASON_UNVERIFIED) : FC_FALLBACK;
	}
	if (fc_fastcgi_copies(r->req)) {
		/* the web server reads the socket from this host: copies cost it less */
		st = fc_records_by_copy(r);
	} else {
		if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
			return r->job ? fc_fallback(r->job, errno) : FC_FALLBACK;
		}
		r->pipe_rd = p[0];
		r->pipe_wr = p[1];
		/* A smaller pipe (pipe-max-size) works too, with more calls. */
		fcntl(r->pipe_wr, F_SETPIPE_SZ, FC_PIPE_SIZE);

		st = send_records(r);

		close(r->pipe_rd);
		close(r->pipe_wr);
	}
	if (r->socket_err) {
		return connection_lost(r);
	}
	return r->cut_short ? end_inside_record(r) : st;
}

void fc_fastcgi_end_connection(fc_fcgi_request *req)
{
	shutdown(req->fd, SHUT_RDWR);
	req->keep = 0;
	php_handle_aborted_connection();
}

fc_status fc_fastcgi_send_range(fc_fcgi_request *req, int fd, zend_off_t offset, size_t len, size_t *sent)
{
	fc_records r;
	fc_status st;

	memset(&r, 0, sizeof(r));
	r.req = req;
	r.fd = fd;
	r.offset = (loff_t) offset;
	r.remaining = len;
	st = send_range(&r);
	*sent = len - r.remaining;
	return st;
}

static fc_status copy_fastcgi(fc_job *job)
{
	fc_records r;
	int reason;
	fc_status st;

	/* Everything PHP holds for the client goes first, in order. */
	if ((reason = fc_output_pass_through()) != 0) {
		return fc_fallback(job, reason);
	}
	memset(&r, 0, sizeof(r));
	r.job = job;
	r.fd = job->in.fd;
	r.remaining = job->remaining;
	r.req = fc_fastcgi_request(&reason);
	if (!r.req) {
		return fc_fallback(job, reason);
	}
	if ((r.offset = (loff_t) zend_lseek(r.fd, 0, SEEK_CUR)) < 0) {
		return fc_fallback(job, errno);
	}

	st = send_range(&r);

	leave_offset(&r);
	if (r.at_end) {
		job->in.stream->eof = 1;
	}
	return st;
}

const fc_server_path fc_fastcgi_path = {NULL, copy_fastcgi, fc_fastcgi_possible, fc_fastcgi_unavailable};

#else

const fc_server_path fc_fastcgi_path = {"not built: needs Linux splice()"};

#endif
