/* The apache path: under mod_php, a regular file handed to the request's output
 * filters as Apache's own handler hands a static file, a FILE bucket on a
 * descriptor of ours and a FLUSH, so that Apache's core sends it with sendfile(2)
 * instead of copying every byte through ap_rwrite(). Where a filter reads what it
 * is given (mod_ssl, mod_deflate), blocks of the bytes read instead. Nothing is
 * handed over before apache_guard.c has proven the request; why each bucket
 * setting is what it is: docs/internals.md, "Apache's filters". */

#include "src/sapi/sapi.h"
#include "src/sapi/apache_guard.h"
#include "src/sapi/guarded_read.h"
#include "src/endpoint/endpoint.h"

#include "php_main.h"
#include "php_output.h"

#ifdef FASTCOPY_HAVE_APACHE

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

/* Below these sizes (plus what PHP's buffers hold) stock lets Apache see the whole
 * response, which then sets Content-Length and answers Range itself; a FLUSH from
 * here would end that (measured: docs/internals.md, "Apache's filters"). */
#define FC_APACHE_MIN_PLAIN   (64 * 1024)
#define FC_APACHE_MIN_DEFLATE (16 * 1024 * 1024)
/* The request's duplicate of the last source, reused by the next copy from the same
 * file in the same request: sabre/http sends a download in 4 MiB pieces, and a
 * descriptor per piece, each open until the request ends, would run a large
 * download into the process's descriptor limit. */
ZEND_TLS struct {
	void *pool;
	dev_t dev;
	ino_t ino;
	int fd;
	void *file;
} reuse = {NULL, 0, 0, -1, NULL};

static int close_descriptor(void *data)
{
	int fd = (int) (intptr_t) data;

	if (reuse.fd == fd) {
		reuse.pool = reuse.file = NULL;
		reuse.fd = -1;
	}
	close(fd);
	return FC_APR_SUCCESS;
}

/* An APR file on a duplicate of the source's descriptor, owned by the request: Apache
 * may read it until the request's pool is destroyed, whatever the script does with
 * its stream meanwhile. NULL with errno set when there is none. */
static void *request_file(fc_job *job, fc_apache_request *req)
{
	void *file = NULL;
	int fd;

	if (reuse.file && reuse.pool == req->r.pool && reuse.dev == job->in.st.st_dev && reuse.ino == job->in.st.st_ino) {
		return reuse.file;
	}
	fd = fcntl(job->in.fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		return NULL;
	}
	if (fc_apr.os_file_put(&file, &fd, FC_APR_FOPEN_READ | (req->sendfile ? FC_APR_FOPEN_SENDFILE_ENABLED : 0),
			req->r.pool) != FC_APR_SUCCESS) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	fc_apr.pool_cleanup_register(req->r.pool, (void *) (intptr_t) fd, close_descriptor, fc_apr.pool_cleanup_null);
	reuse.pool = req->r.pool;
	reuse.dev = job->in.st.st_dev;
	reuse.ino = job->in.st.st_ino;
	reuse.fd = fd;
	reuse.file = file;
	return file;
}

/* A FILE bucket for [start, start + len) of our descriptor: never mapped, read in
 * blocks of fastcopy.buffer_size where it is read at all. */
static void insert_file(void *bb, void *file, int64_t start, int64_t len, void *pool)
{
	void *bucket = fc_apr.brigade_insert_file(bb, file, start, len, pool);

	fc_apr.bucket_file_enable_mmap(bucket, 0);
	if (fc_apr.bucket_file_set_buf_size) {
		fc_apr.bucket_file_set_buf_size(bucket, (size_t) FASTCOPY_G(buffer_size));
	}
}

/* Hands [offset, offset + len) of the source to Apache as FILE buckets and waits
 * until it is written: Apache's status. */
static int pass_file(void *file, fc_apache_request *req, zend_off_t offset, size_t len)
{
	void *bb = fc_apr.brigade_create(req->r.pool, req->c.bucket_alloc);
	int rv;
	size_t page = (size_t) sysconf(_SC_PAGESIZE);
	size_t head = MIN(len, (page - (size_t) offset % page) % page);

	if (head > 0) {
		insert_file(bb, file, (int64_t) offset, (int64_t) head, req->r.pool);
	}
	if (len > head) {
		insert_file(bb, file, (int64_t) offset + (int64_t) head, (int64_t) (len - head), req->r.pool);
	}
	rv = fc_apr.fflush(req->r.output_filters, bb);
	fc_apr.brigade_destroy(bb);
	return rv;
}

/* apr_brigade_write()'s flush: the block (a TRANSIENT bucket on our buffer) and a
 * FLUSH down the request's filters, so it is written before the buffer is reused. */
typedef struct {
	fc_ap_filter *filters;
	bool passed;
} fc_block_pass;

static int pass_flushed(void *bb, void *ctx)
{
	fc_block_pass *p = ctx;

	p->passed = true;
	return fc_apr.fflush(p->filters, bb);
}

/* Where a filter reads what it is given (mod_ssl, mod_deflate): the range read
 * here a block at a time and each block handed over as bytes, since a FILE bucket
 * is framed before it is read. A short read is where the file now ends. Returns 0,
 * -1 when Apache failed a write, or a failed read's errno; *sent, bytes handed over. */
static int pass_blocks(fc_job *job, fc_apache_request *req, zend_off_t offset, size_t len, size_t *sent)
{
	size_t block = MIN(len, (size_t) FASTCOPY_G(buffer_size));
	char *buf = emalloc(block);
	void *bb = fc_apr.brigade_create(req->r.pool, req->c.bucket_alloc);
	fc_block_pass pass = {req->r.output_filters, false};
	int rv = 0;

	*sent = 0;
	while (*sent < len) {
		ssize_t n = pread(job->in.fd, buf, MIN(block, len - *sent), offset + (zend_off_t) *sent);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			rv = n < 0 ? errno : 0;
			break;
		}
		/* A block of up to 8,000 bytes is copied into the brigade instead of flushed. */
		pass.passed = false;
		rv = fc_apr.brigade_write(bb, pass_flushed, &pass, buf, (size_t) n);
		if (rv == FC_APR_SUCCESS && !pass.passed) {
			rv = fc_apr.fflush(pass.filters, bb);
		}
		fc_apr.brigade_cleanup(bb);
		if (rv != FC_APR_SUCCESS) {
			rv = -1;
			break;
		}
		*sent += (size_t) n;
	}
	fc_apr.brigade_destroy(bb);
	efree(buf);
	return rv;
}

/* Marks the request's connection aborted, as Apache's core does when a write fails
 * and its handlers do when a body cannot be completed: the core then sends nothing
 * more on it (not the chunked ending, not what mod_ssl holds) and does not keep it.
 * Written through the kernel, like every read of Apache's structures. */
static void abort_connection(const fc_apache_request *req, bool readable)
{
	unsigned aborted = 1;

	if (!fc_guarded_write((char *) req->r.connection + offsetof(fc_ap_conn, aborted), &aborted, sizeof(aborted))
			&& readable) {
		/* Refused (a seccomp policy that allows only the reads): the connection
		 * was read a moment ago, so it is Apache's live memory in this process,
		 * and left unmarked it would let the filters finish the framing. */
		((fc_ap_conn *) req->r.connection)->aborted = 1;
	}
}

/* Apache did not deliver the range: the client is gone (the core marks the
 * connection aborted when its write fails), the file no longer holds the range, or
 * a filter failed. Whatever the filters have framed for those bytes must never be
 * completed, so unless the client left, the connection is ended here. The script
 * learns of it as of a failed ap_rwrite(): it ends unless it ignores aborts, and then
 * the copy goes on from `moved` into the disabled output layer, as stock's would. */
static fc_status range_lost(fc_job *job, const fc_apache_request *req, zend_off_t offset, size_t moved, int reason)
{
	fc_ap_conn c;

	bool readable = fc_guarded_read_aligned(req->r.connection, &c, sizeof(c));

	if (!readable || !c.aborted) {
		abort_connection(req, readable);
		if (!reason) {
			reason = FC_REASON_FILTER_FAILED;
		}
	} else if (!reason) {
		reason = FC_REASON_CLIENT_ABORTED;
	}
	fc_job_moved(job, moved);
	zend_lseek(job->in.fd, offset + (zend_off_t) moved, SEEK_SET);
	job->ended_by = reason;
	php_handle_aborted_connection();
	return fc_fallback(job, reason);
}

/* [offset, offset + len) to Apache. FC_CONTINUE once it is out whole. */
static fc_status pass_range(fc_job *job, fc_apache_request *req, zend_off_t offset, size_t len)
{
	size_t sent = len;
	zend_stat_t sb;
	void *file;
	int rv;

	if (req->reads) {
		rv = pass_blocks(job, req, offset, len, &sent);
		if (rv < 0) {
			return range_lost(job, req, offset, len, 0);
		}
		fc_job_moved(job, sent);
		if (rv > 0 || sent < len) {
			zend_lseek(job->in.fd, offset + (zend_off_t) sent, SEEK_SET);
			/* A read error: the next path reads from here and reports it as stock does. */
			if (rv > 0) {
				return fc_fallback(job, rv);
			}
			job->in.stream->eof = 1;
			return FC_DONE;
		}
		return FC_CONTINUE;
	}
	if (!(file = request_file(job, req))) {
		return fc_fallback(job, errno ? errno : EBADF);
	}
	/* Only Apache's HTTP filters stand before the core, and pass the bucket on
	 * unread: the core's status is the range's (its sendfile or read fails when the
	 * file ends early). */
	if ((rv = pass_file(file, req, offset, len)) == FC_APR_SUCCESS) {
		fc_job_moved(job, len);
		return FC_CONTINUE;
	}
	if (zend_fstat(job->in.fd, &sb) == 0 && sb.st_size < offset + (zend_off_t) len) {
		return range_lost(job, req, offset, sb.st_size > offset ? (size_t) (sb.st_size - offset) : 0,
			FC_REASON_FILE_SHRANK);
	}
	return range_lost(job, req, offset, len, 0);
}

/* The smallest copy that stock would not let Apache see whole: on top of the
 * measured limits, whatever PHP's own output buffers hold before they pass it on. */
static size_t small_limit(const fc_apache_request *req)
{
	php_output_handler **h = (php_output_handler **) zend_stack_base(&OG(handlers));
	size_t limit = req->deflate ? FC_APACHE_MIN_DEFLATE : FC_APACHE_MIN_PLAIN;

	for (int i = 0, n = zend_stack_count(&OG(handlers)); i < n; i++) {
		limit += h[i]->size;
	}
	return limit;
}

/* What is left to copy from offset, by the size last taken; false when the file has
 * nothing (more) there. */
static bool range_left(fc_job *job, zend_off_t offset, size_t *len)
{
	if (offset < 0 || job->in.st.st_size <= offset) {
		return false;
	}
	*len = MIN(job->remaining, (size_t) (job->in.st.st_size - offset));
	return true;
}

static fc_status copy_apache(fc_job *job)
{
	fc_apache_request req;
	zend_off_t offset;
	zend_stat_t sb;
	size_t len;
	int reason;
	fc_status st;

	/* Everything is checked before anything is flushed: a flush would itself end
	 * what a declined copy must keep (Content-Length, Range). The first size is the
	 * one the endpoint took when the copy began. */
	if ((reason = fc_apache_verified_request(&req)) != 0) {
		return fc_fallback(job, reason);
	}
	/* The endpoint's cast has just sought the descriptor to the stream's position. */
	offset = job->in.stream->position;
	if (!range_left(job, offset, &len)) {
		/* procfs and friends report no size: read() will tell */
		return fc_fallback(job, FC_REASON_ZERO);
	}
	if (len < small_limit(&req)) {
		return fc_fallback(job, FC_REASON_SMALL_RESPONSE);
	}
	/* Everything PHP holds for the client goes first, in order; flushing it puts
	 * mod_php's own filter in the chain, so the request is read again after. */
	if ((reason = fc_output_pass_through()) != 0 || (reason = fc_apache_reverified_filters(&req)) != 0) {
		return fc_fallback(job, reason);
	}
	if (req.settled) {
		fc_apache_remember(&req);
	}
	/* A range never promises more than the file has: the size again before each
	 * further pass (sabre/http's pieces are one pass each, and need none). */
	do {
		if ((st = pass_range(job, &req, offset, len)) != FC_CONTINUE) {
			return st;
		}
		offset += (zend_off_t) len;
		if (job->remaining > 0 && zend_fstat(job->in.fd, &sb) == 0) {
			job->in.st.st_size = sb.st_size;
		}
	} while (job->remaining > 0 && range_left(job, offset, &len));

	/* The duplicate shares the file offset, which APR's reads move. */
	zend_lseek(job->in.fd, offset, SEEK_SET);
	if (job->remaining > 0) {
		job->in.stream->eof = 1;
	}
	return FC_DONE;
}

const fc_server_path fc_apache_path = {NULL, copy_apache, fc_apache_possible, fc_apache_unavailable};

#else

const fc_server_path fc_apache_path = {"not built: needs Linux on a 64-bit platform"};

#endif
