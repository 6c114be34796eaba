/* The job's bookkeeping: what the kernel moved is accounted on both streams as
 * PHP's own read and write calls would have (position, notifications), so that PHP's
 * view of them is what stock PHP would have left. */

#include "src/core/job.h"

/* The kernel took n bytes from the source: account for them as php_stream_read()
 * would have (position, and progress for a socket's notifier). */
void fc_job_took(fc_job *job, size_t n)
{
	php_stream *in = job->in.stream;

	if (job->remaining != SIZE_MAX) {
		job->remaining -= n;
	}
	in->position += n;
	if (job->in.sock) {
		php_stream_notify_progress_increment(PHP_STREAM_CONTEXT(in), n, 0);
	}
}

/* The kernel delivered n bytes to the destination: as php_stream_write() would. */
void fc_job_gave(fc_job *job, size_t n)
{
	php_stream *out = job->out.stream;

	job->done += n;
	out->position += n;
	out->flags |= PHP_STREAM_FLAG_WAS_WRITTEN;
	if (job->out.sock) {
		php_stream_notify_progress_increment(PHP_STREAM_CONTEXT(out), n, 0);
	}
}

void fc_job_moved(fc_job *job, size_t n)
{
	fc_job_took(job, n);
	fc_job_gave(job, n);
}

fc_status fc_fallback(fc_job *job, int reason)
{
	job->reason = reason;
	return FC_FALLBACK;
}
