/* The discard path: a file copied into an output layer that throws it away (HEAD,
 * a client gone while aborts are ignored). Stock reads it all for nothing; this
 * moves the source's position over the range, so the count, position and
 * end-of-file are stock's without a read (docs/internals.md, "Discard"). */

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
