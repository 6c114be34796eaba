/* The spool path: php://input whose next bytes are already in its spool file
 * (SG(request_info).request_body spilled to upload_tmp_dir), copied from that file
 * by copy_file_range(2), a reflink where extents are shared, or sendfile(2) across
 * filesystems. Only whole fills that stock would serve from the spool are taken,
 * then php://input is moved past them by its own seek, so everything PHP sees ends
 * as stock's reads leave it (docs/internals.md, "The spool path"). */

#include "src/input/input.h"
#include "src/paths/paths.h"

#include "SAPI.h"
#include "php_memory_streams.h"

#include <errno.h>
#ifdef HAVE_SYS_SENDFILE_H
# include <sys/sendfile.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

/* php://input fills its read buffer this many bytes at a time (its chunk size). */
#define FC_INPUT_FILL FC_REQUEST_BODY_FILL

/* The spool's descriptor, or -1 while it is still in memory (or anything else).
 * Asked first without a result, so that a spool in memory is not spilled earlier
 * than stock would; the seek first drops the inner stream's read-ahead, which the
 * cast would otherwise warn about (docs/internals.md, "The spool path"). */
int fc_spool_fd(php_stream *body, int *reason)
{
	php_socket_t fd;

	*reason = FC_REASON_UNVERIFIED;
	if (!php_stream_is(body, PHP_STREAM_IS_TEMP) || body->readfilters.head || body->writefilters.head) {
		return -1;
	}
	php_stream_seek(body, php_stream_tell(body), SEEK_SET);
	if (php_stream_cast(body, PHP_STREAM_AS_FD, NULL, 0) != SUCCESS) {
		*reason = FC_REASON_SPOOL_IN_MEMORY;
		return -1;
	}
	/* Synchronises the spool's inner file (its read buffer dropped, its
	 * descriptor sought to its position): later reads read the file again. */
	if (php_stream_cast(body, PHP_STREAM_AS_FD | PHP_STREAM_CAST_INTERNAL, (void **) &fd, 0) != SUCCESS
			|| fd < 0) {
		return -1;
	}
	return (int) fd;
}

/* php://input is moved to `to`, as stock's reads of whole fills from `grid` (where
 * its fills end: its position plus its read buffer) would leave it: a seek to the
 * start of the fill that holds `to`, then a read through the stream up to `to`
 * (which fills the read buffer from the spool as stock's read would). `to` may lie
 * in the fill before `grid`, whose rest the read buffer held. The bytes read are
 * dropped: they are in the destination already. */
bool fc_request_body_move_to(fc_job *job, zend_off_t grid, zend_off_t to)
{
	php_stream *in = job->in.stream;
	zend_off_t fill = to >= grid ? grid + (to - grid) / FC_INPUT_FILL * FC_INPUT_FILL : grid - FC_INPUT_FILL;
	size_t part = (size_t) (to - fill);
	char buf[FC_INPUT_FILL];

	if (fill < 0 || part > sizeof(buf) || php_stream_seek(in, fill, SEEK_SET) != 0 || in->position != fill) {
		return false;
	}
	return part == 0 || php_stream_read(in, buf, part) == (ssize_t) part;
}

#if defined(HAVE_COPY_FILE_RANGE) && defined(HAVE_SENDFILE)

/* Bytes from the read buffer's start that stock serves from the spool without
 * asking the SAPI: a fill at `at` asks unless SG(post_read) is set or the SAPI has
 * already handed over at + 8 KiB. Whole fills only. */
static size_t spooled_fills(zend_off_t at, zend_off_t spool_size)
{
	zend_off_t end = spool_size;

	if (!SG(post_read) && (zend_off_t) SG(read_post_bytes) < end) {
		end = (zend_off_t) SG(read_post_bytes);
	}
	if (end <= at) {
		return 0;
	}
	return (size_t) ((end - at) / FC_INPUT_FILL) * FC_INPUT_FILL;
}

/* copy_file_range() refuses a spool on another filesystem than the destination
 * (upload_tmp_dir on a tmpfs, the file on a disk: EXDEV from Linux 5.19 on, as
 * before 5.3) and some filesystems: sendfile() to a file still copies in the
 * kernel, with no reflink. */
static bool copy_refused(int err)
{
	return err == EXDEV || err == EINVAL || err == EOPNOTSUPP || err == ENOSYS;
}

fc_status fc_copy_spool(fc_job *job)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	size_t buffered = (size_t) (in->writepos - in->readpos), want, moved = 0;
	zend_stat_t sb;
	zend_off_t start;
	off_t from;
	int fd, reason = 0;
	bool by_sendfile = false;
	fc_status st;

	/* A read filter sees php://input's bytes before the copy does; the stream's
	 * position then counts filtered bytes, not the spool's. */
	if (in->readfilters.head) {
		return fc_fallback(job, FC_REASON_FILTERED);
	}
	if (!body || in->position < 0) {
		return fc_fallback(job, FC_REASON_UNVERIFIED);
	}
	if (!fc_request_body_fills_stock(in)) {
		return fc_fallback(job, FC_REASON_FILL_SIZE);
	}
	if ((fd = fc_spool_fd(body, &reason)) < 0) {
		return fc_fallback(job, reason);
	}
	if (zend_fstat(fd, &sb) != 0) {
		return fc_fallback(job, errno);
	}
	/* Where php://input's next fill reads the spool: past its read buffer. */
	start = in->position + (zend_off_t) buffered;
	want = job->remaining == SIZE_MAX ? SIZE_MAX : job->remaining - MIN(buffered, job->remaining);
	want = MIN(spooled_fills(start, sb.st_size), want);
	want -= want % FC_INPUT_FILL;
	if (want == 0 && !SG(post_read)) {
		/* The next fill asks the SAPI: not this path's. */
		return fc_fallback(job, FC_REASON_NOT_SPOOLED);
	}

	/* php://input's read-ahead first, as stock's next read takes it */
	st = fc_request_body_drain(job);
	if (st != FC_CONTINUE) {
		return st;
	}
	if (in->position != start) {
		/* Its buffer was not what its position said: stock's reads, not ours. */
		return fc_copy_request_body(job);
	}

	from = (off_t) start;
	reason = 0;
	while (moved < want) {
		size_t count = MIN(want - moved, FC_KERNEL_CHUNK);
		ssize_t n = by_sendfile ? sendfile(job->out.fd, fd, &from, count)
			: copy_file_range(fd, &from, job->out.fd, NULL, count, 0);

		if (n > 0) {
			moved += (size_t) n;
			fc_job_gave(job, (size_t) n);
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && !by_sendfile && copy_refused(errno)) {
			by_sendfile = true;
		} else {
			/* EXDEV, EINVAL, ENOSPC...: the read/write path goes on from the
			 * byte after the last one delivered and reports real errors. 0: the
			 * spool shrank, stock's reads will see where it ends. */
			reason = n == 0 ? FC_REASON_ZERO : errno;
			break;
		}
	}
	if (job->remaining != SIZE_MAX) {
		job->remaining -= moved;
	}
	if (!fc_request_body_move_to(job, start, start + (zend_off_t) moved)) {
		/* Cannot happen with a spool that holds what it held a moment ago; the
		 * bytes are in the destination, so the copy cannot go on exactly. */
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream",
			(zend_long) (start + (zend_off_t) moved));
		return FC_FAILED;
	}
	if (reason) {
		return fc_fallback(job, reason);
	}
	if (job->remaining == 0) {
		return FC_DONE;
	}
	if (!SG(post_read)) {
		return fc_fallback(job, FC_REASON_NOT_SPOOLED);
	}
	/* The last partial fill and the end of the body, read as stock reads them. */
	return fc_copy_request_body(job);
}

#else

fc_status fc_copy_spool(fc_job *job)
{
	return fc_fallback(job, ENOSYS);
}

#endif
