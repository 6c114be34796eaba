/* Built and run by configure when Apache's headers are installed (apache2-dev):
 * every offset, size and bit-field src/sapi/apache_abi.h mirrors must equal the
 * real structure's, or the build fails. php_struct is mod_php's and its header is
 * not installed: its three fields are checked against their declaration in PHP's
 * sapi/apache2handler/php_apache.h by reading, not here. */

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "util_filter.h"
#include "apr_buckets.h"

#include "src/sapi/apache_abi.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define SAME(mirror, real, field) \
	do { \
		if (offsetof(mirror, field) != offsetof(real, field) \
				|| sizeof(((mirror *) 0)->field) != sizeof(((real *) 0)->field)) { \
			printf("%s.%s: offset %zu, Apache's %zu\n", #real, #field, offsetof(mirror, field), \
				offsetof(real, field)); \
			failures++; \
		} \
	} while (0)

/* A bit-field has no offset: set it in the real structure, read it in the mirror. */
#define SAME_BITS(mirror, real, field, value) \
	do { \
		real r; \
		mirror m; \
		memset(&r, 0, sizeof(r)); \
		r.field = value; \
		memcpy(&m, &r, sizeof(m)); \
		if (m.field != value) { \
			printf("%s.%s: bit-field not where Apache has it\n", #real, #field); \
			failures++; \
		} \
	} while (0)

int main(void)
{
	if (MODULE_MAGIC_NUMBER_MAJOR != FC_AP_MMN_MAJOR || MODULE_MAGIC_COOKIE != FC_AP_MAGIC_COOKIE
			|| APR_FOPEN_READ != FC_APR_FOPEN_READ || APR_FOPEN_SENDFILE_ENABLED != FC_APR_FOPEN_SENDFILE_ENABLED
			|| ENABLE_SENDFILE_OFF != FC_AP_ENABLE_OFF || ENABLE_SENDFILE_UNSET != FC_AP_ENABLE_UNSET) {
		printf("Apache's constants differ\n");
		failures++;
	}
	SAME(fc_ap_module, module, version);
	SAME(fc_ap_module, module, module_index);
	SAME(fc_ap_module, module, magic);

	SAME(fc_ap_conn, conn_rec, pool);
	SAME(fc_ap_conn, conn_rec, output_filters);
	SAME(fc_ap_conn, conn_rec, bucket_alloc);
	SAME(fc_ap_conn, conn_rec, data_in_output_filters);
	SAME(fc_ap_conn, conn_rec, aborted);

	SAME(fc_ap_request, request_rec, pool);
	SAME(fc_ap_request, request_rec, connection);
	SAME(fc_ap_request, request_rec, main);
	SAME(fc_ap_request, request_rec, header_only);
	SAME(fc_ap_request, request_rec, proto_num);
	SAME(fc_ap_request, request_rec, request_time);
	SAME(fc_ap_request, request_rec, method);
	SAME(fc_ap_request, request_rec, clength);
	SAME(fc_ap_request, request_rec, remaining);
	SAME(fc_ap_request, request_rec, uri);
	SAME(fc_ap_request, request_rec, per_dir_config);
	SAME(fc_ap_request, request_rec, output_filters);

	SAME(fc_ap_filter_rec, ap_filter_rec_t, name);
	SAME(struct fc_ap_filter, ap_filter_t, frec);
	SAME(struct fc_ap_filter, ap_filter_t, next);
	SAME(struct fc_ap_filter, ap_filter_t, r);
	SAME(struct fc_ap_filter, ap_filter_t, c);

	SAME(fc_apr_brigade, apr_bucket_brigade, p);
	SAME(fc_apr_brigade, apr_bucket_brigade, bucket_alloc);

	SAME(fc_ap_core_dir, core_dir_config, etag_remove);
	SAME_BITS(fc_ap_core_dir, core_dir_config, enable_mmap, 1);
	SAME_BITS(fc_ap_core_dir, core_dir_config, enable_sendfile, 2);
	SAME_BITS(fc_ap_core_dir, core_dir_config, enable_sendfile, 1);

	return failures != 0;
}
