/* Proving, before anything is handed to Apache, that SG(server_context) is
 * mod_php's request as this path reads it: once per process, Apache 2.4's module ABI
 * and every Apache and APR function found; once per request, that the request is
 * the one PHP is serving; on every copy, its state and that its output filters end
 * in Apache's core. Every structure is read through the kernel (guarded_read.c). */

#include "src/sapi/apache_guard.h"
#include "src/sapi/guarded_read.h"
#include "src/core/sapi_name.h"

#include "SAPI.h"

#ifdef FASTCOPY_HAVE_APACHE

#include <dlfcn.h>
#include <strings.h>
#include <sys/uio.h>

/* Filters walked before giving up on finding the core filter. */
#define FC_APACHE_MAX_FILTERS 64

fc_apache_apr fc_apr;

/* What this process has proven. */
static struct {
	bool checked;
	const char *failed; /* why the path is off for good in this process */
} guard;

static bool sapi_is_apache(void)
{
	return fc_sapi_is(FC_SAPI_APACHE);
}

/* A string of Apache's equals one of PHP's, read through the kernel. */
static bool same_string(const char *theirs, const char *ours)
{
	size_t len;
	char *copy;
	bool same;

	if (!theirs || !ours) {
		return theirs == ours;
	}
	len = strlen(ours) + 1;
	copy = emalloc(len);
	same = fc_guarded_read(theirs, copy, len) && memcmp(copy, ours, len) == 0;
	efree(copy);
	return same;
}

static void *symbol(const char *name, bool *missing)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (!p) {
		*missing = true;
	}
	return p;
}

/* A module structure of Apache 2.4's ABI: its version is the module magic number
 * major it was built against, and its magic the cookie. */
static bool module_of_24(const char *name)
{
	fc_ap_module m;
	const void *addr = dlsym(RTLD_DEFAULT, name);

	return addr && fc_guarded_read_aligned(addr, &m, sizeof(m)) && m.version == FC_AP_MMN_MAJOR && m.magic == FC_AP_MAGIC_COOKIE;
}

/* Once per process: Apache 2.4 and a mod_php built for it, and every function. */
static const char *check_process(void)
{
	bool missing = false;

	if (!module_of_24("core_module")) {
		return "Apache's core module is not Apache 2.4's ABI";
	}
	if (!module_of_24("php_module") && !module_of_24("php7_module")) {
		return "mod_php's module is not built for Apache 2.4's ABI";
	}
	fc_apr.fflush = (int (*)(fc_ap_filter *, void *)) symbol("ap_fflush", &missing);
	fc_apr.brigade_create = (void *(*)(void *, void *)) symbol("apr_brigade_create", &missing);
	fc_apr.brigade_destroy = (int (*)(void *)) symbol("apr_brigade_destroy", &missing);
	fc_apr.brigade_insert_file = (void *(*)(void *, void *, int64_t, int64_t, void *))
		symbol("apr_brigade_insert_file", &missing);
	fc_apr.bucket_file_enable_mmap = (int (*)(void *, int)) symbol("apr_bucket_file_enable_mmap", &missing);
	fc_apr.os_file_put = (int (*)(void **, int *, int32_t, void *)) symbol("apr_os_file_put", &missing);
	fc_apr.pool_cleanup_register = (void (*)(void *, const void *, fc_cleanup_fn, fc_cleanup_fn))
		symbol("apr_pool_cleanup_register", &missing);
	fc_apr.pool_cleanup_null = (fc_cleanup_fn) symbol("apr_pool_cleanup_null", &missing);
	fc_apr.core_module_config = (void *(*)(void *const *)) symbol("ap_get_core_module_config", &missing);
	fc_apr.core_output_filter = (fc_ap_filter_rec **) symbol("ap_core_output_filter_handle", &missing);
	fc_apr.brigade_write = (int (*)(void *, int (*)(void *, void *), void *, const char *, size_t))
		symbol("apr_brigade_write", &missing);
	fc_apr.brigade_cleanup = (int (*)(void *)) symbol("apr_brigade_cleanup", &missing);
	if (missing) {
		return "an Apache or APR function was not found";
	}
	/* Optional: without it APR reads 8,000 bytes at a time where it cannot sendfile. */
	fc_apr.bucket_file_set_buf_size = (int (*)(void *, size_t)) dlsym(RTLD_DEFAULT, "apr_bucket_file_set_buf_size");
	return NULL;
}

/* Once per process (per fork: prefork's children are forks of the parent): NULL,
 * or why the path is off for good. */
static const char *process_checked(void)
{
	if (!guard.checked) {
		fc_guarded_self();
		guard.failed = check_process();
		guard.checked = true;
	}
	return guard.failed;
}

static bool filter_name(const fc_ap_filter_rec *frec, char *buf, size_t len)
{
	fc_ap_filter_rec rec;

	return fc_guarded_read_aligned(frec, &rec, sizeof(rec)) && fc_guarded_read_string(rec.name, buf, len);
}

/* Apache's own filters that hand a FILE bucket on to the core unread (or only split
 * it): the core then sends it, and fails the write, aborting the connection, if the
 * file ends before the bucket does. Any other filter may read it, and mod_ssl takes a
 * bucket that ends early for one that is whole. */
static bool passes_file_unread(const char *name)
{
	static const char *const names[] = {"old_write", "byterange", "content_length", "http_header",
		"http_outerror", "chunk", "log_input_output"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(name, names[i]) == 0) {
			return true;
		}
	}
	return false;
}

/* The request's output filters end in Apache's core output filter, on the
 * request's own connection (not an HTTP/2 stream's, whose chain ends in mod_http2). */
static int check_filters(fc_apache_request *req)
{
	fc_ap_filter_rec *core;
	const fc_ap_filter *addr = req->r.output_filters;
	char name[32];

	if (!fc_guarded_read_aligned(fc_apr.core_output_filter, &core, sizeof(core))) {
		return FC_REASON_UNVERIFIED;
	}
	for (int i = 0; addr && i < FC_APACHE_MAX_FILTERS; i++) {
		fc_ap_filter f;

		/* Request filters point back at the request, connection filters at none. */
		if (!fc_guarded_read_aligned(addr, &f, sizeof(f)) || f.c != req->r.connection || (f.r && f.r != req->addr)) {
			return FC_REASON_UNVERIFIED;
		}
		if (!f.next) {
			return f.frec == core ? 0 : FC_REASON_FILTER_CHAIN;
		}
		if (!filter_name(f.frec, name, sizeof(name))) {
			return FC_REASON_UNVERIFIED;
		}
		if (i == 0 && strcasecmp(name, "old_write") == 0) {
			req->settled = true;
		} else if (strcasecmp(name, "deflate") == 0) {
			req->deflate = true;
		}
		if (!passes_file_unread(name)) {
			req->reads = true;
		}
		addr = f.next;
	}
	return FC_REASON_FILTER_CHAIN;
}

/* The request proven last: sabre/http sends a download as hundreds of 4 MiB copies,
 * and a later copy of the same request re-reads only what can change, walking the
 * filter chain again when its head moved; once mod_php's own filter heads the chain
 * (settled), it reuses the request as last read (`last`). */
ZEND_TLS struct {
	const void *ctx;
	fc_ap_request *r;
	fc_ap_conn *c;
	void *pool;
	int64_t request_time;
	double php_time;      /* SG(global_request_time): PHP resets it at each request's start */
	fc_ap_filter *filters;
	bool deflate;
	bool settled;
	bool reads;
	bool sendfile;
	bool have_last;
	fc_apache_request last;
} proven;

/* What the copy may not do in this state of the request: 0, or the reason. */
static int request_state(const fc_apache_request *req)
{
	if (req->r.main) {
		return FC_REASON_SUBREQUEST;
	}
	if (req->r.header_only) {
		return FC_REASON_HEAD;
	}
	return req->c.aborted ? FC_REASON_CLIENT_ABORTED : 0;
}

/* The chain, walked again if its head moved since it was proven (flushing the output
 * layer the first time puts mod_php's ap_rwrite() filter in front). */
static int proven_filters(fc_apache_request *req)
{
	int reason;

	if (req->r.output_filters != proven.filters) {
		proven.filters = NULL;
		if ((reason = check_filters(req)) != 0) {
			return reason;
		}
		proven.filters = req->r.output_filters;
		proven.deflate = req->deflate;
		proven.settled = req->settled;
		proven.reads = req->reads;
	}
	req->deflate = proven.deflate;
	req->settled = proven.settled;
	req->reads = proven.reads;
	req->sendfile = proven.sendfile;
	return 0;
}

/* Once per request: mod_php points PHP's request method at Apache's own string,
 * copies the URI, and made its brigade from the request's pool and connection;
 * the directory's core configuration says whether sendfile may be used. */
static int check_request(const fc_php_apache_ctx *ctx, fc_apache_request *req)
{
	fc_apr_brigade bb;
	fc_ap_core_dir dir;

	if (!fc_guarded_read_aligned(ctx->brigade, &bb, sizeof(bb)) || req->r.method != SG(request_info).request_method
			|| !same_string(req->r.uri, SG(request_info).request_uri) || !req->r.pool || bb.p != req->r.pool
			|| !bb.bucket_alloc || bb.bucket_alloc != req->c.bucket_alloc || !req->r.per_dir_config
			|| !fc_guarded_read_aligned(fc_apr.core_module_config(req->r.per_dir_config), &dir, sizeof(dir))) {
		return FC_REASON_UNVERIFIED;
	}
	proven.ctx = SG(server_context);
	proven.r = ctx->r;
	proven.c = req->r.connection;
	proven.pool = req->r.pool;
	proven.request_time = req->r.request_time;
	proven.filters = NULL;
	proven.sendfile = dir.enable_sendfile != FC_AP_ENABLE_OFF;
	proven.php_time = sapi_get_request_time();
	proven.have_last = false;
	return 0;
}

/* mod_php's context, its request and the request's connection. In a request already
 * proven they are read where they were, in one call, and must point at each other
 * as before; otherwise one after the other. */
static bool read_request(fc_php_apache_ctx *ctx, fc_apache_request *req)
{
	if (SG(server_context) == proven.ctx && proven.ctx) {
		struct iovec local[3] = {{ctx, sizeof(*ctx)}, {&req->r, sizeof(req->r)}, {&req->c, sizeof(req->c)}};
		struct iovec remote[3] = {{(void *) proven.ctx, sizeof(*ctx)}, {proven.r, sizeof(req->r)},
			{proven.c, sizeof(req->c)}};

		if (fc_guarded_readv(local, remote, 3) && ctx->r == proven.r && req->r.connection == proven.c) {
			return true;
		}
	}
	return fc_guarded_read_aligned(SG(server_context), ctx, sizeof(*ctx)) && fc_guarded_read_aligned(ctx->r, &req->r, sizeof(req->r))
		&& fc_guarded_read_aligned(req->r.connection, &req->c, sizeof(req->c));
}

/* Every copy: SG(server_context) is mod_php's php_struct for the request PHP is
 * serving, and where its bytes may go. 0, or the reason to keep the output layer. */
int fc_apache_verified_request(fc_apache_request *req)
{
	fc_php_apache_ctx ctx;
	int reason;

	if (process_checked()) {
		return FC_REASON_UNVERIFIED;
	}
	/* A later copy in the request proven last, its chain settled: nothing PHP does
	 * between two copies changes the request, its state or its chain, except the
	 * request mod_php serves (virtual() runs a sub-request on the same context), read
	 * from the context proven in this request. A client gone shows in the pass. */
	if (proven.have_last && SG(server_context) == proven.ctx && proven.php_time != 0
			&& SG(global_request_time) == proven.php_time
			&& ((const fc_php_apache_ctx *) proven.ctx)->r == proven.r) {
		*req = proven.last;
		return 0;
	}
	proven.have_last = false;
	memset(req, 0, sizeof(*req));
	if (SG(server_context) != proven.ctx) {
		fc_guarded_self();
	}
	if (!read_request(&ctx, req)) {
		return FC_REASON_UNVERIFIED;
	}
	req->addr = ctx.r;
	if ((SG(server_context) != proven.ctx || ctx.r != proven.r || req->r.pool != proven.pool
			|| req->r.request_time != proven.request_time) && (reason = check_request(&ctx, req)) != 0) {
		proven.ctx = NULL;
		return reason;
	}
	if ((reason = request_state(req)) != 0) {
		return reason;
	}
	return proven_filters(req);
}

/* After the output layer's flush: the filters once more, from the request as it is now. */
int fc_apache_reverified_filters(fc_apache_request *req)
{
	if (req->settled) {
		return 0;
	}
	if (!fc_guarded_read_aligned(req->addr, &req->r, sizeof(req->r))) {
		return FC_REASON_UNVERIFIED;
	}
	return proven_filters(req);
}

/* A copy whose request is settled: the next copy of this PHP request reuses it. */
void fc_apache_remember(const fc_apache_request *req)
{
	proven.last = *req;
	proven.have_last = true;
}

bool fc_apache_possible(void)
{
	return sapi_is_apache() && !guard.failed;
}

/* NULL when the path can serve this process, or why it cannot (phpinfo()). */
const char *fc_apache_unavailable(void)
{
	if (!sapi_is_apache()) {
		return "the SAPI is not Apache's mod_php";
	}
	return process_checked();
}

#endif
