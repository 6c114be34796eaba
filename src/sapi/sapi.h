/* Where bytes cross a server's own interface: PHP-FPM's FastCGI socket (fastcgi.c),
 * the web server in front of it sending the file itself (handover.c), Apache's
 * output filters (apache.c), PHP-FPM's request body from its socket
 * (input/fastcgi_input.c) or from the web server's stored file (input/body_file.c). Each
 * registers its path here, and only the engine's path table (src/engine.c) asks it. */

#ifndef FASTCOPY_SAPI_H
#define FASTCOPY_SAPI_H

#include "src/core/job.h"

typedef struct {
	const char *not_built;            /* set where this build has no such path: why */
	fc_status (*copy)(fc_job *job);
	bool (*possible)(void);           /* under that server, and not refused for good */
	const char *(*unavailable)(void); /* NULL, or why the path cannot serve this process */
	/* optional: before php://output is settled for the path, 0, or why it declines,
	 * or -1 where it is not asked at all (nothing counted) */
	int (*prepare)(fc_job *job);
} fc_server_path;

extern const fc_server_path fc_handover_path;

/* handover.c: the module's start (with the override on or off), end, and the end of
 * each request (post-deactivate: after all PHP's output, before PHP-FPM ends the
 * response) */
void fc_handover_startup(bool override_on);
void fc_handover_shutdown(void);
void fc_handover_request_end(void);
extern const fc_server_path fc_fastcgi_path;
extern const fc_server_path fc_apache_path;
extern const fc_server_path fc_fastcgi_input_path;
extern const fc_server_path fc_body_file_path;

#endif
