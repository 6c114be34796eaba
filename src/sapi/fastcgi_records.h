/* PHP-FPM's response as FCGI_STDOUT records of the fastcgi path's own: their
 * format and the state of one range sent as them, shared by the route that splices
 * the payload from the page cache (fastcgi.c) and the one that writes it from a
 * mapping of the file (fastcgi_copy.c). */

#ifndef FASTCOPY_FASTCGI_RECORDS_H
#define FASTCOPY_FASTCGI_RECORDS_H

#include "src/sapi/fastcgi_request.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#define FCGI_VERSION_1 1
#define FCGI_STDOUT    6
/* FPM's own record size for large writes: the largest multiple of 8 that fits. */
#define FC_RECORD_MAX  0xfff8
#define FC_HEADER_LEN  8
/* Records per batch: the size of the file is taken once per batch (after it, on
 * the copy route). */
#define FC_BATCH_RECORDS 14

typedef struct {
	fc_job *job;            /* the copy, or NULL for a range sent on its own (a hand-over given up) */
	fc_fcgi_request *req;
	int fd;                 /* the source file */
	loff_t offset;          /* where the next payload byte is read */
	size_t remaining;       /* bytes still to send (SIZE_MAX: to the end) */
	bool at_end;            /* the file has ended */
	int pipe_rd, pipe_wr;
	size_t in_pipe;         /* bytes in our pipe: headers and payload */
	size_t payload_in_pipe; /* of which payload taken from the file */
	bool header_pending;    /* the last thing in the pipe is a header with no payload yet */
	int socket_err;         /* the socket failed: the connection is lost */
	int cut_short;          /* the file ended (or failed) inside a record: why */
} fc_records;

static inline void fc_record_header(unsigned char *h, int id, size_t len)
{
	h[0] = FCGI_VERSION_1;
	h[1] = FCGI_STDOUT;
	h[2] = (unsigned char) (id >> 8);
	h[3] = (unsigned char) id;
	h[4] = (unsigned char) (len >> 8);
	h[5] = (unsigned char) len;
	h[6] = 0; /* no padding: FPM's own large records have none either */
	h[7] = 0;
}

/* Bytes read from the file, and bytes delivered: accounted on the copy as its
 * stream reads and writes would have been. */
static inline void fc_records_took(fc_records *r, size_t n)
{
	r->offset += (loff_t) n;
	if (r->remaining != SIZE_MAX) {
		r->remaining -= n;
	}
	if (r->job) {
		fc_job_took(r->job, n);
	}
}

static inline void fc_records_gave(fc_records *r, size_t n)
{
	if (r->job) {
		fc_job_gave(r->job, n);
	}
}

/* fastcgi_copy.c: r's range as records written from a mapping of the file, each
 * header and its payload in one writev(); the file's end inside a record sets
 * r->cut_short, a failed socket r->socket_err, as the splice route does. */
fc_status fc_records_by_copy(fc_records *r);

#endif

#endif
