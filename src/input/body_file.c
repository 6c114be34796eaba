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
#include <linux/magic.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define FC_FILL FC_REQUEST_BODY_FILL
/* Fills copied into the spool at once where the copy does not take the rest of
 * the body: the spool space reserved for them on a nearly full filesystem. */
#define FC_BATCH ((size_t) 64 * 1024 * 1024)
/* Free space beyond a batch that proves stock's writes of it would fit: a share
 * of it for the filesystem's own blocks and for other writers meanwhile. */
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

/* Whether the filesystem of fd has free space for len bytes written, less a margin
 * for what others write meanwhile. Free space only: quotas are not in it. */
static bool room_for(int fd, uint64_t len)
{
	struct statfs fs;

	return fstatfs(fd, &fs) == 0
		&& (uint64_t) fs.f_bavail * (uint64_t) fs.f_bsize >= len + FC_ROOM_MARGIN(len);
}

/* One copy's state from one step to the next. */
typedef struct {
	int body_fd;       /* FPM's descriptor, once found */
	zend_stat_t bst;   /* the body file, when it was found */
	size_t cap;        /* the largest batch still worth trying to reserve */
	bool first;        /* the copy's first step */
	bool stock_only;   /* room not proven: the rest of the copy is stock's reads */
} fc_body_copy;

/* Room for len bytes of the spool from `at`, as the kernel enforces it (free space,
 * a user's or group's quota, btrfs's allocator): allocated past the spool's end by
 * fallocate(), and kept, as stock's writes would take it. With `file_too` the
 * destination shares that filesystem: twice as much is asked for, and the second
 * half given back for the destination's writes. A refused reservation gives back
 * what it had taken, since stock's writes need it; a filesystem that cannot reserve
 * at all leaves the rest of the copy to stock's reads. */
static bool reserve(fc_body_copy *c, int spool_fd, zend_off_t at, size_t len, bool file_too)
{
	size_t ask = file_too ? 2 * len : len;

	if (file_too && !room_for(spool_fd, ask)) {
		return false;
	}
	if (fallocate(spool_fd, FALLOC_FL_KEEP_SIZE, (off_t) at, (off_t) ask) == 0) {
		if (file_too) {
			fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) (at + (zend_off_t) len), (off_t) len);
		}
		return true;
	}
	if (errno == EOPNOTSUPP || errno == ENOSYS) {
		c->stock_only = true;
	} else {
		fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) at, (off_t) ask);
	}
	return false;
}

/* Whole fills of up to `want` bytes whose spool space is reserved, halved until a
 * reservation holds, so that a full upload_tmp_dir or quota ends the copy where
 * stock's spool writes would: where not even a fill can be reserved, or where the
 * destination shares that filesystem (stock's writes take turns there, a fill to
 * the spool then to the file) and the batch cannot, the rest of the copy is
 * stock's reads. 0: not one fill. */
static size_t reservable(fc_body_copy *c, int spool_fd, zend_off_t edge, size_t want, bool file_too)
{
	size_t n = MIN(want, c->cap);

	n -= n % FC_FILL;
	while (n > 0 && !c->stock_only) {
		if (reserve(c, spool_fd, edge, n, file_too)) {
			return n;
		}
		c->stock_only = file_too || n == FC_FILL;
		n = MAX(FC_FILL, n / FC_FILL / 2 * FC_FILL);
		/* a size that did not fit is not asked for again in this copy */
		c->cap = n;
	}
	return 0;
}

/* The spool's [at, at + len) from the body file: a reflink or a copy in the
 * kernel; where that stops short (another writer took the reserved room), the
 * stream layer writes the rest and raises stock's notice if it cannot. */
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

static bool body_file_unchanged(int body_fd, const zend_stat_t *before)
{
	zend_stat_t after;

	return zend_fstat(body_fd, &after) == 0 && after.st_size == before->st_size
		&& after.st_mtim.tv_sec == before->st_mtim.tv_sec && after.st_mtim.tv_nsec == before->st_mtim.tv_nsec;
}

/* One batch at the live edge `edge`: n bytes of the body to the destination from
 * php://input's position (its read-ahead is the body file's bytes there, read by
 * FPM in this copy), the n bytes of fills from `edge` stock's reads of them would
 * have read into the spool, FPM's descriptor and SG(read_post_bytes) past those,
 * php://input past what was delivered with the rest of its last fill read ahead. */
static fc_status move_batch(fc_job *job, fc_body_copy *c, int spool_fd, zend_off_t edge, size_t n, bool to_end)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	size_t ahead = (size_t) (in->writepos - in->readpos), spooled;
	zend_off_t at = edge - (zend_off_t) ahead;
	off_t from = (off_t) at;
	int err, reason = 0;
	size_t d = copy_range(c->body_fd, &from, job->out.fd, NULL, n, &err);

	fc_job_gave(job, d);
	if (job->remaining != SIZE_MAX) {
		job->remaining -= d;
	}
	if (d < n) {
		/* Stock read the fill holding the end of the block it failed to write; a
		 * file that ended early is read to its end. */
		spooled = err ? MIN(n, (d / FC_FILL + 1) * FC_FILL) : (d > ahead ? d - ahead : 0);
		reason = err ? err : FC_REASON_BODY_FILE_CHANGED;
	} else {
		spooled = n;
	}
	if (to_end && d == n && !body_file_unchanged(c->body_fd, &c->bst)) {
		/* what was copied stays, and the spool takes it from the file */
		reason = FC_REASON_BODY_FILE_CHANGED;
	}
	if (to_end && !reason && spool_is_body_file(c->body_fd, body, spool_fd)) {
		/* no later read asks FPM: SG(read_post_bytes) is CONTENT_LENGTH */
		fc_stats_spool_shared(n);
	} else {
		spool_from_file(c->body_fd, body, spool_fd, edge, spooled);
		if (spooled < n) {
			/* a reservation past what stock spooled would take room stock leaves */
			fallocate(spool_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t) (edge + (zend_off_t) spooled),
				(off_t) (n - spooled));
		}
	}
	SG(read_post_bytes) = (int64_t) (edge + (zend_off_t) spooled);
	/* FPM's next read goes on after the fills taken, as after stock's reads */
	lseek(c->body_fd, (off_t) SG(read_post_bytes), SEEK_SET);
	if (!fc_request_body_move_to(job, edge, at + (zend_off_t) d)) {
		php_error_docref(NULL, E_WARNING, "Failed to seek to position " ZEND_LONG_FMT " in the stream",
			(zend_long) (at + (zend_off_t) d));
		return FC_FAILED;
	}
	if (err) {
		/* Stock's writes of the rest of the block it was writing, whose notices
		 * name that rest: where the kernel stopped inside the block, stock's
		 * php_stream_write() had stored part of it and failed on the rest, and its
		 * copy loop tries the rest once more. Each fails again, or the room came back. */
		char buf[FC_FILL];
		size_t rest = MIN(job->remaining, FC_FILL - d % FC_FILL);
		fc_status st = fc_move_block(job, buf, rest);

		if (st == FC_FAILED && d % FC_FILL != 0) {
			st = fc_move_block(job, buf, rest);
		}
		if (st != FC_CONTINUE) {
			return st;
		}
	}
	return reason ? fc_fallback(job, reason) : FC_CONTINUE;
}

/* Once per copy, when FPM's descriptor is found: a copy onto the body file's own
 * filesystem may be a clone (XFS, btrfs), which takes no room where stock's writes
 * take it. So where the destination or the spool is there, that filesystem must
 * hold, as written, what stock would write there for the rest of this copy; else
 * the copy is stock's reads, which run out of room where stock's do. btrfs counts
 * data in its free space only once written back: there the stored body, just
 * written by the web server, is taken as not counted yet. */
static bool clones_proven(const fc_job *job, const fc_body_copy *c, const zend_stat_t *spool, size_t rest)
{
	struct statfs fs;
	uint64_t need = 0;

	if (job->out.st.st_dev == c->bst.st_dev) {
		need += rest;
	}
	if (spool->st_dev == c->bst.st_dev) {
		need += rest;
	}
	if (need == 0) {
		return true;
	}
	if (fstatfs(c->body_fd, &fs) != 0) {
		return false;
	}
	if ((unsigned long) fs.f_type == BTRFS_SUPER_MAGIC) {
		need += (uint64_t) c->bst.st_size;
	}
	return (uint64_t) fs.f_bavail * (uint64_t) fs.f_bsize >= need + FC_ROOM_MARGIN(need);
}

/* One step at the live edge: stock's read of a block, or a batch. */
static fc_status next_step(fc_job *job, fc_body_copy *c)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	zend_long length = SG(request_info).content_length;
	zend_off_t edge = (zend_off_t) SG(read_post_bytes);
	size_t ahead = (size_t) (in->writepos - in->readpos), left, n;
	zend_stat_t sb;
	bool to_end, file_too;
	int spool_fd, reason;

	if (SG(post_read) || length <= edge) {
		/* the end of the body: stock's reads */
		return fc_copy_request_body(job);
	}
	if ((c->first && ahead > 0) || c->stock_only || (spool_fd = fc_spool_fd(body, &reason)) < 0
			|| zend_fstat(spool_fd, &sb) != 0 || sb.st_size != edge || in->position + (zend_off_t) ahead != edge) {
		/* After a partial read, stock's first block is what php://input read ahead
		 * and the start of a fill FPM reads now, written at once. Else the spool
		 * still in memory (its first 16 KiB: FPM opens the file at the first of
		 * these reads), or not what stock's fills made it. */
		return fc_request_body_fill(job);
	}
	if (c->body_fd < 0) {
		c->body_fd = fpm_descriptor(&c->bst, &reason);
		if (c->body_fd < 0) {
			return fc_fallback(job, reason);
		}
		if (c->bst.st_dev == job->out.st.st_dev && c->bst.st_ino == job->out.st.st_ino) {
			return fc_fallback(job, FC_REASON_SAME_FILE);
		}
		if (c->bst.st_size >= (zend_off_t) length
				&& !clones_proven(job, c, &sb, MIN(job->remaining, (size_t) (length - edge)))) {
			c->stock_only = true;
			return fc_request_body_fill(job);
		}
	} else if (zend_fstat(c->body_fd, &c->bst) != 0) {
		return fc_fallback(job, errno);
	}
	if (c->bst.st_size < (zend_off_t) length) {
		/* stock reads what there is, and ends short */
		return fc_fallback(job, FC_REASON_BODY_FILE_SHORT);
	}
	left = (size_t) (length - edge);
	file_too = job->out.st.st_dev == sb.st_dev;
	to_end = job->remaining >= left && c->bst.st_size == (zend_off_t) length
		&& reserve(c, spool_fd, edge, left, file_too);
	if (to_end) {
		n = left;
	} else {
		n = reservable(c, spool_fd, edge, MIN(MIN(left, job->remaining), FC_BATCH), file_too);
	}
	if (n == 0) {
		/* less than a fill, or no room for one: as stock reads it */
		return fc_request_body_fill(job);
	}
	return move_batch(job, c, spool_fd, edge, n, to_end);
}

static fc_status copy_body_file(fc_job *job)
{
	php_stream *in = job->in.stream, *body = SG(request_info).request_body;
	fc_body_copy c = {-1, {0}, FC_BATCH, true, false};

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
		fc_status st = next_step(job, &c);

		c.first = false;
		if (st != FC_CONTINUE) {
			return st;
		}
	}
	return FC_DONE;
}

const fc_server_path fc_body_file_path = {NULL, copy_body_file, fc_request_has_body_file, body_file_unavailable};

#else

bool fc_request_has_body_file(void)
{
	return false;
}

const fc_server_path fc_body_file_path = {"not built: needs Linux"};

#endif
