/* What the apache path has proven of mod_php's request (apache_guard.c), for the
 * writer that hands the file to Apache's filters (apache.c). */

#ifndef FASTCOPY_APACHE_GUARD_H
#define FASTCOPY_APACHE_GUARD_H

#include "src/core/job.h"

#if defined(__linux__) && defined(__LP64__) && defined(HAVE_DLFCN_H)
# define FASTCOPY_HAVE_APACHE 1
#endif

#ifdef FASTCOPY_HAVE_APACHE

#include "src/sapi/apache_abi.h"

#include <stdint.h>

typedef int (*fc_cleanup_fn)(void *);

/* Apache's and APR's functions and data, found in the running process. */
typedef struct {
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
} fc_apache_apr;

extern fc_apache_apr fc_apr;

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

/* 0 when the copy may hand bytes to Apache, or the reason to keep the output
 * layer: every copy, before anything is flushed. */
int fc_apache_verified_request(fc_apache_request *req);
/* After the output layer's flush: the filters once more, as the request is now. */
int fc_apache_reverified_filters(fc_apache_request *req);
void fc_apache_remember(const fc_apache_request *req);
bool fc_apache_possible(void);
const char *fc_apache_unavailable(void);

#endif

#endif
