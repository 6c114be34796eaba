/* The kernel paths: copy_file_range(2), sendfile(2) and splice(2), each looped until
 * the length is reached or the source ends. A path that the kernel refuses hands the
 * job back untouched past the last byte it moved, so the next path resumes exactly
 * there: descriptors are used at their own offsets, which advance only by what was
 * actually transferred. */

#include "src/paths/paths.h"
#include "src/endpoint/endpoint.h"

#include <errno.h>
#include <unistd.h>
#ifndef PHP_WIN32
# include <fcntl.h>
#endif
#ifdef HAVE_SYS_SENDFILE_H
# include <sys/sendfile.h>
#endif

static size_t next_count(const fc_job *job)
{
	return MIN(job->remaining, FC_KERNEL_CHUNK);
}

/* End of the source. A first call that moves nothing is not trusted as EOF:
 * procfs, sysfs and some network filesystems answer 0 where read() has data
 * (php-src GH-12899), so the next path finds out for sure. */
static fc_status at_source_end(fc_job *job, bool first)
{
	if (first) {
		return fc_fallback(job, FC_REASON_ZERO);
	}
	job->in.stream->eof = 1;
	return FC_DONE;
}

/* Waits on one end as that stream's own read or write would: FC_CONTINUE once it
 * is ready, FC_DONE where a non-blocking stream stops. A socket whose timeout
 * elapses fails a write as php_sockop_write() does, naming EAGAIN, and ends a read
 * the way this PHP's read reports a timeout (see fc_timed_out_read_fails()),
 * without a notice. */
static fc_status wait_for(fc_job *job, bool output)
{
	switch (fc_endpoint_wait(output ? &job->out : &job->in, output ? POLLOUT : POLLIN)) {
		case FC_WAIT_READY:
			return FC_CONTINUE;
		case FC_WAIT_TIMED_OUT:
			if (output) {
				fc_report_write_error(job, EAGAIN);
				return FC_FAILED;
			}
			return fc_timed_out_read_fails() ? FC_FAILED : FC_DONE;
		case FC_WAIT_WOULD_BLOCK:
		default:
			return FC_DONE;
	}
}

/* The destination is full. */
static fc_status wait_for_output(fc_job *job)
{
	return wait_for(job, true);
}

/* The source has nothing yet. */
static fc_status wait_for_input(fc_job *job)
{
	return wait_for(job, false);
}

/* The reader is gone: trying again by another path would only raise SIGPIPE (and
 * a script's SIGPIPE handler) a second time. */
static fc_status peer_gone(fc_job *job, int err)
{
	fc_report_write_error(job, err);
	return FC_FAILED;
}

/* The loop every direct kernel path shares: move, account, and sort errno into
 * "wait and retry", "the reader is gone" and "not this way". `move` makes one
 * syscall; `again` decides what EAGAIN means for it; ECONNRESET is the
 * destination's only where the source cannot raise it. */
typedef ssize_t (*fc_move_fn)(fc_job *job, size_t count);

static fc_status kernel_loop(fc_job *job, fc_move_fn move, fc_status (*again)(fc_job *job), bool reset_is_output)
{
	bool first = true;

	if (!move) {
		return fc_fallback(job, ENOSYS);
	}
	while (job->remaining > 0) {
		ssize_t n = move(job, next_count(job));
		fc_status st;

		if (n > 0) {
			fc_job_moved(job, (size_t) n);
			first = false;
		} else if (n == 0) {
			return at_source_end(job, first);
		} else if (errno == EINTR) {
			continue;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if ((st = again(job)) != FC_CONTINUE) {
				return st;
			}
		} else if (errno == EPIPE || (errno == ECONNRESET && reset_is_output)) {
			return peer_gone(job, errno);
		} else {
			/* EXDEV (other filesystem), EINVAL, EOPNOTSUPP, ENOSYS, EIO (CIFS,
			 * php-src GH-10548), EBADF...: all mean "not this way"; the next path
			 * repeats the operation through ordinary I/O and reports real errors. */
			return fc_fallback(job, errno);
		}
	}
	return FC_DONE;
}

/* Where the C library lacks a syscall there is no move, and its path hands over at
 * once, as the kernel's ENOSYS would make it. */
#ifdef HAVE_COPY_FILE_RANGE
static ssize_t move_by_copy_file_range(fc_job *job, size_t count)
{
	return copy_file_range(job->in.fd, NULL, job->out.fd, NULL, count, 0);
}
#else
# define move_by_copy_file_range NULL
#endif

#ifdef HAVE_SENDFILE
static ssize_t move_by_sendfile(fc_job *job, size_t count)
{
	return sendfile(job->out.fd, job->in.fd, NULL, count);
}
#else
# define move_by_sendfile NULL
#endif

fc_status fc_copy_file_range(fc_job *job)
{
	return kernel_loop(job, move_by_copy_file_range, wait_for_output, true);
}

/* The source is a file, so a reset can only be the destination's. */
fc_status fc_copy_sendfile(fc_job *job)
{
	return kernel_loop(job, move_by_sendfile, wait_for_output, true);
}

#ifdef HAVE_SPLICE
/* After EAGAIN from a splice between in and out: find which side is not ready and
 * wait for it as that stream would. */
static fc_status wait_for_either(fc_job *job)
{
	if (!fc_endpoint_ready_now(&job->out, POLLOUT)) {
		return wait_for_output(job);
	}
	return wait_for_input(job);
}

static ssize_t move_by_splice(fc_job *job, size_t count)
{
	return splice(job->in.fd, NULL, job->out.fd, NULL, count, SPLICE_F_MOVE);
}

/* Bytes taken from the source into our pipe that will not reach the destination
 * this time go back to the source (fc_give_back), so nothing is lost. */
static void unstage(fc_job *job, int pipe_rd, size_t staged)
{
	char buf[65536];

	job->given_back = 0;
	while (staged > 0) {
		ssize_t got = read(pipe_rd, buf, MIN(sizeof(buf), staged));

		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got <= 0) {
			return;
		}
		/* in order: each piece goes behind the ones given back before it */
		fc_give_back_after(job, buf, (size_t) got);
		staged -= (size_t) got;
	}
}

/* Empties our pipe into the destination. FC_CONTINUE once it is empty; otherwise
 * what is left goes back to the source and the copy stops (non-blocking destination
 * full, timeout, hang-up) or moves to the next path (the destination refuses
 * splice). */
static fc_status flush_staging(fc_job *job, int pipe_rd, size_t staged)
{
	fc_status st;

	while (staged > 0) {
		ssize_t n = splice(pipe_rd, NULL, job->out.fd, NULL, staged, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			staged -= (size_t) n;
			fc_job_gave(job, (size_t) n);
			continue;
		}
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			st = wait_for_output(job);
			if (st == FC_CONTINUE) {
				continue;
			}
		} else if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
			st = peer_gone(job, errno);
		} else {
			st = fc_fallback(job, n < 0 ? errno : EIO);
		}
		unstage(job, pipe_rd, staged);
		return st;
	}
	return FC_CONTINUE;
}

/* Socket to anything but a pipe: splice through a pipe of our own. */
static fc_status splice_staged(fc_job *job)
{
	int p[2];
	bool first = true;
	fc_status st = FC_DONE;

	if (pipe(p) != 0) {
		return fc_fallback(job, errno);
	}
#ifdef F_SETPIPE_SZ
	/* A larger pipe means fewer round trips; the default 64 KiB works too. */
	fcntl(p[1], F_SETPIPE_SZ, 1024 * 1024);
#endif

	while (job->remaining > 0) {
		ssize_t n = splice(job->in.fd, NULL, p[1], NULL, next_count(job), SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n > 0) {
			fc_job_took(job, (size_t) n);
			first = false;
			st = flush_staging(job, p[0], (size_t) n);
			if (st != FC_CONTINUE) {
				break;
			}
			st = FC_DONE;
		} else if (n == 0) {
			st = at_source_end(job, first);
			break;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			/* Our pipe is empty at this point: it is the source that has nothing. */
			st = wait_for_input(job);
			if (st != FC_CONTINUE) {
				break;
			}
			st = FC_DONE;
		} else if (errno != EINTR) {
			st = fc_fallback(job, errno);
			break;
		}
	}

	close(p[0]);
	close(p[1]);
	return st;
}

/* One end a pipe: a single splice moves the bytes (a socket source may be the one
 * reset). Otherwise through a pipe of our own. */
fc_status fc_copy_splice(fc_job *job)
{
	if (job->in.kind == FC_KIND_PIPE || job->out.kind == FC_KIND_PIPE) {
		return kernel_loop(job, move_by_splice, wait_for_either, false);
	}
	return splice_staged(job);
}
#else
fc_status fc_copy_splice(fc_job *job)
{
	return fc_fallback(job, ENOSYS);
}
#endif

/* Whether this build and this kernel have the syscall: a call with invalid
 * descriptors fails with EBADF where it exists and ENOSYS where it does not. */
/* NULL when the kernel path can run here, or why it cannot: not compiled in (the
 * C library lacks the call), or the running kernel answers ENOSYS. */
const char *fc_kernel_unavailable(php_fastcopy_path path)
{
	switch (path) {
		case FASTCOPY_PATH_COPY_FILE_RANGE:
#ifdef HAVE_COPY_FILE_RANGE
			return copy_file_range(-1, NULL, -1, NULL, 1, 0) == -1 && errno == ENOSYS
				? "the kernel has no copy_file_range()" : NULL;
#else
			return "not built: no copy_file_range() in this C library";
#endif
		case FASTCOPY_PATH_SENDFILE:
#ifdef HAVE_SENDFILE
			return sendfile(-1, -1, NULL, 1) == -1 && errno == ENOSYS ? "the kernel has no sendfile()" : NULL;
#else
			return "not built: no sendfile() in this C library";
#endif
		case FASTCOPY_PATH_SPLICE:
#ifdef HAVE_SPLICE
			return splice(-1, NULL, -1, NULL, 1, 0) == -1 && errno == ENOSYS ? "the kernel has no splice()" : NULL;
#else
			return "not built: no splice() in this C library";
#endif
		default:
			return "not a kernel path";
	}
}
