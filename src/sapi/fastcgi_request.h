/* PHP-FPM's request object as the fastcgi paths see it: shared by the response
 * writer (fastcgi.c) and the request body reader (src/input/fastcgi_input.c),
 * proven once per process and per connection by fastcgi_guard.c. */

#ifndef FASTCOPY_FASTCGI_REQUEST_H
#define FASTCOPY_FASTCGI_REQUEST_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "src/core/job.h"

#if defined(__linux__) && defined(HAVE_SPLICE)
# define FASTCOPY_HAVE_FASTCGI 1
#endif

#ifdef FASTCOPY_HAVE_FASTCGI

#include <netinet/tcp.h>

/* The head of main/fastcgi.c's struct _fcgi_request, as PHP 7.0 to 8.5 and master
 * define it. Only what precedes and includes the output buffer is mirrored. */
typedef struct {
	int listen_socket;
	int tcp;           /* only ever set on Windows */
	int fd;
	int id;
	int keep;
#ifdef TCP_NODELAY
	int nodelay;
#endif
	int ended;
	int in_len;
	int in_pad;
	unsigned char *out_hdr;
	unsigned char *out_pos;
	unsigned char out_buf[1024 * 8];
} fc_fcgi_request;

/* The running script's request once its layout and connection are proven, or
 * NULL with *reason set (UNVERIFIED, REQUEST_FINISHED). */
fc_fcgi_request *fc_fastcgi_request(int *reason);

/* fastcgi.c: [offset, offset + len) of the file fd as FCGI_STDOUT records on the
 * request's socket, which FPM's buffer must have left empty; *sent says how much
 * went. A lost connection or a file that ends inside a record is handled as the
 * fastcgi path handles it (the script sees an aborted connection). */
fc_status fc_fastcgi_send_range(fc_fcgi_request *req, int fd, zend_off_t offset, size_t len, size_t *sent);
/* Ends the connection inside the response, which the web server breaks off: the
 * script sees a client gone, and PHP-FPM does not keep the connection. */
void fc_fastcgi_end_connection(fc_fcgi_request *req);

/* Whether php://output ends in FastCGI records here and the guard has not refused
 * this process; NULL when the fastcgi paths can serve it, or why they cannot. */
bool fc_fastcgi_possible(void);
const char *fc_fastcgi_unavailable(void);

#endif

#endif
