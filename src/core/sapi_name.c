/* Which SAPI this process runs under, by the name it registers. */

#include "src/core/sapi_name.h"
#include "SAPI.h"

static const char *const sapi_names[] = {
	[FC_SAPI_CLI] = "cli",
	[FC_SAPI_FPM] = "fpm-fcgi",
	[FC_SAPI_CGI_FCGI] = "cgi-fcgi",
	[FC_SAPI_APACHE] = "apache2handler",
};

bool fc_sapi_is(fc_sapi sapi)
{
	return strcmp(sapi_module.name, sapi_names[sapi]) == 0;
}
