/* The parts of Apache httpd 2.4's and mod_php's structures that the apache path
 * reads, mirrored field for field so that the extension builds without apache2-dev.
 * Within a module magic number major (20120211 for every 2.4) fields are only ever
 * appended, and the guard checks that number at run time; where Apache's headers
 * are installed, configure compares every offset here with them
 * (config/apache_abi_check.c). Plain C: no PHP or Apache header needed. */

#ifndef FASTCOPY_APACHE_ABI_H
#define FASTCOPY_APACHE_ABI_H

#include <stdint.h>

/* ap_mmn.h */
#define FC_AP_MMN_MAJOR     20120211
#define FC_AP_MAGIC_COOKIE  0x41503234UL /* "AP24" */

/* apr_file_io.h, apr_errno.h */
#define FC_APR_FOPEN_READ             0x00001
#define FC_APR_FOPEN_SENDFILE_ENABLED 0x01000
#define FC_APR_SUCCESS                0

/* http_core.h: EnableMMAP and EnableSendfile */
#define FC_AP_ENABLE_OFF   0
#define FC_AP_ENABLE_ON    1
#define FC_AP_ENABLE_UNSET 2

typedef struct fc_ap_filter fc_ap_filter;

/* http_config.h: struct module_struct, its head */
typedef struct {
	int version;
	int minor_version;
	int module_index;
	const char *name;
	void *dynamic_load_handle;
	void *next;
	unsigned long magic;
} fc_ap_module;

/* httpd.h: struct conn_rec, up to aborted */
typedef struct {
	void *pool;
	void *base_server;
	void *vhost_lookup_data;
	void *local_addr;
	void *client_addr;
	char *client_ip;
	char *remote_host;
	char *remote_logname;
	char *local_ip;
	char *local_host;
	long id;
	void *conn_config;
	void *notes;
	fc_ap_filter *input_filters;
	fc_ap_filter *output_filters;
	void *sbh;
	void *bucket_alloc;
	void *cs;
	int data_in_input_filters;
	int data_in_output_filters;
	unsigned int clogging_input_filters:1;
	signed int double_reverse:2;
	unsigned aborted;
} fc_ap_conn;

/* httpd.h: struct request_rec, up to output_filters */
typedef struct {
	void *pool;
	fc_ap_conn *connection;
	void *server;
	void *next;
	void *prev;
	void *main;
	char *the_request;
	int assbackwards;
	int proxyreq;
	int header_only;
	int proto_num;
	char *protocol;
	const char *hostname;
	int64_t request_time;
	const char *status_line;
	int status;
	int method_number;
	const char *method;
	int64_t allowed;
	void *allowed_xmethods;
	void *allowed_methods;
	int64_t sent_bodyct;
	int64_t bytes_sent;
	int64_t mtime;
	const char *range;
	int64_t clength;
	int chunked;
	int read_body;
	int read_chunked;
	unsigned expecting_100;
	void *kept_body;
	void *body_table;
	int64_t remaining;
	int64_t read_length;
	void *headers_in;
	void *headers_out;
	void *err_headers_out;
	void *subprocess_env;
	void *notes;
	const char *content_type;
	const char *handler;
	const char *content_encoding;
	void *content_languages;
	char *vlist_validator;
	char *user;
	char *ap_auth_type;
	char *unparsed_uri;
	char *uri;
	char *filename;
	char *canonical_filename;
	char *path_info;
	char *args;
	int used_path_info;
	int eos_sent;
	void **per_dir_config;
	void *request_config;
	const void *log;
	const char *log_id;
	const void *htaccess;
	fc_ap_filter *output_filters;
} fc_ap_request;

/* util_filter.h: struct ap_filter_rec_t, its head, and struct ap_filter_t */
typedef struct {
	const char *name;
} fc_ap_filter_rec;

struct fc_ap_filter {
	fc_ap_filter_rec *frec;
	void *ctx;
	fc_ap_filter *next;
	fc_ap_request *r;
	fc_ap_conn *c;
};

/* apr_buckets.h: struct apr_bucket_brigade (its ring head is two pointers) */
typedef struct {
	void *p;
	void *list_next;
	void *list_prev;
	void *bucket_alloc;
} fc_apr_brigade;

/* http_core.h: core_dir_config, up to enable_sendfile (Linux: all three rlimits) */
typedef struct {
	char *d;
	unsigned d_components;
	unsigned char opts;
	unsigned char opts_add;
	unsigned char opts_remove;
	unsigned int override;
	unsigned char override_opts;
	char **response_code_strings;
	unsigned int hostname_lookups : 4;
	unsigned int content_md5 : 2;
	unsigned use_canonical_name : 2;
	unsigned d_is_fnmatch : 1;
	unsigned add_default_charset : 2;
	const char *add_default_charset_name;
	void *limit_cpu;
	void *limit_mem;
	void *limit_nproc;
	int64_t limit_req_body;
	long limit_xml_body;
	int server_signature;
	void *sec_file;
	void *sec_if;
	void *r;
	const char *mime_type;
	const char *handler;
	const char *output_filters;
	const char *input_filters;
	int accept_path_info;
	unsigned long etag_bits;
	unsigned long etag_add;
	unsigned long etag_remove;
	unsigned int enable_mmap : 2;
	unsigned int enable_sendfile : 2;
} fc_ap_core_dir;

/* PHP's sapi/apache2handler/php_apache.h: struct php_struct, its head
 * (PHP 5.x to 8.5: SG(server_context) under mod_php). */
typedef struct {
	int state;
	fc_ap_request *r;
	fc_apr_brigade *brigade;
} fc_php_apache_ctx;

#endif
