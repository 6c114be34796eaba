/* What the web server declared for the hand-over, per request, in FastCGI parameters
 * of its own configuration (a client's headers arrive as HTTP_*, never under these
 * names): which server it is and, for nginx, its internal location
 * (FASTCOPY_HANDOVER), the one directory it may send files from
 * (FASTCOPY_HANDOVER_DIR), and for nginx the response headers its configuration
 * gives back (FASTCOPY_HANDOVER_HEADERS). They are read as PHP-FPM passed them,
 * without PHP's input filter (docs/handover.md). */

#include "src/sapi/handover.h"
#include "src/core/sapi_name.h"

#include "SAPI.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *fc_handover_param(const char *name)
{
	const char *value = sapi_module.getenv ? sapi_module.getenv(name, strlen(name)) : NULL;

	return value && *value ? value : NULL;
}

/* nginx's internal location: a path of plain characters, '/' at both ends, which
 * the hand-over header carries as it is. */
static bool plain_location(const char *uri)
{
	size_t len = strlen(uri);

	if (len < 2 || uri[0] != '/' || uri[len - 1] != '/') {
		return false;
	}
	for (const char *p = uri; *p; p++) {
		if (!fc_handover_plain_char((unsigned char) *p)) {
			return false;
		}
	}
	return true;
}

const char *fc_handover_config_read(fc_handover_config *cfg)
{
	const char *kind, *dir, *headers, *space;
	char resolved[PATH_MAX];
	struct stat sb;
	size_t kind_len;

	memset(cfg, 0, sizeof(*cfg));
	if (!fc_sapi_is(FC_SAPI_FPM)) {
		return "the SAPI is not PHP-FPM";
	}
	if (!(kind = fc_handover_param("FASTCOPY_HANDOVER"))) {
		return "no FASTCOPY_HANDOVER parameter for this request";
	}
	space = strchr(kind, ' ');
	kind_len = space ? (size_t) (space - kind) : strlen(kind);
	if (kind_len == 5 && !strncmp(kind, "nginx", 5)) {
		cfg->server = FC_HANDOVER_NGINX;
		if (!space || !plain_location(space + 1)) {
			return "FASTCOPY_HANDOVER: nginx needs its internal location, as in \"nginx /fastcopy-handover/\"";
		}
		cfg->uri = estrdup(space + 1);
	} else if (kind_len == 8 && !strncmp(kind, "lighttpd", 8) && !space) {
		cfg->server = FC_HANDOVER_LIGHTTPD;
	} else if (kind_len == 5 && !strncmp(kind, "caddy", 5) && !space) {
		cfg->server = FC_HANDOVER_CADDY;
	} else {
		return "FASTCOPY_HANDOVER: not nginx, lighttpd or caddy";
	}
	/* Resolved as the kernel names files: a file's path, read from its descriptor,
	 * must begin with it. */
	if (!(dir = fc_handover_param("FASTCOPY_HANDOVER_DIR")) || dir[0] != '/' || !realpath(dir, resolved)
			|| stat(resolved, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		fc_handover_config_release(cfg);
		return "FASTCOPY_HANDOVER_DIR: not an absolute path to a directory";
	}
	cfg->dir_len = strlen(resolved);
	if (cfg->dir_len == 1) {
		/* "/" would let every file the worker can read be sent: a mistake, not a data directory */
		fc_handover_config_release(cfg);
		return "FASTCOPY_HANDOVER_DIR: the root directory, not a data directory";
	}
	cfg->dir = estrndup(resolved, cfg->dir_len);
	headers = fc_handover_param("FASTCOPY_HANDOVER_HEADERS");
	cfg->headers = estrdup(headers ? headers : "");
	return NULL;
}

void fc_handover_config_release(fc_handover_config *cfg)
{
	if (cfg->dir) {
		efree(cfg->dir);
	}
	if (cfg->uri) {
		efree(cfg->uri);
	}
	if (cfg->headers) {
		efree(cfg->headers);
	}
	memset(cfg, 0, sizeof(*cfg));
}
