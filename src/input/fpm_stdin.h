/* PHP-FPM's STDIN as the fastcgi_input path reads it: batches of whole fills read
 * by a mirror of FPM's own reads (fpm_stdin.c), whose payloads may take the
 * splice-and-clone route into the destination file (splice_route.c). */

#ifndef FASTCOPY_FPM_STDIN_H
#define FASTCOPY_FPM_STDIN_H

#include "src/input/input.h"
#include "src/sapi/fastcgi_request.h"

#ifdef FASTCOPY_HAVE_FASTCGI

#define FC_FILL         FC_REQUEST_BODY_FILL
#define FC_HEADER_BYTES 8

/* The splice route of one copy. */
typedef struct {
	int pipe_rd, pipe_wr;
	int out_fd;
	int file_rd;         /* the file, readable: the clone's source */
	zend_off_t out_at;   /* the file's offset: where the next payload lands */
	bool on;
} fc_route;

/* One batch read from the socket. */
typedef struct {
	fc_fcgi_request *req;
	char *buf;
	size_t cap;       /* the batch: whole fills */
	size_t fetched;   /* payload bytes taken from the socket: [landed, fetched) in buf or the pipe */
	size_t consumed;  /* of which the mirrored fcgi_read() has taken */
	int ended;        /* the socket said end of file (1) or failed (-1) */
	bool drop_conn;   /* fcgi_read() would have cleared keep */
	/* padding and the next header, read at once while the batch needs that header */
	unsigned char ahead[255 + FC_HEADER_BYTES];
	size_t ahead_pos, ahead_len;
	int ahead_ended;
	/* the splice route: payloads in the pipe, then in the file */
	fc_job *job;
	fc_route *route;  /* NULL: payloads read into buf */
	size_t landed;    /* payload bytes already in the file */
	size_t committed; /* bytes of the fills taken whole so far */
} fc_stdin;

/* fpm_stdin.c */
/* read() until count bytes, end of file or an error; *ended says which ended it. */
size_t fc_read_full(int fd, unsigned char *to, size_t count, int *ended);
/* One whole fill as fpm_main.c's sapi_cgi_read_post() reads it: what it got. */
size_t fc_stdin_read_fill(fc_stdin *s);

/* splice_route.c */
void fc_route_open(fc_route *route, fc_job *job, int spool_fd, const zend_stat_t *sb, zend_off_t edge);
void fc_route_close(fc_route *route);
ssize_t fc_route_fetch(fc_stdin *s, size_t room);
void fc_route_flush_some(fc_stdin *s);
void fc_route_finish(fc_stdin *s);
size_t fc_route_spool(fc_route *route, int spool_fd, zend_off_t at, zend_off_t from, size_t len, char *buf,
	size_t *read_back);

#endif

#endif
