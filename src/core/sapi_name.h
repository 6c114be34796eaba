/* Which SAPI this process runs under: the one place its name is compared. */

#ifndef FASTCOPY_SAPI_NAME_H
#define FASTCOPY_SAPI_NAME_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"

typedef enum {
	FC_SAPI_CLI,       /* writes unbuffered output straight to descriptor 1 */
	FC_SAPI_FPM,       /* PHP-FPM: FastCGI, its request body in its socket */
	FC_SAPI_CGI_FCGI,  /* php-cgi, in FastCGI mode or not */
	FC_SAPI_APACHE     /* mod_php, Apache's apache2handler */
} fc_sapi;

bool fc_sapi_is(fc_sapi sapi);

#endif
