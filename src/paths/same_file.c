/* A copy whose source and destination are the same file: one stream into itself,
 * two streams on one file, or a php://fd duplicate. The result is that of copying
 * a snapshot of the range taken before the copy began, as memmove() does, which is
 * stock's result wherever stock does not read back its own writes; pread()/pwrite()
 * in blocks ordered so that no block is read after it was overwritten, and only the
 * bytes the file holds when the copy begins (docs/internals.md, "Copies into the
 * same file"). fastcopy_stats() counts it as "buffered". */

#include "src/paths/paths.h"
#include "src/endpoint/endpoint.h"
#include "src/core/stats.h"

#include <errno.h>

bool fc_same_file(const fc_job *job)
{
	const fc_endpoint *in = &job->in, *out = &job->out;

	return in->kind == FC_KIND_FILE && out->kind == FC_KIND_FILE && !out->via_output
		&& in->st.st_dev == out->st.st_dev && in->st.st_ino == out->st.st_ino;
}

#ifndef PHP_WIN32

#include <unistd.h>

/* Whether two descriptors share one open file description, and so one offset (a
 * stream and its php://fd duplicate): moving one moves the other. */
static bool share_offset(int a, int b)
{
	zend_off_t at = zend_lseek(a, 0, SEEK_CUR);
	bool shared;

	if (a == b) {
		return true;
	}
	if (at < 0 || zend_lseek(b, 0, SEEK_CUR) != at || zend_lseek(a, at + 1, SEEK_SET) < 0) {
		return false;
	}
	shared = zend_lseek(b, 0, SEEK_CUR) == at + 1;
	zend_lseek(a, at, SEEK_SET);
	return shared;
}

/* Reads exactly len bytes at off; false on an error or a file cut short under us. */
static bool read_at(int fd, char *buf, size_t len, zend_off_t off)
{
	while (len > 0) {
		ssize_t n = pread(fd, buf, len, off);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return false;
		}
		buf += n;
		len -= (size_t) n;
		off += n;
	}
	return true;
}

static bool write_at(int fd, const char *buf, size_t len, zend_off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			if (n == 0) {
				errno = ENOSPC;
			}
			return false;
		}
		buf += n;
		len -= (size_t) n;
		off += n;
	}
	return true;
}

/* Moves n bytes from `from` to `to` within the file as memmove() would. Copying
 * towards the start goes front to back and towards the end back to front, so every
 * block is read before anything lands on it. *moved: how many bytes, counted from
 * the start of the range, are in place. */
static fc_status move_range(fc_job *job, zend_off_t from, zend_off_t to, size_t n, size_t *moved)
{
	bool backwards = to > from && to < from + (zend_off_t) n;
	size_t block = MIN(fc_block_size(job), n), done = 0;
	char *buf = emalloc(block);
	fc_status st = FC_DONE;

	while (done < n) {
		size_t len = MIN(block, n - done);
		zend_off_t at = backwards ? (zend_off_t) (n - done - len) : (zend_off_t) done;

		if (!read_at(job->in.fd, buf, len, from + at)) {
			/* The file shrank under us: the copy ends there, as a read would. */
			break;
		}
		if (!write_at(job->out.fd, buf, len, to + at)) {
			fc_report_write_error(job, errno);
			st = FC_FAILED;
			break;
		}
		done += len;
	}
	efree(buf);
	/* Back to front, only the whole range is a prefix of it. */
	*moved = backwards && done < n ? 0 : done;
	return st;
}

fc_status fc_copy_same_file(fc_job *job)
{
	php_stream *in = job->in.stream, *out = job->out.stream;
	zend_off_t from = in->position, to = out->position, size;
	zend_stat_t st;
	size_t n, moved = 0;
	fc_status status = FC_DONE;

	if (from < 0 || zend_fstat(job->in.fd, &st) != 0) {
		return fc_fallback(job, errno);
	}
	size = (zend_off_t) st.st_size;
	n = from < size ? MIN(job->remaining, (size_t) (size - from)) : 0;

	fc_stats_call(FASTCOPY_PATH_BUFFERED);
	if (n > 0) {
		if (job->out.append) {
			to = size;
		} else if (in == out || share_offset(job->in.fd, job->out.fd)) {
			to = from + (zend_off_t) n;
		}
		status = move_range(job, from, to, n, &moved);
	}
	fc_job_moved(job, moved);
	fc_stats_bytes(FASTCOPY_PATH_BUFFERED, moved);

	/* Both descriptors where stock leaves them: for one stream or a shared offset,
	 * behind the bytes written. With nothing to copy, where its casts of the
	 * source and then the destination put them: each at its stream's position,
	 * a shared one at the destination's. */
	zend_lseek(job->in.fd, from + (zend_off_t) moved, SEEK_SET);
	zend_lseek(job->out.fd, to + (zend_off_t) moved, SEEK_SET);
	return status;
}

#else

/* Without pread()/pwrite() the read/write path copies, bounded at least to what the
 * file holds when the copy begins, so that it cannot chase its own writes. */
fc_status fc_copy_same_file(fc_job *job)
{
	zend_off_t from = job->in.stream->position;
	zend_stat_t st;

	if (from >= 0 && zend_fstat(job->in.fd, &st) == 0) {
		job->remaining = MIN(job->remaining, (zend_off_t) st.st_size > from ? (size_t) (st.st_size - from) : 0);
	}
	return fc_fallback(job, ENOSYS);
}

#endif
