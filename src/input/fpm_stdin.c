/* A mirror of PHP-FPM's own reads of a request body: fpm_main.c's
 * sapi_cgi_read_post() and main/fastcgi.c's fcgi_read(), call by call, over reads
 * as large as a record's payload, so that each fill of php://input gets what stock's
 * would, and the request's in_len, in_pad and keep end as stock leaves them. */

#include "src/input/fpm_stdin.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#include <errno.h>
#include <unistd.h>

#define FCGI_STDIN 5

/* read() until count bytes, end of file or an error; *ended says which ended it. */
size_t fc_read_full(int fd, unsigned char *to, size_t count, int *ended)
{
	size_t n = 0;

	*ended = 0;
	while (n < count) {
		ssize_t r;

		errno = 0;
		r = read(fd, to + n, count - n);
		if (r > 0) {
			n += (size_t) r;
		} else if (r == 0) {
			*ended = 1;
			break;
		} else if (errno != EINTR) {
			*ended = -1;
			break;
		}
	}
	return n;
}

/* FPM's safe_read() of count bytes of our own (a header, padding): count, fewer
 * at end of file, -1 on an error. What was read ahead is served first, and the
 * way its read ended shows only once it is used up, where stock's own read would
 * have ended. */
static ssize_t read_exact(fc_stdin *s, unsigned char *to, size_t count)
{
	size_t n = MIN(count, s->ahead_len - s->ahead_pos);
	int ended;

	memcpy(to, s->ahead + s->ahead_pos, n);
	s->ahead_pos += n;
	if (n == count) {
		return (ssize_t) n;
	}
	if (s->ahead_ended != 0) {
		ended = s->ahead_ended;
	} else {
		n += fc_read_full(s->req->fd, to + n, count - n, &ended);
	}
	if (ended != 0) {
		s->ended = ended;
	}
	return ended < 0 ? -1 : (ssize_t) n;
}

/* Padding, and the header stock reads right after it when the batch needs more:
 * one read() for both. */
static ssize_t read_padding(fc_stdin *s, size_t pad)
{
	unsigned char scratch[255];

	if (s->consumed < s->cap && s->ahead_pos == s->ahead_len && s->ahead_ended == 0) {
		s->ahead_pos = 0;
		s->ahead_len = fc_read_full(s->req->fd, s->ahead, pad + FC_HEADER_BYTES, &s->ahead_ended);
	}
	return read_exact(s, scratch, pad);
}

/* One read() of up to room payload bytes into buf. When they end the record and
 * the batch needs more, its padding and the next header come in the same read:
 * they are what stock reads next. Those go to the look-ahead. */
static ssize_t read_payload_and_header(fc_stdin *s, size_t room)
{
	size_t rest = (size_t) s->req->in_len - (s->fetched - s->consumed), more = 0;
	ssize_t r;

	if (room == rest && s->fetched + rest < s->cap && s->ahead_pos == s->ahead_len && s->ahead_ended == 0) {
		more = (size_t) s->req->in_pad + FC_HEADER_BYTES;
	}
	r = read(s->req->fd, s->buf + s->fetched, room + more);
	if (r > 0 && (size_t) r > room) {
		s->ahead_pos = 0;
		s->ahead_len = (size_t) r - room;
		memcpy(s->ahead, s->buf + s->fetched + room, s->ahead_len);
		r = (ssize_t) room;
	}
	return r;
}

/* FPM's safe_read() of count payload bytes, served from what was fetched; a fetch
 * reads as much as the record and the batch still hold. */
static ssize_t read_payload(fc_stdin *s, size_t count)
{
	size_t avail;

	while (s->fetched - s->consumed < count && s->ended == 0) {
		size_t room = MIN((size_t) s->req->in_len - (s->fetched - s->consumed), s->cap - s->fetched);
		ssize_t r;

		if (room == 0) {
			break;
		}
		errno = 0;
		if (s->route) {
			r = fc_route_fetch(s, room);
			if (r < 0 && errno == EAGAIN) {
				continue; /* off the route now: read() the rest */
			}
		} else {
			r = read_payload_and_header(s, room);
		}
		if (r > 0) {
			s->fetched += (size_t) r;
		} else if (r == 0) {
			s->ended = 1;
		} else if (errno != EINTR) {
			s->ended = -1;
		}
	}
	avail = s->fetched - s->consumed;
	if (avail >= count) {
		s->consumed += count;
		return (ssize_t) count;
	}
	if (s->ended < 0) {
		/* what safe_read() had gathered is lost with the error */
		return -1;
	}
	s->consumed += avail;
	return (ssize_t) avail;
}

/* main/fastcgi.c's fcgi_read(), decision for decision, over the mirror's reads. */
static int mirror_fcgi_read(fc_stdin *s, int len)
{
	fc_fcgi_request *req = s->req;
	unsigned char hdr[FC_HEADER_BYTES];
	int n = 0, rest = len;

	while (rest > 0) {
		ssize_t ret;

		if (req->in_len == 0) {
			if (read_exact(s, hdr, sizeof(hdr)) != (ssize_t) sizeof(hdr) || hdr[0] < 1 || hdr[1] != FCGI_STDIN) {
				s->drop_conn = true;
				return 0;
			}
			req->in_len = (hdr[4] << 8) | hdr[5];
			req->in_pad = hdr[6];
			if (req->in_len == 0) {
				return n;
			}
		}
		ret = read_payload(s, (size_t) MIN(req->in_len, rest));
		if (ret < 0) {
			s->drop_conn = true;
			return (int) ret;
		}
		if (ret == 0) {
			return n;
		}
		req->in_len -= (int) ret;
		rest -= (int) ret;
		n += (int) ret;
		if (req->in_len != 0) {
			return n;
		}
		if (req->in_pad && read_padding(s, (size_t) req->in_pad) != req->in_pad) {
			s->drop_conn = true;
			/* as fcgi_read(): the last read's count, not the call's */
			return (int) ret;
		}
	}
	return n;
}

/* fpm_main.c's sapi_cgi_read_post() for one whole fill. */
size_t fc_stdin_read_fill(fc_stdin *s)
{
	size_t got = 0;

	while (got < FC_FILL) {
		int r = mirror_fcgi_read(s, (int) (FC_FILL - got));

		if (r <= 0) {
			break;
		}
		got += (size_t) r;
	}
	return got;
}

#endif
