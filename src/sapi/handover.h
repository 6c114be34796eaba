/* The hand-over (handover.c): under PHP-FPM, a file the script sends whole, and
 * nothing else, leaves as a header that has the web server send the file itself.
 * What the web server declared for it (handover_config.c) and what it sends as PHP
 * would have (handover_rules.c) are shared here. */

#ifndef FASTCOPY_HANDOVER_H
#define FASTCOPY_HANDOVER_H

#include "src/core/job.h"
#include "zend_smart_str.h"

typedef enum {
	FC_HANDOVER_NGINX,    /* X-Accel-Redirect to an internal location */
	FC_HANDOVER_LIGHTTPD, /* X-Sendfile2: a path and a byte range */
	FC_HANDOVER_CADDY     /* X-Accel-Redirect, taken by handle_response */
} fc_handover_server;

/* The web server's declaration, from FastCGI parameters a client cannot set. */
typedef struct {
	fc_handover_server server;
	char *dir;     /* the directory it may send files from, resolved, without a trailing slash */
	size_t dir_len;
	char *uri;     /* nginx: its internal location, '/' at both ends */
	char *headers; /* nginx: the response headers its configuration gives back, space-separated */
} fc_handover_config;

/* handover_config.c: NULL once cfg holds this request's declaration (release it),
 * else why there is none */
const char *fc_handover_config_read(fc_handover_config *cfg);
void fc_handover_config_release(fc_handover_config *cfg);
/* a FastCGI parameter (or request header) as PHP-FPM passed it, NULL where empty */
const char *fc_handover_param(const char *name);

/* A URL path's unreserved characters and '/', in ASCII whatever the locale: what
 * the hand-over header carries as it is. */
static inline bool fc_handover_plain_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
		|| c == '/' || c == '-' || c == '.' || c == '_' || c == '~';
}

/* handover_rules.c: 0 where the server sends what PHP would have, else the reason */
int fc_handover_request_ok(const fc_handover_config *cfg);
int fc_handover_response_ok(const fc_handover_config *cfg);
int fc_handover_name_ok(const fc_handover_config *cfg, const char *path, size_t len);
bool fc_handover_whole_files(const fc_handover_config *cfg);
int fc_handover_range_ok(const fc_handover_config *cfg, zend_off_t start, zend_off_t end, zend_off_t size);
/* the Content-Length PHP's headers carry, or -1 */
zend_off_t fc_handover_content_length(void);
/* the header line, without its line end, that hands [start, end) of path over */
void fc_handover_header(const fc_handover_config *cfg, const char *path, size_t len, zend_off_t start,
	zend_off_t end, smart_str *out);

#endif
