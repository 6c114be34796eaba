/* The mmap path: a regular file mapped a bounded window at a time
 * (fastcopy.mmap_window) and written in blocks to a destination the kernel paths
 * cannot write (php://output, memory, userspace, filters, TLS, O_APPEND). A file
 * that shrinks while mapped would raise SIGBUS: the size is checked before every
 * block, and a handler puts zero pages over the rest of the window for a shrink
 * racing the block in flight (docs/internals.md, "The mmap window"). */

#include "src/paths/paths.h"
#include "src/endpoint/endpoint.h"

#ifdef FASTCOPY_HAVE_MMAP

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
	char *start;
	size_t len;
	volatile sig_atomic_t hit;
} fc_window_guard;

/* Per thread: a fault is delivered to the thread that caused it. */
ZEND_TLS fc_window_guard guard;
static struct sigaction previous_sigbus;
static bool sigbus_handler_installed;
static size_t page_size;

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
	char *addr = (char *) info->si_addr;

	if (guard.len && addr >= guard.start && addr < guard.start + guard.len) {
		char *page = (char *) ((uintptr_t) addr & ~((uintptr_t) page_size - 1));
		size_t rest = (size_t) (guard.start + guard.len - page);

		if (mmap(page, rest, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
			guard.hit = 1;
			return;
		}
	}
	/* Not a fault in our window: put back whoever handled SIGBUS before us. A real
	 * fault repeats under that handler; a signal sent by kill() is sent again. */
	sigaction(SIGBUS, &previous_sigbus, NULL);
	if (info->si_code <= 0) {
		raise(sig);
	}
}

/* Installed when first needed, and again if someone replaced it since. */
static void ensure_sigbus_handler(void)
{
	struct sigaction current, ours;

	if (sigaction(SIGBUS, NULL, &current) == 0 && (current.sa_flags & SA_SIGINFO)
			&& current.sa_sigaction == on_sigbus) {
		return;
	}
	memset(&ours, 0, sizeof(ours));
	ours.sa_sigaction = on_sigbus;
	ours.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&ours.sa_mask);
	if (sigaction(SIGBUS, &ours, &previous_sigbus) == 0) {
		sigbus_handler_installed = true;
	}
}

void fc_mmap_release(fc_job *job)
{
	if (job->map) {
		guard.len = 0;
		munmap(job->map, job->map_len);
		job->map = NULL;
	}
}

const char *fc_mmap_unavailable(void)
{
	return NULL;
}

void fc_mmap_shutdown(void)
{
	struct sigaction current;

	if (sigbus_handler_installed && sigaction(SIGBUS, NULL, &current) == 0
			&& (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sigbus) {
		sigaction(SIGBUS, &previous_sigbus, NULL);
	}
	sigbus_handler_installed = false;
}

static zend_off_t current_size(int fd)
{
	zend_stat_t st;

	return zend_fstat(fd, &st) == 0 ? (zend_off_t) st.st_size : -1;
}

/* Writes one mapped window in blocks. Returns how the copy goes on; *shrunk is set
 * when the file turned out shorter than the window. */
static fc_status write_window(fc_job *job, int fd, zend_off_t offset, const char *data, size_t len,
		size_t *written, bool *shrunk)
{
	size_t block = fc_block_size(job);
	int reason;

	*written = 0;
	while (*written < len) {
		size_t n = MIN(block, len - *written);
		zend_off_t size = current_size(fd);
		size_t w;
		fc_status st;

		if (size >= 0 && size < offset + (zend_off_t) (*written + n)) {
			*shrunk = true;
			if (size <= offset + (zend_off_t) *written) {
				return FC_DONE;
			}
			n = (size_t) (size - offset) - *written;
		}

		st = fc_write_block(job, data + *written, n, &w);
		*written += w;
		job->in.stream->position += w;
		if (job->remaining != SIZE_MAX) {
			job->remaining -= w;
		}
		if (guard.hit) {
			*shrunk = true;
			return st == FC_CONTINUE ? FC_DONE : st;
		}
		if (st != FC_CONTINUE || *shrunk) {
			return st == FC_CONTINUE ? FC_DONE : st;
		}
		/* The client hung up and the script ignores it: the rest goes nowhere,
		 * and the discard path skips it. */
		if ((reason = fc_output_discards(job)) != 0) {
			return fc_fallback(job, reason);
		}
	}
	return FC_CONTINUE;
}

fc_status fc_copy_mmap(fc_job *job)
{
	int fd = job->in.fd;
	size_t window = (size_t) FASTCOPY_G(mmap_window);
	zend_off_t offset = zend_lseek(fd, 0, SEEK_CUR);
	bool first = true;
	fc_status st = FC_DONE;

	if (offset < 0) {
		return fc_fallback(job, errno);
	}
	if (!page_size) {
		page_size = (size_t) sysconf(_SC_PAGESIZE);
	}
	/* once per copy: a handler installed since the last copy is chained to */
	ensure_sigbus_handler();

	while (job->remaining > 0) {
		zend_off_t size = current_size(fd);
		zend_off_t map_offset = offset & ~((zend_off_t) page_size - 1);
		size_t lead = (size_t) (offset - map_offset);
		size_t len, written = 0;
		bool shrunk = false;
		void *map;

		if (size < 0) {
			st = first ? fc_fallback(job, errno) : FC_DONE;
			break;
		}
		if (size <= offset) {
			/* Files that report no size (procfs) still have data: let read() tell. */
			if (first) {
				st = fc_fallback(job, FC_REASON_ZERO);
			} else {
				job->in.stream->eof = 1;
				st = FC_DONE;
			}
			break;
		}
		len = MIN(MIN(window, job->remaining), (size_t) (size - offset));

		map = mmap(NULL, lead + len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, map_offset);
		if (map == MAP_FAILED) {
			st = fc_fallback(job, errno);
			break;
		}
		first = false;
		job->map = map;
		job->map_len = lead + len;

		guard.hit = 0;
		guard.start = map;
		guard.len = lead + len;

		st = write_window(job, fd, offset, (char *) map + lead, len, &written, &shrunk);

		fc_mmap_release(job);
		offset += (zend_off_t) written;

		if (shrunk) {
			job->in.stream->eof = 1;
		}
		if (st != FC_CONTINUE) {
			break;
		}
		st = FC_DONE;
	}

	/* Leave the descriptor where PHP's position says, for whatever reads next. */
	zend_lseek(fd, offset, SEEK_SET);
	return st;
}

#else

fc_status fc_copy_mmap(fc_job *job)
{
	return fc_fallback(job, ENOSYS);
}

const char *fc_mmap_unavailable(void)
{
	return "not built: no mmap() on this platform";
}

void fc_mmap_release(fc_job *job)
{
}

void fc_mmap_shutdown(void)
{
}

#endif
