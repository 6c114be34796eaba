/* Where bytes leave PHP into a server's own writer: PHP-FPM's FastCGI socket
 * (fastcgi.c), Apache's output filters (apache.c); and PHP-FPM's request body
 * (fastcgi_input.c). */

#ifndef FASTCOPY_SAPI_H
#define FASTCOPY_SAPI_H

#include "src/core/job.h"

/* fastcgi.c */
bool fc_fastcgi_possible(void);
fc_status fc_copy_fastcgi(fc_job *job);
const char *fc_fastcgi_unavailable(void);

/* fastcgi_input.c */
fc_status fc_copy_fastcgi_input(fc_job *job);
const char *fc_fastcgi_input_unavailable(void);
bool fc_fastcgi_input_possible(void);

/* apache.c */
bool fc_apache_possible(void);
fc_status fc_copy_apache(fc_job *job);
const char *fc_apache_unavailable(void);

#endif
