/* Apache's output filters as a destination. Under mod_php (apache2handler),
 * php://output ends in ap_rwrite(), which copies every byte from user memory into
 * Apache's brigades, and Apache copies it again into the socket. For a regular
 * file this path hands the file itself to the request's output filters, as Apache's
 * own handler does for a static file: a FILE bucket on a descriptor of ours
 * followed by a FLUSH. Apache's core filter then sends it with sendfile(2), and
 * mod_wsgi's wsgi.file_wrapper does the same for Python. Where a filter in between
 * reads the data (mod_ssl, mod_deflate, a third party's), the path reads the file
 * itself and hands over blocks of the bytes read instead: a FILE bucket is framed
 * (chunked encoding) before it is read, and a file cut during the send must never
 * leave framing that promised bytes the file no longer had.
 *
 * The request is a private field of mod_php: SG(server_context) is its php_struct,
 * whose head (state, request_rec, brigade) has not changed since PHP 5 but is no
 * API, and Apache's and APR's functions are not linked into PHP's other SAPIs. So
 * the functions are looked up at run time, and nothing is handed to Apache until
 * the guess is proven, reading every structure through the kernel
 * (process_vm_readv) so that a wrong pointer fails instead of faulting: once per
 * process, that Apache's core and mod_php were built for Apache 2.4's module ABI
 * (magic cookie and module magic number of both); once per request, that the
 * request is the one PHP is serving (its method is the very string PHP's request
 * info points at, its URI the same, mod_php's brigade belongs to the request's pool
 * and connection); and on every copy, that the request is still that one, is not a
 * sub-request, HEAD or aborted, and that its output filters, all of its connection,
 * end in Apache's core output filter. Any mismatch keeps the copy on the output
 * layer, with the reason in fastcopy_stats().
 *
 * Bucket settings, decided so that nothing can go worse than stock:
 * - sendfile, unless the request's directory says EnableSendfile Off: Apache's own
 *   default (unset) means off for its static files, because sendfile can serve
 *   stale data from a network filesystem; the file here is one PHP opened and
 *   reads anyway, and sendfile is the point of the path.
 * - never mmap: a file truncated while Apache reads a mapping of it kills the
 *   child with SIGBUS (mod_deflate or mod_ssl touching the pages), where stock's
 *   read loop just ends early. With EnableSendfile Off Apache's core reads the
 *   file in blocks of fastcopy.buffer_size, page-aligned: a head up to the next page boundary, then
 *   the aligned rest. EnableMMAP Off is therefore always honoured.
 * - the FLUSH makes the call return once Apache has written everything, so the
 *   return value, connection_aborted() and ignore_user_abort() behave as stock's.
 * - a range Apache could not deliver for any reason but a client gone (the file
 *   shrank under the bucket, a filter failed) ends the connection: Apache's core
 *   does that itself when its sendfile or read fails, and the path makes sure. */

#include "src/sapi/sapi.h"
#include "src/endpoint/endpoint.h"
#include "src/core/sapi_name.h"

#include "SAPI.h"
#include "php_main.h"
#include "php_output.h"

#if defined(__linux__) && defined(__LP64__) && defined(HAVE_DLFCN_H)
# define FASTCOPY_HAVE_APACHE 1
#endif

#ifdef FASTCOPY_HAVE_APACHE

#include "src/sapi/apache_abi.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* Responses that stock lets Apache see whole, measured with Apache 2.4.71 and
 * mod_php 8.2 (and kept so by tests/integration/apache_mod_php.phpt): what PHP's
 * output buffers hold and 8,000 bytes in ap_rwrite()'s buffer wait until the
 * request ends; Apache then
 * sets Content-Length and answers Range itself. Under mod_deflate the compressor
 * holds more: incompressible data was out by 60,000 bytes, 4 MiB of zeros stayed
 * whole, 16 MiB did not (zlib's best ratio, about 1,000:1, fills DeflateBufferSize's
 * 8 KiB by about 8 MiB). A FLUSH from here would end that, so copies below these
 * sizes (plus what PHP's buffers may hold) keep the output layer. */
#define FC_APACHE_MIN_PLAIN   (64 * 1024)
#define FC_APACHE_MIN_DEFLATE (16 * 1024 * 1024)
/* Filters walked before giving up on finding the core filter. */
#define FC_APACHE_MAX_FILTERS 64

typedef int (*fc_cleanup_fn)(void *);

/* Apache's and APR's functions and data, found in the running process. */
static struct {
	int (*fflush)(fc_ap_filter *f, void *bb);
	void *(*brigade_create)(void *pool, void *list);
	int (*brigade_destroy)(void *bb);
	void *(*brigade_insert_file)(void *bb, void *file, int64_t start, int64_t len, void *pool);
	int (*bucket_file_enable_mmap)(void *bucket, int enabled);
	int (*bucket_file_set_buf_size)(void *bucket, size_t size); /* APR-util 1.6 on */
	int (*os_file_put)(void **file, int *fd, int32_t flags, void *pool);
	void (*pool_cleanup_register)(void *pool, const void *data, fc_cleanup_fn plain, fc_cleanup_fn child);
	fc_cleanup_fn pool_cleanup_null;
	void *(*core_module_config)(void *const *per_dir_config);
	fc_ap_filter_rec **core_output_filter;
	int (*brigade_write)(void *bb, int (*flush)(void *bb, void *ctx), void *ctx, const char *str, size_t n);
	int (*brigade_cleanup)(void *bb);
} apr;

/* What this process has proven. */
static struct {
	bool checked;
	const char *failed; /* why the path is off for good in this process */
} guard;

/* One request, proven. */
typedef struct {
	fc_ap_request *addr;
	fc_ap_request r;
	fc_ap_conn c;
	bool deflate;         /* mod_deflate is in the chain: it may hold more */
	bool settled;         /* ap_rwrite()'s filter heads the chain: flushing moves it no more */
	bool reads;           /* a filter before the core reads what it is given (mod_ssl, mod_deflate) */
	bool sendfile;
} fc_apache_request;

static bool sapi_is_apache(void)
{
	return fc_sapi_is(FC_SAPI_APACHE);
}

/* Taken per request: prefork's children are forks of the parent. This and the
 * per-request state below are per thread, for a ZTS mod_php under a threaded MPM. */
ZEND_TLS pid_t self;

/* Reads memory of this process through the kernel: an address that is not mapped
 * fails with EFAULT instead of faulting. */
static bool peek_bytes(const void *addr, void *dst, size_t len)
{
	struct iovec local = {dst, len}, remote = {(void *) addr, len};

	return (uintptr_t) addr >= 65536 && process_vm_readv(self, &local, 1, &remote, 1, 0) == (ssize_t) len;
}

/* A structure, which is aligned wherever it really is one. */
static bool peek(const void *addr, void *dst, size_t len)
{
	return (uintptr_t) addr % sizeof(void *) == 0 && peek_bytes(addr, dst, len);
}

/* A string, cut to len - 1 bytes: the kernel stops at an unmapped page, so a short
 * string just before one still reads. */
static bool peek_str(const char *addr, char *dst, size_t len)
{
	struct iovec local = {dst, len - 1}, remote = {(void *) addr, len - 1};
	ssize_t n = (uintptr_t) addr < 65536 ? -1 : process_vm_readv(self, &local, 1, &remote, 1, 0);

	if (n <= 0) {
		return false;
	}
	dst[n] = '\0';
	return true;
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
	same = peek_bytes(theirs, copy, len) && memcmp(copy, ours, len) == 0;
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

	return addr && peek(addr, &m, sizeof(m)) && m.version == FC_AP_MMN_MAJOR && m.magic == FC_AP_MAGIC_COOKIE;
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
	apr.fflush = (int (*)(fc_ap_filter *, void *)) symbol("ap_fflush", &missing);
	apr.brigade_create = (void *(*)(void *, void *)) symbol("apr_brigade_create", &missing);
	apr.brigade_destroy = (int (*)(void *)) symbol("apr_brigade_destroy", &missing);
	apr.brigade_insert_file = (void *(*)(void *, void *, int64_t, int64_t, void *))
		symbol("apr_brigade_insert_file", &missing);
	apr.bucket_file_enable_mmap = (int (*)(void *, int)) symbol("apr_bucket_file_enable_mmap", &missing);
	apr.os_file_put = (int (*)(void **, int *, int32_t, void *)) symbol("apr_os_file_put", &missing);
	apr.pool_cleanup_register = (void (*)(void *, const void *, fc_cleanup_fn, fc_cleanup_fn))
		symbol("apr_pool_cleanup_register", &missing);
	apr.pool_cleanup_null = (fc_cleanup_fn) symbol("apr_pool_cleanup_null", &missing);
	apr.core_module_config = (void *(*)(void *const *)) symbol("ap_get_core_module_config", &missing);
	apr.core_output_filter = (fc_ap_filter_rec **) symbol("ap_core_output_filter_handle", &missing);
	apr.brigade_write = (int (*)(void *, int (*)(void *, void *), void *, const char *, size_t))
		symbol("apr_brigade_write", &missing);
	apr.brigade_cleanup = (int (*)(void *)) symbol("apr_brigade_cleanup", &missing);
	if (missing) {
		return "an Apache or APR function was not found";
	}
	/* Optional: without it APR reads 8,000 bytes at a time where it cannot sendfile. */
	apr.bucket_file_set_buf_size = (int (*)(void *, size_t)) dlsym(RTLD_DEFAULT, "apr_bucket_file_set_buf_size");
	return NULL;
}

static bool filter_name(const fc_ap_filter_rec *frec, char *buf, size_t len)
{
	fc_ap_filter_rec rec;

	return peek(frec, &rec, sizeof(rec)) && peek_str(rec.name, buf, len);
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

	if (!peek(apr.core_output_filter, &core, sizeof(core))) {
		return FC_REASON_UNVERIFIED;
	}
	for (int i = 0; addr && i < FC_APACHE_MAX_FILTERS; i++) {
		fc_ap_filter f;

		/* Request filters point back at the request, connection filters at none. */
		if (!peek(addr, &f, sizeof(f)) || f.c != req->r.connection || (f.r && f.r != req->addr)) {
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

/* The request proven last. sabre/http sends a download as hundreds of 4 MiB copies:
 * within one request, a later copy re-reads what can change (mod_php's request
 * pointer, the request's state, its connection's abort flag, the head of its filter
 * chain) and walks the chain again only when its head moved. A request is the same
 * when mod_php's context, the request_rec, its pool and its start time (in
 * microseconds) all are. Once mod_php's own filter heads the chain (settled), a
 * later copy of the same PHP request reuses the request as last read (`last`). */
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

	if (!peek(ctx->brigade, &bb, sizeof(bb)) || req->r.method != SG(request_info).request_method
			|| !same_string(req->r.uri, SG(request_info).request_uri) || !req->r.pool || bb.p != req->r.pool
			|| !bb.bucket_alloc || bb.bucket_alloc != req->c.bucket_alloc || !req->r.per_dir_config
			|| !peek(apr.core_module_config(req->r.per_dir_config), &dir, sizeof(dir))) {
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

		if (process_vm_readv(self, local, 3, remote, 3, 0) == (ssize_t) (sizeof(*ctx) + sizeof(req->r) + sizeof(req->c))
				&& ctx->r == proven.r && req->r.connection == proven.c) {
			return true;
		}
	}
	return peek(SG(server_context), ctx, sizeof(*ctx)) && peek(ctx->r, &req->r, sizeof(req->r))
		&& peek(req->r.connection, &req->c, sizeof(req->c));
}

/* Every copy: SG(server_context) is mod_php's php_struct for the request PHP is
 * serving, and where its bytes may go. 0, or the reason to keep the output layer. */
static int verified_request(fc_apache_request *req)
{
	fc_php_apache_ctx ctx;
	int reason;

	if (!guard.checked) {
		self = getpid();
		guard.failed = check_process();
		guard.checked = true;
	}
	if (guard.failed) {
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
		self = getpid();
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
static int reverified_filters(fc_apache_request *req)
{
	if (req->settled) {
		return 0;
	}
	if (!peek(req->addr, &req->r, sizeof(req->r))) {
		return FC_REASON_UNVERIFIED;
	}
	return proven_filters(req);
}

static bool apache_possible(void)
{
	return sapi_is_apache() && !guard.failed;
}

/* NULL when the path can serve this process, or why it cannot (phpinfo()). */
static const char *apache_unavailable(void)
{
	if (!sapi_is_apache()) {
		return "the SAPI is not Apache's mod_php";
	}
	if (!guard.checked) {
		self = getpid();
		guard.failed = check_process();
		guard.checked = true;
	}
	return guard.failed;
}

/* The request's duplicate of the last source, reused by the next copy from the same
 * file in the same request: sabre/http sends a download in 4 MiB pieces, and a
 * descriptor per piece, each open until the request ends, would run a large
 * download into the process's descriptor limit. */
ZEND_TLS struct {
	void *pool;
	dev_t dev;
	ino_t ino;
	int fd;
	void *file;
} reuse = {NULL, 0, 0, -1, NULL};

static int close_descriptor(void *data)
{
	int fd = (int) (intptr_t) data;

	if (reuse.fd == fd) {
		reuse.pool = reuse.file = NULL;
		reuse.fd = -1;
	}
	close(fd);
	return FC_APR_SUCCESS;
}

/* An APR file on a duplicate of the source's descriptor, owned by the request: Apache
 * may read it until the request's pool is destroyed, whatever the script does with
 * its stream meanwhile. NULL with errno set when there is none. */
static void *request_file(fc_job *job, fc_apache_request *req)
{
	void *file = NULL;
	int fd;

	if (reuse.file && reuse.pool == req->r.pool && reuse.dev == job->in.st.st_dev && reuse.ino == job->in.st.st_ino) {
		return reuse.file;
	}
	fd = fcntl(job->in.fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		return NULL;
	}
	if (apr.os_file_put(&file, &fd, FC_APR_FOPEN_READ | (req->sendfile ? FC_APR_FOPEN_SENDFILE_ENABLED : 0),
			req->r.pool) != FC_APR_SUCCESS) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	apr.pool_cleanup_register(req->r.pool, (void *) (intptr_t) fd, close_descriptor, apr.pool_cleanup_null);
	reuse.pool = req->r.pool;
	reuse.dev = job->in.st.st_dev;
	reuse.ino = job->in.st.st_ino;
	reuse.fd = fd;
	reuse.file = file;
	return file;
}

/* A FILE bucket for [start, start + len) of our descriptor: never mapped, read in
 * blocks of fastcopy.buffer_size where it is read at all. */
static void insert_file(void *bb, void *file, int64_t start, int64_t len, void *pool)
{
	void *bucket = apr.brigade_insert_file(bb, file, start, len, pool);

	apr.bucket_file_enable_mmap(bucket, 0);
	if (apr.bucket_file_set_buf_size) {
		apr.bucket_file_set_buf_size(bucket, (size_t) FASTCOPY_G(buffer_size));
	}
}

/* Hands [offset, offset + len) of the source to Apache as FILE buckets and waits
 * until it is written: Apache's status. */
static int pass_file(void *file, fc_apache_request *req, zend_off_t offset, size_t len)
{
	void *bb = apr.brigade_create(req->r.pool, req->c.bucket_alloc);
	int rv;
	size_t page = (size_t) sysconf(_SC_PAGESIZE);
	size_t head = MIN(len, (page - (size_t) offset % page) % page);

	if (head > 0) {
		insert_file(bb, file, (int64_t) offset, (int64_t) head, req->r.pool);
	}
	if (len > head) {
		insert_file(bb, file, (int64_t) offset + (int64_t) head, (int64_t) (len - head), req->r.pool);
	}
	rv = apr.fflush(req->r.output_filters, bb);
	apr.brigade_destroy(bb);
	return rv;
}

/* apr_brigade_write()'s flush: the block (a TRANSIENT bucket on our buffer) and a
 * FLUSH down the request's filters, so it is written before the buffer is reused. */
typedef struct {
	fc_ap_filter *filters;
	bool passed;
} fc_block_pass;

static int pass_flushed(void *bb, void *ctx)
{
	fc_block_pass *p = ctx;

	p->passed = true;
	return apr.fflush(p->filters, bb);
}

/* Where a filter reads what it is given (mod_ssl, mod_deflate), the range is read
 * here, a block at a time, and each block handed over as the bytes it holds: a
 * FILE bucket is framed before it is read (the chunk filter announces its length),
 * and mod_ssl takes one that ends early for one that is whole, then sends the
 * framing that follows it. A read that comes back short is where the file now
 * ends, as for stock's read loop. Returns 0, -1 when Apache failed a write, or the
 * errno of a failed read; *sent, the bytes handed over. */
static int pass_blocks(fc_job *job, fc_apache_request *req, zend_off_t offset, size_t len, size_t *sent)
{
	size_t block = MIN(len, (size_t) FASTCOPY_G(buffer_size));
	char *buf = emalloc(block);
	void *bb = apr.brigade_create(req->r.pool, req->c.bucket_alloc);
	fc_block_pass pass = {req->r.output_filters, false};
	int rv = 0;

	*sent = 0;
	while (*sent < len) {
		ssize_t n = pread(job->in.fd, buf, MIN(block, len - *sent), offset + (zend_off_t) *sent);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			rv = n < 0 ? errno : 0;
			break;
		}
		/* A block of up to 8,000 bytes is copied into the brigade instead of flushed. */
		pass.passed = false;
		rv = apr.brigade_write(bb, pass_flushed, &pass, buf, (size_t) n);
		if (rv == FC_APR_SUCCESS && !pass.passed) {
			rv = apr.fflush(pass.filters, bb);
		}
		apr.brigade_cleanup(bb);
		if (rv != FC_APR_SUCCESS) {
			rv = -1;
			break;
		}
		*sent += (size_t) n;
	}
	apr.brigade_destroy(bb);
	efree(buf);
	return rv;
}

/* Marks the request's connection aborted, as Apache's core does when a write fails
 * and its handlers do when a body cannot be completed: the core then sends nothing
 * more on it (not the chunked ending, not what mod_ssl holds) and does not keep it.
 * Written through the kernel, like every read of Apache's structures. */
static void abort_connection(const fc_apache_request *req, bool readable)
{
	unsigned aborted = 1;
	struct iovec local = {&aborted, sizeof(aborted)};
	struct iovec remote = {(char *) req->r.connection + offsetof(fc_ap_conn, aborted), sizeof(aborted)};

	if (process_vm_writev(self, &local, 1, &remote, 1, 0) != (ssize_t) sizeof(aborted) && readable) {
		/* Refused (a seccomp policy that allows only the reads): the connection
		 * was read a moment ago, so it is Apache's live memory in this process,
		 * and left unmarked it would let the filters finish the framing. */
		((fc_ap_conn *) req->r.connection)->aborted = 1;
	}
}

/* Apache did not deliver the range: the client is gone (the core marks the
 * connection aborted when its write fails), the file no longer holds the range, or
 * a filter failed. Whatever the filters have framed for those bytes must never be
 * completed, so unless the client left, the connection is ended here. The script
 * learns of it as of a failed ap_rwrite(): it ends unless it ignores aborts, and then
 * the copy goes on from `moved` into the disabled output layer, as stock's would. */
static fc_status range_lost(fc_job *job, const fc_apache_request *req, zend_off_t offset, size_t moved, int reason)
{
	fc_ap_conn c;

	bool readable = peek(req->r.connection, &c, sizeof(c));

	if (!readable || !c.aborted) {
		abort_connection(req, readable);
		if (!reason) {
			reason = FC_REASON_FILTER_FAILED;
		}
	} else if (!reason) {
		reason = FC_REASON_CLIENT_ABORTED;
	}
	fc_job_moved(job, moved);
	zend_lseek(job->in.fd, offset + (zend_off_t) moved, SEEK_SET);
	job->ended_by = reason;
	php_handle_aborted_connection();
	return fc_fallback(job, reason);
}

/* [offset, offset + len) to Apache. FC_CONTINUE once it is out whole. */
static fc_status pass_range(fc_job *job, fc_apache_request *req, zend_off_t offset, size_t len)
{
	size_t sent = len;
	zend_stat_t sb;
	void *file;
	int rv;

	if (req->reads) {
		rv = pass_blocks(job, req, offset, len, &sent);
		if (rv < 0) {
			return range_lost(job, req, offset, len, 0);
		}
		fc_job_moved(job, sent);
		if (rv > 0 || sent < len) {
			zend_lseek(job->in.fd, offset + (zend_off_t) sent, SEEK_SET);
			/* A read error: the next path reads from here and reports it as stock does. */
			if (rv > 0) {
				return fc_fallback(job, rv);
			}
			job->in.stream->eof = 1;
			return FC_DONE;
		}
		return FC_CONTINUE;
	}
	if (!(file = request_file(job, req))) {
		return fc_fallback(job, errno ? errno : EBADF);
	}
	/* Only Apache's HTTP filters stand before the core, and pass the bucket on
	 * unread: the core's status is the range's (its sendfile or read fails when the
	 * file ends early). */
	if ((rv = pass_file(file, req, offset, len)) == FC_APR_SUCCESS) {
		fc_job_moved(job, len);
		return FC_CONTINUE;
	}
	if (zend_fstat(job->in.fd, &sb) == 0 && sb.st_size < offset + (zend_off_t) len) {
		return range_lost(job, req, offset, sb.st_size > offset ? (size_t) (sb.st_size - offset) : 0,
			FC_REASON_FILE_SHRANK);
	}
	return range_lost(job, req, offset, len, 0);
}

/* The smallest copy that stock would not let Apache see whole: on top of the
 * measured limits, whatever PHP's own output buffers hold before they pass it on. */
static size_t small_limit(const fc_apache_request *req)
{
	php_output_handler **h = (php_output_handler **) zend_stack_base(&OG(handlers));
	size_t limit = req->deflate ? FC_APACHE_MIN_DEFLATE : FC_APACHE_MIN_PLAIN;

	for (int i = 0, n = zend_stack_count(&OG(handlers)); i < n; i++) {
		limit += h[i]->size;
	}
	return limit;
}

/* What is left to copy from offset, by the size last taken; false when the file has
 * nothing (more) there. */
static bool range_left(fc_job *job, zend_off_t offset, size_t *len)
{
	if (offset < 0 || job->in.st.st_size <= offset) {
		return false;
	}
	*len = MIN(job->remaining, (size_t) (job->in.st.st_size - offset));
	return true;
}

static fc_status copy_apache(fc_job *job)
{
	fc_apache_request req;
	zend_off_t offset;
	zend_stat_t sb;
	size_t len;
	int reason;
	fc_status st;

	/* Everything is checked before anything is flushed: a flush would itself end
	 * what a declined copy must keep (Content-Length, Range). The first size is the
	 * one the endpoint took when the copy began. */
	if ((reason = verified_request(&req)) != 0) {
		return fc_fallback(job, reason);
	}
	/* The endpoint's cast has just sought the descriptor to the stream's position. */
	offset = job->in.stream->position;
	if (!range_left(job, offset, &len)) {
		/* procfs and friends report no size: read() will tell */
		return fc_fallback(job, FC_REASON_ZERO);
	}
	if (len < small_limit(&req)) {
		return fc_fallback(job, FC_REASON_SMALL_RESPONSE);
	}
	/* Everything PHP holds for the client goes first, in order; flushing it puts
	 * mod_php's own filter in the chain, so the request is read again after. */
	if ((reason = fc_output_pass_through()) != 0 || (reason = reverified_filters(&req)) != 0) {
		return fc_fallback(job, reason);
	}
	if (req.settled) {
		proven.last = req;
		proven.have_last = true;
	}
	/* A range never promises more than the file has: the size again before each
	 * further pass (sabre/http's pieces are one pass each, and need none). */
	do {
		if ((st = pass_range(job, &req, offset, len)) != FC_CONTINUE) {
			return st;
		}
		offset += (zend_off_t) len;
		if (job->remaining > 0 && zend_fstat(job->in.fd, &sb) == 0) {
			job->in.st.st_size = sb.st_size;
		}
	} while (job->remaining > 0 && range_left(job, offset, &len));

	/* The duplicate shares the file offset, which APR's reads move. */
	zend_lseek(job->in.fd, offset, SEEK_SET);
	if (job->remaining > 0) {
		job->in.stream->eof = 1;
	}
	return FC_DONE;
}

const fc_server_path fc_apache_path = {NULL, copy_apache, apache_possible, apache_unavailable};

#else

const fc_server_path fc_apache_path = {"not built: needs Linux on a 64-bit platform"};

#endif
