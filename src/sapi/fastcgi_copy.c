/* The fastcgi path's copy route: the records written from a mapping of the file,
 * each header and its payload in one writev(), a batch of them per call. Taken,
 * with fastcopy.same_host=copy, where the web server reads the FastCGI socket from
 * this host over TCP: it then reads bytes still in the CPU's caches, not the page
 * cache's pages, and the worker pays the copy (docs/paths.md, "A peer on this
 * host").
 * A file that shrinks under a mapping makes the kernel's copy fail with EFAULT,
 * never a signal, past the page the new end is in; that page reads as zeros after
 * the end. So the size is taken again after each batch: a record cut short, or
 * bytes sent past the new end, end the connection, and the client never gets a
 * complete answer holding bytes that are not the file's. */

#include "src/sapi/fastcgi_records.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

/* Records mapped at once: four batches, about 3.5 MiB. */
#define FC_COPY_RECORDS (4 * FC_BATCH_RECORDS)

typedef struct {
	struct iovec iov[2 * FC_BATCH_RECORDS];
	unsigned char headers[FC_BATCH_RECORDS][FC_HEADER_LEN];
	size_t payload[FC_BATCH_RECORDS];
	int records;
} fc_copy_batch;

/* Writes a batch whole. Returns the bytes of it that went out (the iovecs are moved
 * past them); short of all of them, r->socket_err or r->cut_short says why. */
static size_t write_batch(fc_records *r, fc_copy_batch *b)
{
	struct iovec *iov = b->iov;
	int left = 2 * b->records;
	size_t sent = 0;

	while (left > 0) {
		ssize_t n = writev(r->req->fd, iov, left);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd wait = {r->req->fd, POLLOUT, 0};
			poll(&wait, 1, -1);
			continue;
		}
		if (n <= 0) {
			/* EFAULT: a page of the mapping is past the file's new end */
			if (n < 0 && errno == EFAULT) {
				r->cut_short = FC_REASON_FILE_SHRANK;
			} else {
				r->socket_err = n < 0 ? errno : EIO;
			}
			return sent;
		}
		sent += (size_t) n;
		while (n > 0 && (size_t) n >= iov->iov_len) {
			n -= (ssize_t) iov->iov_len;
			iov++;
			left--;
		}
		if (n > 0) {
			iov->iov_base = (char *) iov->iov_base + n;
			iov->iov_len -= (size_t) n;
		}
	}
	return sent;
}

/* What of a batch's bytes that went out was payload, record by record; *whole
 * says whether they end between two records. */
static size_t payload_sent(const fc_copy_batch *b, size_t sent, bool *whole)
{
	size_t payload = 0;

	*whole = true;
	for (int i = 0; i < b->records && sent > 0; i++) {
		size_t header = MIN(sent, FC_HEADER_LEN), body;

		sent -= header;
		body = MIN(sent, b->payload[i]);
		payload += body;
		sent -= body;
		*whole = body == b->payload[i];
	}
	return payload;
}

/* Whether the file now ends before what has been sent: the last bytes out may be
 * the zeros a cut leaves in its page. */
static bool sent_past_end(const fc_records *r)
{
	zend_stat_t sb;

	return zend_fstat(r->fd, &sb) == 0 && sb.st_size < r->offset;
}

/* One mapping's records, a batch per writev(). FC_CONTINUE while there is more. */
static fc_status copy_window(fc_records *r, const char *data, size_t len)
{
	while (len > 0) {
		fc_copy_batch b;
		size_t batch = 0, sent, payload;
		bool whole;

		b.records = 0;
		while (b.records < FC_BATCH_RECORDS && batch < len) {
			size_t n = MIN(len - batch, FC_RECORD_MAX);
			int i = b.records++;

			fc_record_header(b.headers[i], r->req->id, n);
			b.iov[2 * i] = (struct iovec) {b.headers[i], FC_HEADER_LEN};
			b.iov[2 * i + 1] = (struct iovec) {(void *) (data + batch), n};
			b.payload[i] = n;
			batch += n;
		}
		sent = write_batch(r, &b);
		payload = payload_sent(&b, sent, &whole);
		fc_records_took(r, payload);
		fc_records_gave(r, payload);
		if (payload > 0 && sent_past_end(r)) {
			r->cut_short = FC_REASON_FILE_SHRANK;
			return FC_FALLBACK;
		}
		if (sent < batch + FC_HEADER_LEN * (size_t) b.records) {
			if (r->cut_short && whole) {
				/* the file ended between two records: nothing promised is missing */
				r->cut_short = 0;
				r->at_end = true;
				return FC_DONE;
			}
			/* a record whose header went out and whose payload did not all follow
			 * can only be ended with the connection (r->cut_short), or the socket
			 * failed (r->socket_err) */
			return FC_FALLBACK;
		}
		data += batch;
		len -= batch;
	}
	return FC_CONTINUE;
}

fc_status fc_records_by_copy(fc_records *r)
{
	static size_t page;
	bool first = true;

	if (!page) {
		page = (size_t) sysconf(_SC_PAGESIZE);
	}
	while (r->remaining > 0) {
		zend_stat_t sb;
		loff_t map_at = r->offset & ~((loff_t) page - 1);
		size_t lead = (size_t) (r->offset - map_at), len;
		void *map;
		fc_status st;

		/* The size, once per mapping: a record never promises more than the file has. */
		if (zend_fstat(r->fd, &sb) != 0 || sb.st_size <= r->offset) {
			if (first) {
				/* procfs and friends report no size: read() will tell */
				return r->job ? fc_fallback(r->job, FC_REASON_ZERO) : FC_FALLBACK;
			}
			r->at_end = true;
			return FC_DONE;
		}
		len = MIN(MIN(r->remaining, (size_t) (sb.st_size - r->offset)), (size_t) FC_COPY_RECORDS * FC_RECORD_MAX);
		map = mmap(NULL, lead + len, PROT_READ, MAP_SHARED | MAP_POPULATE, r->fd, (off_t) map_at);
		if (map == MAP_FAILED) {
			return r->job ? fc_fallback(r->job, errno) : FC_FALLBACK;
		}
		first = false;
		st = copy_window(r, (const char *) map + lead, len);
		munmap(map, lead + len);
		if (st != FC_CONTINUE) {
			return st;
		}
	}
	return FC_DONE;
}

#endif
