/* What each web server sends, once handed a file, exactly as PHP's response would
 * have been: the requests it would answer itself, the statuses and headers it
 * keeps, the names it can be given, the ranges it sends, and the header that hands
 * the file over. Read from each server's source and tried against it
 * (docs/handover.md, "What each server does with the file"). */

#include "src/sapi/handover.h"

#include "SAPI.h"
#include "php_ini.h"

int fc_handover_request_ok(const fc_handover_config *cfg)
{
	const char *method = SG(request_info).request_method, *none_match;

	/* nginx turns any other method into a GET of the file; a HEAD goes nowhere */
	if (!method || strcmp(method, "GET") != 0) {
		return FC_REASON_METHOD;
	}
	switch (cfg->server) {
		case FC_HANDOVER_NGINX:
			/* Stock's answer never meets nginx's conditionals; the file's does, with
			 * no ETag or Last-Modified of its own: If-Match and If-Unmodified-Since
			 * fail (412), If-None-Match: * matches (304). */
			none_match = fc_handover_param("HTTP_IF_NONE_MATCH");
			if (fc_handover_param("HTTP_IF_MATCH") || fc_handover_param("HTTP_IF_UNMODIFIED_SINCE")
					|| (none_match && strchr(none_match, '*'))) {
				return FC_REASON_CONDITIONAL;
			}
			return 0;
		case FC_HANDOVER_CADDY:
			/* its file_server answers ranges and every conditional itself */
			if (fc_handover_param("HTTP_RANGE") || fc_handover_param("HTTP_IF_MATCH")
					|| fc_handover_param("HTTP_IF_NONE_MATCH") || fc_handover_param("HTTP_IF_MODIFIED_SINCE")
					|| fc_handover_param("HTTP_IF_UNMODIFIED_SINCE") || fc_handover_param("HTTP_IF_RANGE")) {
				return FC_REASON_CONDITIONAL;
			}
			return 0;
		case FC_HANDOVER_LIGHTTPD:
		default:
			/* X-Sendfile2 answers none itself */
			return 0;
	}
}

typedef struct {
	const char *name, *value;
	size_t name_len, value_len;
} fc_header;

/* "Name: value" as PHP keeps it: the name up to the colon, the value after its blanks. */
static bool split_header(const sapi_header_struct *h, fc_header *out)
{
	const char *colon = memchr(h->header, ':', h->header_len), *end = h->header + h->header_len;

	if (!colon) {
		return false;
	}
	out->name = h->header;
	out->name_len = (size_t) (colon - h->header);
	for (out->value = colon + 1; out->value < end && (*out->value == ' ' || *out->value == '\t'); out->value++);
	out->value_len = (size_t) (end - out->value);
	return true;
}

static bool named(const fc_header *h, const char *name)
{
	return h->name_len == strlen(name) && !strncasecmp(h->name, name, h->name_len);
}

static bool named_any(const fc_header *h, const char *const *names)
{
	for (; *names; names++) {
		if (named(h, *names)) {
			return true;
		}
	}
	return false;
}

/* How often PHP's headers carry this name (the letters' case as written). */
static int count_named(const char *name, size_t len, bool exact_case)
{
	zend_llist_position pos;
	int n = 0;

	for (sapi_header_struct *h = zend_llist_get_first_ex(&SG(sapi_headers).headers, &pos); h;
			h = zend_llist_get_next_ex(&SG(sapi_headers).headers, &pos)) {
		fc_header f;

		if (split_header(h, &f) && f.name_len == len
				&& (exact_case ? !memcmp(f.name, name, len) : !strncasecmp(f.name, name, len))) {
			n++;
		}
	}
	return n;
}

/* nginx's configuration gives it back: one of the names FASTCOPY_HANDOVER_HEADERS
 * lists, spelled as there, since add_header writes its own spelling. */
static bool given_back(const fc_handover_config *cfg, const fc_header *h)
{
	const char *p = cfg->headers;

	while (*p) {
		size_t len = strcspn(p, " ,");

		if (len == h->name_len && !memcmp(p, h->name, len)) {
			return true;
		}
		p += len;
		p += strspn(p, " ,");
	}
	return false;
}

/* nginx copies these to the file's response itself (the `redirect` ones of
 * ngx_http_upstream_headers_in), each line as stock's relay copies it. */
static const char *const nginx_keeps[] = {"Content-Type", "Set-Cookie", "Content-Disposition", "Cache-Control",
	"Expires", "Accept-Ranges", "Content-Length", NULL};
/* and puts its own in place of these, or acts on them */
static const char *const nginx_replaces[] = {"Date", "Server", "Status", "X-Accel-Redirect", "X-Accel-Charset", NULL};
/* it takes these for itself either way: how to buffer the script's answer (which
 * Nextcloud sets on downloads), how long to cache it, how fast to send it */
static const char *const nginx_takes[] = {"X-Accel-Buffering", "X-Accel-Expires", "X-Accel-Limit-Rate", NULL};
/* Caddy's copy_response_headers copies every header, hop-by-hop ones too, which
 * stock's relay drops; its file_server answers with its own encoding. */
static const char *const caddy_refuses[] = {"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Alt-Svc", "Content-Encoding",
	"X-Accel-Redirect", "Status", NULL};
/* lighttpd would take these for a hand-over of the script's own */
static const char *const lighttpd_refuses[] = {"X-Sendfile", "X-Sendfile2", "X-LIGHTTPD-send-file", NULL};

static bool header_kept(const fc_handover_config *cfg, const fc_header *h)
{
	switch (cfg->server) {
		case FC_HANDOVER_NGINX:
			if (named_any(h, nginx_keeps) || named_any(h, nginx_takes)) {
				return true;
			}
			if (named_any(h, nginx_replaces) || (h->name_len >= 8 && !strncasecmp(h->name, "X-Accel-", 8))) {
				return false;
			}
			/* $upstream_http_NAME is the first line only, and an empty one adds none */
			return given_back(cfg, h) && h->value_len > 0 && count_named(h->name, h->name_len, true) == 1;
		case FC_HANDOVER_CADDY:
			if (named_any(h, caddy_refuses)) {
				return false;
			}
			/* its file_server's own are replaced by the first line of each */
			return !(named(h, "ETag") || named(h, "Last-Modified")) || count_named(h->name, h->name_len, false) == 1;
		case FC_HANDOVER_LIGHTTPD:
		default:
			return !named_any(h, lighttpd_refuses);
	}
}

int fc_handover_response_ok(const fc_handover_config *cfg)
{
	int status = SG(sapi_headers).http_response_code;
	zend_llist_position pos;

	if (cfg->server == FC_HANDOVER_LIGHTTPD) {
		/* it keeps the script's status, and sends the range as the body */
		if (status < 200 || status == 204 || status == 205 || status == 304) {
			return FC_REASON_STATUS;
		}
	} else if (status != 200 || INI_INT("cgi.nph")) {
		/* nginx and Caddy answer 200 with the file, whatever the script said */
		return FC_REASON_STATUS;
	}
	for (sapi_header_struct *h = zend_llist_get_first_ex(&SG(sapi_headers).headers, &pos); h;
			h = zend_llist_get_next_ex(&SG(sapi_headers).headers, &pos)) {
		fc_header f;

		if (h->header_len == 0) {
			continue;
		}
		if (!split_header(h, &f) || !header_kept(cfg, &f)) {
			return FC_REASON_HEADERS;
		}
	}
	/* nginx and Caddy would type the file by its name */
	if (cfg->server != FC_HANDOVER_LIGHTTPD && count_named("Content-Type", sizeof("Content-Type") - 1, false) == 0) {
		return FC_REASON_HEADERS;
	}
	return 0;
}

zend_off_t fc_handover_content_length(void)
{
	zend_llist_position pos;
	zend_off_t length = -1;

	for (sapi_header_struct *h = zend_llist_get_first_ex(&SG(sapi_headers).headers, &pos); h;
			h = zend_llist_get_next_ex(&SG(sapi_headers).headers, &pos)) {
		fc_header f;

		if (split_header(h, &f) && named(&f, "Content-Length")) {
			char digits[32];
			char *end;

			if (f.value_len == 0 || f.value_len >= sizeof(digits) || length >= 0) {
				/* not one plain number: no range can match it */
				return ZEND_LONG_MAX;
			}
			memcpy(digits, f.value, f.value_len);
			digits[f.value_len] = '\0';
			length = (zend_off_t) ZEND_STRTOL(digits, &end, 10);
			if (*end || length < 0) {
				return ZEND_LONG_MAX;
			}
		}
	}
	return length;
}

/* Whether the bytes are UTF-8 (lighttpd answers 502 to a name that is not). */
static bool utf8(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;

		if (n == 0 || i + n > len || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4)) {
			return false;
		}
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80) {
				return false;
			}
		}
		if ((n == 3 && ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0)))
				|| (n == 4 && ((c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] >= 0x90)))) {
			/* overlong, a surrogate, or past U+10FFFF */
			return false;
		}
		i += n;
	}
	return true;
}

int fc_handover_name_ok(const fc_handover_config *cfg, const char *path, size_t len)
{
	switch (cfg->server) {
		case FC_HANDOVER_LIGHTTPD:
			/* it turns control characters into '_' and refuses what is not UTF-8 */
			for (size_t i = 0; i < len; i++) {
				if ((unsigned char) path[i] < 0x20 || path[i] == 0x7f) {
					return FC_REASON_NAME;
				}
			}
			return utf8((const unsigned char *) path, len) ? 0 : FC_REASON_NAME;
		case FC_HANDOVER_CADDY:
			/* the name goes raw: a '?' starts a query, a header cannot hold a line
			 * end, and a trailing blank is taken off the header's value. Caddy 2.7
			 * and later decode the rewritten path once (2.6 does not), and later ones
			 * cut it at a '#': with either, another file could be sent. */
			for (size_t i = 0; i < len; i++) {
				if ((unsigned char) path[i] < 0x20 || path[i] == 0x7f || path[i] == '?'
						|| path[i] == '%' || path[i] == '#') {
					return FC_REASON_NAME;
				}
			}
			return len > 0 && (path[len - 1] == ' ' || path[len - 1] == '\t') ? FC_REASON_NAME : 0;
		case FC_HANDOVER_NGINX:
		default:
			/* percent-encoded, decoded once */
			return 0;
	}
}

/* nginx and Caddy send the whole file; lighttpd's X-Sendfile2 any range of it */
bool fc_handover_whole_files(const fc_handover_config *cfg)
{
	return cfg->server != FC_HANDOVER_LIGHTTPD;
}

int fc_handover_range_ok(const fc_handover_config *cfg, zend_off_t start, zend_off_t end, zend_off_t size)
{
	if (end <= start || (fc_handover_whole_files(cfg) && (start != 0 || end != size))) {
		return FC_REASON_PARTIAL;
	}
	return 0;
}

/* Every byte but the unreserved ones and '/' as %XX, which nginx and lighttpd
 * decode exactly once. */
static void percent_encode(smart_str *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char) s[i];

		if (fc_handover_plain_char(c)) {
			smart_str_appendc(out, (char) c);
		} else {
			smart_str_appendc(out, '%');
			smart_str_appendc(out, hex[c >> 4]);
			smart_str_appendc(out, hex[c & 15]);
		}
	}
}

void fc_handover_header(const fc_handover_config *cfg, const char *path, size_t len, zend_off_t start,
	zend_off_t end, smart_str *out)
{
	/* the name under the directory, from its '/' on */
	const char *rel = path + cfg->dir_len;
	size_t rel_len = len - cfg->dir_len;

	switch (cfg->server) {
		case FC_HANDOVER_NGINX:
			smart_str_appends(out, "X-Accel-Redirect: ");
			smart_str_appends(out, cfg->uri);
			percent_encode(out, rel + 1, rel_len - 1);
			break;
		case FC_HANDOVER_LIGHTTPD:
			smart_str_appends(out, "X-Sendfile2: ");
			percent_encode(out, path, len);
			smart_str_appendc(out, ' ');
			smart_str_append_long(out, (zend_long) start);
			smart_str_appendc(out, '-');
			smart_str_append_long(out, (zend_long) end - 1);
			break;
		case FC_HANDOVER_CADDY:
		default:
			smart_str_appends(out, "X-Accel-Redirect: ");
			smart_str_appendl(out, rel, rel_len);
			break;
	}
}
