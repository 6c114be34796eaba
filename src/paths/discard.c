/* A regular file copied into an output layer that throws everything away: a HEAD
 * request (the SAPI sends headers only), or a client that hung up while the script
 * ignores aborts. Stock PHP still reads the whole range and writes it into the
 * disabled layer, and returns its length; nothing of it reaches anyone. This path
 * moves the source's position over the range instead, so the copy returns the same
 * count, leaves the same position and end-of-file, and costs no read at all.
 *
 * Only the bytes the file holds now are skipped; the engine does not choose this
 * path where an output handler or a buffer the script may read back would see the
 * bytes (fc_output_discards()). */

#include "src/paths/paths.h"

#include <errno.h>

fc_status fc_copy_discard(fc_job *job)
{
	zend_off_t offset = zend_lseek(job->in.fd, 0, SEEK_CUR);
	zend_stat_t sb;
	size_t avail, n;
	bool to_end;

	if (offset < 0 || zend_fstat(job->in.fd, &sb) != 0) {
		return fc_fallback(job, errno);
	}
	if (sb.st_size <= offset) {
		/* procfs and friends report no size: read() will tell */
		return fc_fallback(job, FC_REASON_ZERO);
	}
	avail = (size_t) (sb.st_size - offset);
	n = MIN(job->remaining, avail);
	to_end = job->remaining > avail;

	if (zend_lseek(job->in.fd, offset + (zend_off_t) n, SEEK_SET) < 0) {
		return fc_fallback(job, errno);
	}
	/* as if read and written: both positions move, the count is returned */
	fc_job_moved(job, n);
	if (to_end) {
		job->in.stream->eof = 1;
	}
	return FC_DONE;
}
