/* Where bytes cross a server's own interface: PHP-FPM's FastCGI socket (fastcgi.c),
 * Apache's output filters (apache.c), PHP-FPM's request body from its socket
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
} fc_server_path;

extern const fc_server_path fc_fastcgi_path;
extern const fc_server_path fc_apache_path;
extern const fc_server_path fc_fastcgi_input_path;
extern const fc_server_path fc_body_file_path;

#endif
