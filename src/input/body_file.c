/* The body_file path: php://input under PHP-FPM where the web server stored the
 * body in a file named in REQUEST_BODY_FILE. The body moves from that file into
 * the destination in the kernel, through PHP-FPM's own descriptor (found and
 * proven once per copy), and everything stock's fills leave is left as they
 * would: the spool, SG(read_post_bytes), that descriptor's offset, php://input's
 * position. Where a copy takes the rest of the body, the spool reads the stored
 * file itself instead of a copy of it (docs/internals.md, "The body_file path"). */

#include "src/input/input.h"
#include "src/paths/paths.h"
#include "src/core/sapi_name.h"
#include "src/core/stats.h"
#include "src/sapi/fastcgi_request.h"

#include "SAPI.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define FC_FILL FC_REQUEST_BODY_FILL
/* Fills copied into the spool at once where the copy does not take the rest of
 * the body: the spool space reserved for them on a nearly full filesystem. */
#define FC_BATCH ((size_t) 64 * 1024 * 1024)
/* Free space beyond a batch that proves stock's spool writes of it would fit: a
 * share of it for the filesystem's own blocks and for other writers meanwhile. */
#define FC_ROOM_MARGIN(len) ((uint64_t) 1024 * 1024 + (uint64_t) (len) / 32)
/* What FPM's open(name, O_RDONLY) never sets on its descriptor (with FD_CLOEXEC). */
#define FC_NOT_OPENED_BY_FPM (O_APPEND | O_NONBLOCK | O_DIRECT | O_NOATIME | O_SYNC | O_DSYNC | O_ASYNC)

/* REQUEST_BODY_FILE as FPM's sapi_cgi_read_post() reads it: FCGI_GETENV() on the
 * request's parameters, which is what FPM's getenv hook returns (fcgi_getenv(),
 * same table, same hash), raw and not copied. sapi_getenv() would pass it through
 * filter.default first. NULL where it is unset or empty, or the SAPI not FPM. */
static const char *body_file_name(void)
{
	const char *name;

	if (!fc_sapi_is(FC_SAPI_FPM) || !sapi_module.getenv) {
		return NULL;
	}
	name = sapi_module.getenv("REQUEST_BODY_FILE", sizeof("REQUEST_BODY_FILE") - 1);
	return name && *name ? name : NULL;
}

bool fc_request_has_body_file(void)
{
	return body_file_name() != NULL;
}

static bool body_file_possible(void)
{
	return fc_request_has_body_file();
}

static const char *body_file_unavailable(void)
{
	return fc_sapi_is(FC_SAPI_FPM) ? NULL : "the SAPI is not PHP-FPM";
}

/* FPM's own descriptor of the body file: the only one in this process that is open
 * on the file REQUEST_BODY_FILE names, as FPM's open(name, O_RDONLY) leaves it, at
 * SG(read_post_bytes). FPM opens it at its first read and closes it when the script
 * has run, before PHP's shutdown: from then on its reads take the socket, and a
 * descriptor that matches is the script's own. -1 with *reason set otherwise. */
static int fpm_descriptor(zend_stat_t *st, int *reason)
{
	const char *name = body_file_name();
	struct stat named;
	DIR *dir;
	struct dirent *e;
	int found = -1, matches = 0;

	*reason = FC_REASON_UNVERIFIED;
	if (!name || (EG(flags) & EG_FLAGS_IN_SHUTDOWN) || stat(name, &named) != 0) {
		return -1;
	}
	if (!S_ISREG(named.st_mode)) {
		*reason = FC_REASON_NOT_A_FILE;
		return -1;
	}
	if (!(dir = opendir("/proc/self/fd"))) {
		return -1;
	}
	while ((e = readdir(dir)) != NULL) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);
		struct stat sb;
		int flags;

		if (*end || end == e->d_name || fd == dirfd(dir) || fstat((int) fd, &sb) != 0
				|| sb.st_dev != named.st_dev || sb.st_ino != named.st_ino
				|| (flags = fcntl((int) fd, F_GETFL)) < 0 || (flags & O_ACCMODE) != O_RDONLY
				|| (flags & FC_NOT_OPENED_BY_FPM) || fcntl((int) fd, F_GETFD) != 0
				|| lseek((int) fd, 0, SEEK_CUR) != (off_t) SG(read_post_bytes)) {
			continue;
		}
		found = (int) fd;
		matches++;
	}
	closedir(dir);
	if (matches != 1) {
		/* none (the name is another file's now), or more than one to choose from */
		return -1;
	}
	if (zend_fstat(found, st) != 0) {
		return -1;
	}
	return found;
}

/* len bytes of `from` at *at into `to` at *to_at, or at its own offset when to_at
 * is NULL: copy_file_range(), then sendfile() where the kernel refuses the pair.
 * Returns the count; *err says what stopped it short (0: the source's end). */
static size_t copy_range(int from, off_t *at, int to, off_t *to_at, size_t len, int *err)
{
	bool by_sendfile = false;
	size_t done = 0;

	*err = 0;
	while (done < len) {
		size_t count = MIN(len - done, FC_KERNEL_CHUNK);
		ssize_t n;

		if (by_sendfile) {
			if (to_at && lseek(to, *to_at, SEEK_SET) != *to_at) {
				*err = errno;
				break;
			}
			n = sendfile(to, from, at, count);
			if (n > 0 && to_at) {
				*to_at += n;
			}
		} else {
			n = copy_file_range(from, at, to, to_at, count, 0);
		}
		if (n > 0) {
			done += (size_t) n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && !by_sendfile
				&& (errno == EXDEV || errno == EINVAL || errno == EOPNOTSUPP || errno == ENOSYS)) {
			by_sendfile = true;
		} else {
			*err = n < 0 ? errno : 0;
			break;
		}
	}
	return done;
}

/* Whether stock's spool writes of len more bytes are certain to find room, or
 * could be refused: the filesystem's free space, less a margin for what others
 * write meanwhile. */
static bool room_for(int spool_fd, size_t len)
{
	struct statfs fs;

	return fstatfs(spool_fd, &fs) == 0
		&& (uint64_t) fs.f_bavail * (uint64_t) fs.f_bsize >= (uint64_t) len + FC_ROOM_MARGIN(len);
}

/* The spool's [at, at + len) from the body file: a reflink or a copy in the
 * kernel; where that stops short (a quota, another writer), the stream layer
 * writes the rest and raises stock's notice if it cannot. */
static void spool_from_file(int body_fd, php_stream *body, int spool_fd, zend_off_t at, size_t len)
{
	off_t from = (off_t) at, to = (off_t) at;
	int err;
	size_t done = copy_range(body_fd, &from, spool_fd, &to, len, &err);

	if (done < len) {
		char *buf = emalloc(FC_FILL);

		php_stream_seek(body, at + (zend_off_t) done, SEEK_SET);
		while (done < len) {
			ssize_t n = pread(body_fd, buf, MIN(FC_FILL, len - done), (off_t) (at + (zend_off_t) done));

			if (n <= 0 || php_stream_write(body, buf, (size_t) n) != n) {
				break;
			}
			done += (size_t) n;
		}
		efree(buf);
	}
	php_stream_seek(body, 0, SEEK_END);
}

/* The spool becomes the body file: its descriptor now reads that file. */
static bool spool_is_body_file(int body_fd, php_stream *body, int spool_fd)
{
	int fdflags = fcntl(spool_fd, F_GETFD);

	if (fdflags < 0 || dup3(body_fd, spool_fd, (fdflags & FD_CLOEXEC) ? O_CLOEXEC : 0) < 0) {
		return false;
	}
	php_stream_seek(body, 0, SEEK_END);
	return true;
}

/* One batch at the live edge `edge`: n bytes of the body to the destination, the
 * fills stock would have read into the spool, FPM's descriptor and
 * SG(read_post_bytes) past them, php://input past what was delivered. */
static fc_status move_batch(fc_job *job, int body_fd, const zend_stat_t *before, int spool_fd, zend_off_t edge,
	size_t n, bool to_end)
{
	php_stream *body = SG(request_info).request_body;
	off_t from = (off_t) edge;
	size_t spooled;
	zend_stat_t after;
	int err, reason = 0;
	size_t d = copy_range(body_fd, &from, job->out.fd, NULL, n, &err);

	fc_job_gave(job, d);
	if (job->remaining != SIZE_MAX) {
		job->remaining -= d;
	}
	if (d < n) {
		/* Stock read the fill it failed to write; a file that ended early is read
		 * to its end. */
		spooled = err ? MIN(n, (d / FC_FILL + 1) * FC_FILL) : d;
		reason = err ? err : FC_REASON_BODY_FILE_CHANGED;
	} else {
		spooled = n;
	}
	if (to_end && d == n && (zend_fstat(body_fd, &after) != 0 || after.st_size != before->st_size
			|| after.st_mtim.tv_sec != before->st_mtim.tv_sec || after.st_mtim.tv_nsec != before->st_mtim.tv_nsec)) {
		/* what was copied stays, and the spool takes it from the file */
		reason = FC_REASON_BODY_FILE_CHANGED;
	}
	if (to_end && !reason && spool_is_body_file(body_fd, body, spool_fd)) {
		/* no later read asks FPM: SG(read_post_bytes) is CONTENT_LENGTH */
		fc_stats_spool_shared(n);
	} else {
		spool_from_file(body_fd, body, spool_fd, edge, spooled);
		if (spooled < n) {
			/* a reservation past what stock spooled would take room stock leaves */
			fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) (edge + (zend_off_t) spooled),
				(off_t) (n - spooled));
		}
	}
	SG(read_post_bytes) = (int64_t) (edge + (zend_off_t) spooled);
	/* FPM's next read goes on after the fills taken, as after stock's reads */
	lseek(body_fd, (off_t) SG(read_post_bytes), SEEK_SET);
	if (!fc_request_body_move_past(job, edge, d)) {
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream",
			(zend_long) (edge + (zend_off_t) d));
		return FC_FAILED;
	}
	return reason ? fc_fallback(job, reason) : FC_CONTINUE;
}

/* Whole fills of up to `want` bytes whose spool space is sure: reserved where the
 * filesystem is nearly full, so that a full upload_tmp_dir ends the copy where
 * stock's spool writes would; halved until a reservation holds. 0: not one fill. */
static size_t reservable(int spool_fd, zend_off_t edge, size_t want)
{
	size_t n = want - want % FC_FILL;

	if (n == 0 || room_for(spool_fd, n)) {
		return n;
	}
	for (;;) {
		if (fallocate(spool_fd, FALLOC_FL_KEEP_SIZE, (off_t) edge, (off_t) n) == 0) {
			return n;
		}
		/* what a failed reservation kept would take room stock's writes have */
		fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) edge, (off_t) n);
		if (n == FC_FILL) {
			return 0;
		}
		n = MAX(FC_FILL, (n / FC_FILL / 2) * FC_FILL);
	}
}

static fc_status copy_body_file(fc_job *job)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	int body_fd = -1, reason;
	zend_stat_t bst;

	if (in->readfilters.head) {
		return fc_fallback(job, FC_REASON_FILTERED);
	}
	if (!fc_request_body_fills_stock(in)) {
		return fc_fallback(job, FC_REASON_FILL_SIZE);
	}
	if (!body || SG(post_read)
			|| in->position + (in->writepos - in->readpos) != (zend_off_t) SG(read_post_bytes)) {
		return fc_fallback(job, FC_REASON_BEHIND_LIVE_EDGE);
	}

	while (job->remaining > 0) {
		zend_long length = SG(request_info).content_length;
		zend_stat_t sb;
		zend_off_t edge = (zend_off_t) SG(read_post_bytes);
		size_t left, n;
		bool to_end, shared_fs;
		int spool_fd;
		fc_status st;

		if (in->writepos > in->readpos) {
			/* what php://input read ahead goes first, as stock's next read takes it */
			st = fc_request_body_drain(job);
		} else if (SG(post_read) || length <= edge) {
			/* the end of the body: stock's reads */
			return fc_copy_request_body(job);
		} else if ((spool_fd = fc_spool_fd(body, &reason)) < 0 || zend_fstat(spool_fd, &sb) != 0
				|| sb.st_size != edge || in->position != edge) {
			/* The spool still in memory (its first 16 KiB: FPM opens the file at
			 * the first of these reads), or not what stock's fills made it. */
			st = fc_request_body_fill(job);
		} else {
			if (body_fd < 0) {
				body_fd = fpm_descriptor(&bst, &reason);
				if (body_fd < 0) {
					return fc_fallback(job, reason);
				}
				if (bst.st_dev == job->out.st.st_dev && bst.st_ino == job->out.st.st_ino) {
					return fc_fallback(job, FC_REASON_SAME_FILE);
				}
			} else if (zend_fstat(body_fd, &bst) != 0) {
				return fc_fallback(job, errno);
			}
			if (bst.st_size < (zend_off_t) length) {
				/* stock reads what there is, and ends short */
				return fc_fallback(job, FC_REASON_BODY_FILE_SHORT);
			}
			left = (size_t) (length - edge);
			/* Stock writes the spool and, where it shares that filesystem, the file: a nearly
			 * full one is read a fill at a time there, as stock's writes take turns. */
			shared_fs = job->out.st.st_dev == sb.st_dev;
			to_end = job->remaining >= left && bst.st_size == (zend_off_t) length
				&& room_for(spool_fd, shared_fs ? 2 * left : left);
			if (to_end) {
				n = left;
			} else {
				n = MIN(MIN(left, job->remaining), FC_BATCH);
				n = shared_fs && !room_for(spool_fd, 2 * n) ? 0 : reservable(spool_fd, edge, n);
			}
			if (n == 0) {
				/* less than a fill, or no room for one: as stock reads it */
				st = fc_request_body_fill(job);
			} else {
				st = move_batch(job, body_fd, &bst, spool_fd, edge, n, to_end);
			}
		}
		if (st != FC_CONTINUE) {
			return st;
		}
	}
	return FC_DONE;
}

const fc_server_path fc_body_file_path = {NULL, copy_body_file, body_file_possible, body_file_unavailable};

#else

bool fc_request_has_body_file(void)
{
	return false;
}

const fc_server_path fc_body_file_path = {"not built: needs Linux"};

#endif
