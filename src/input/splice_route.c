/* The splice-and-clone route of fastcgi_input (fastcopy.spool_clone=1): payloads
 * spliced socket -> pipe -> destination file, the spool cloned from the file's new
 * range (FICLONERANGE), so the body is written once. Only bytes of whole fills
 * already taken reach the file early; anything unusual leaves the route, and the
 * batch goes on through its buffer. Where the kernel has no FICLONERANGE, the route
 * never opens. */

#include "src/input/fpm_stdin.h"
#include "src/core/stats.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/fs.h>

#if defined(FICLONERANGE) && defined(F_SETPIPE_SZ)

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>

/* Room for what is not flushed yet (under FC_ROUTE_FLUSH, a fill and a record past
 * it), in page-sized pipe slots however the socket fragments it. */
#define FC_ROUTE_PIPE   (1024 * 1024)
/* Whole fills in the pipe beyond this go on into the file. */
#define FC_ROUTE_FLUSH  (128 * 1024)
#define FC_XFS_MAGIC    0x58465342
#define FC_BTRFS_MAGIC  0x9123683E

/* The whole fills taken so far, from the pipe into the file. */
static bool route_flush(fc_stdin *s)
{
	while (s->landed < s->committed) {
		ssize_t w = splice(s->route->pipe_rd, NULL, s->route->out_fd, NULL, s->committed - s->landed,
			SPLICE_F_MOVE);

		if (w > 0) {
			s->landed += (size_t) w;
			s->route->out_at += (zend_off_t) w;
			fc_job_gave(s->job, (size_t) w);
			fc_stats_spliced((size_t) w);
		} else if (!(w < 0 && errno == EINTR)) {
			return false;
		}
	}
	return true;
}

/* Off the route for the rest of the copy: what the pipe holds goes into buf,
 * where the batch's later bytes follow it. */
static void route_leave(fc_stdin *s)
{
	size_t have = s->fetched - s->landed;
	int ended;

	if (fc_read_full(s->route->pipe_rd, (unsigned char *) s->buf + s->landed, have, &ended) != have) {
		/* cannot happen: the pipe holds exactly these bytes */
		s->ended = -1;
		s->fetched = s->landed;
	}
	s->route->on = false;
	s->route = NULL;
}

/* splice() of the socket into the pipe (non-blocking: the pipe is); a pipe out of
 * slots and nothing left to flush leaves the route. */
ssize_t fc_route_fetch(fc_stdin *s, size_t room)
{
	bool waited = false;

	for (;;) {
		ssize_t r = splice(s->req->fd, NULL, s->route->pipe_wr, NULL, room, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		struct pollfd p = {s->req->fd, POLLIN, 0};

		if (r >= 0 || (errno != EAGAIN && errno != EINTR)) {
			return r;
		}
		if (errno == EINTR) {
			continue;
		}
		if (s->landed < s->committed) {
			if (!route_flush(s)) {
				route_leave(s);
				errno = EAGAIN;
				return -1;
			}
			continue;
		}
		if (waited) {
			route_leave(s);
			errno = EAGAIN;
			return -1;
		}
		/* FPM's reads block without a time limit: so does this wait */
		while (poll(&p, 1, -1) < 0 && errno == EINTR) {
		}
		waited = true;
	}
}

void fc_route_close(fc_route *route)
{
	if (route->pipe_rd >= 0) {
		close(route->pipe_rd);
		close(route->pipe_wr);
		route->pipe_rd = route->pipe_wr = -1;
	}
	if (route->file_rd >= 0 && route->file_rd != route->out_fd) {
		close(route->file_rd);
	}
	route->file_rd = -1;
	route->on = false;
}

/* A descriptor that reads the destination: the clone's source must be readable,
 * and file_put_contents() opens its file write-only. The same file opened again
 * through /proc, or nothing. */
static int readable_file(int fd, const zend_stat_t *st)
{
	char path[40];
	struct stat again;
	int flags = fcntl(fd, F_GETFL), rd;

	if (flags < 0) {
		return -1;
	}
	if ((flags & O_ACCMODE) == O_RDWR) {
		return fd;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (rd < 0) {
		return -1;
	}
	if (fstat(rd, &again) != 0 || again.st_ino != st->st_ino || again.st_dev != st->st_dev) {
		close(rd);
		return -1;
	}
	return rd;
}

/* The last filesystem that refused a clone (XFS made without reflink): not tried
 * again in this process. */
static dev_t no_clone_dev;
static bool no_clone_known;

/* Whether the route can carry this copy (fastcopy.spool_clone=1): a file on the
 * spool's filesystem, one that clones, at an offset that agrees with the spool's
 * within a block. */
void fc_route_open(fc_route *route, fc_job *job, int spool_fd, const zend_stat_t *sb, zend_off_t edge)
{
	struct statfs fs;
	zend_off_t at;
	int p[2];

	if (!FASTCOPY_G(spool_clone) || job->out.kind != FC_KIND_FILE || job->out.append || sb->st_dev != job->out.st.st_dev
			|| sb->st_blksize <= 0 || (no_clone_known && no_clone_dev == sb->st_dev)
			|| fstatfs(spool_fd, &fs) != 0
			|| ((unsigned long) fs.f_type != FC_XFS_MAGIC && (unsigned long) fs.f_type != FC_BTRFS_MAGIC)
			|| (at = zend_lseek(job->out.fd, 0, SEEK_CUR)) < 0 || (at - edge) % sb->st_blksize != 0) {
		return;
	}
	route->out_fd = job->out.fd;
	route->file_rd = readable_file(job->out.fd, &job->out.st);
	if (route->file_rd < 0) {
		return;
	}
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
		fc_route_close(route);
		return;
	}
	route->pipe_rd = p[0];
	route->pipe_wr = p[1];
	/* a smaller pipe (pipe-max-size) would leave the route in every batch */
	if (fcntl(p[1], F_SETPIPE_SZ, FC_ROUTE_PIPE) < FC_ROUTE_PIPE) {
		fc_route_close(route);
		return;
	}
	route->out_at = at;
	route->on = true;
}

/* The spool's range [at, at + len) from the file's [from, from + len): a clone
 * where the filesystem shares extents, else a copy in the kernel. Returns how much
 * of the range's start the spool now has; what the file still holds of the rest is
 * read into buf at the same place (free there: those bytes never entered it),
 * *read_back bytes, for the caller to write. */
size_t fc_route_spool(fc_route *route, int spool_fd, zend_off_t at, zend_off_t from, size_t len, char *buf,
	size_t *read_back)
{
	struct file_clone_range r;
	loff_t in = from, out = at;
	size_t done = 0;

	r.src_fd = route->file_rd;
	r.src_offset = (uint64_t) from;
	r.src_length = len;
	r.dest_offset = (uint64_t) at;
	*read_back = 0;
	if (ioctl(spool_fd, FICLONERANGE, &r) == 0) {
		fc_stats_spool_cloned(len);
		return len;
	}
	/* not again in this copy: each batch would pay the refusal */
	route->on = false;
	if (errno == EOPNOTSUPP || errno == ENOTTY || errno == EXDEV) {
		struct stat sb;

		if (fstat(spool_fd, &sb) == 0) {
			no_clone_dev = sb.st_dev;
			no_clone_known = true;
		}
	}
	while (done < len) {
		ssize_t n = copy_file_range(route->file_rd, &in, spool_fd, &out, len - done, 0);

		if (n > 0) {
			done += (size_t) n;
		} else if (!(n < 0 && errno == EINTR)) {
			break;
		}
	}
	if (done < len) {
		ssize_t n = pread(route->file_rd, buf + done, len - done, (off_t) (from + (zend_off_t) done));

		*read_back = n > 0 ? (size_t) n : 0;
	}
	return done;
}

/* After a whole fill: once enough is in the pipe, on into the file. */
void fc_route_flush_some(fc_stdin *s)
{
	if (s->route && s->fetched - s->landed >= FC_ROUTE_FLUSH && !route_flush(s)) {
		route_leave(s);
	}
}

/* The batch's end: the rest into the file; a fill cut short, or a file that
 * refused, leaves the route, the rest then from buf. */
void fc_route_finish(fc_stdin *s)
{
	if (s->route && (!route_flush(s) || s->fetched > s->landed)) {
		route_leave(s);
	}
}

#else

void fc_route_open(fc_route *route, fc_job *job, int spool_fd, const zend_stat_t *sb, zend_off_t edge)
{
}

void fc_route_close(fc_route *route)
{
}

ssize_t fc_route_fetch(fc_stdin *s, size_t room)
{
	errno = ENOSYS;
	return -1;
}

void fc_route_flush_some(fc_stdin *s)
{
}

void fc_route_finish(fc_stdin *s)
{
}

size_t fc_route_spool(fc_route *route, int spool_fd, zend_off_t at, zend_off_t from, size_t len, char *buf,
	size_t *read_back)
{
	*read_back = 0;
	return 0;
}

#endif
#endif
