/* copy() on the engine. The checks before the copy are stock's (php_copy_file_ctx
 * in ext/standard/file.c): a directory on either side is refused with the same
 * warnings, copying a file onto itself fails quietly, and the destination is opened
 * "wb" only once the source has opened. Only the copy loop differs. */

#include "src/functions/functions.h"
#include "src/core/php_compat.h"


/* The same file on both sides? By device and inode when both stat, else by the
 * expanded paths. Returns -1 when the source cannot be stat'ed at all. */
static int same_file(const char *src, const char *dest, php_stream_statbuf *src_s, php_stream_context *ctx)
{
	php_stream_statbuf dest_s;
	char *sp, *dp;
	int same;

	switch (php_stream_stat_path_ex(dest, PHP_STREAM_URL_STAT_QUIET, &dest_s, ctx)) {
		case -1:
			/* not statable: it cannot be the source */
			return 0;
		case 0:
			break;
		default:
			return -1;
	}
	if (S_ISDIR(dest_s.sb.st_mode)) {
		php_error_docref(NULL, E_WARNING, "The second argument to copy() function cannot be a directory");
		return -1;
	}
	if (src_s->sb.st_ino && dest_s.sb.st_ino) {
		return src_s->sb.st_ino == dest_s.sb.st_ino && src_s->sb.st_dev == dest_s.sb.st_dev;
	}

	if ((sp = expand_filepath(src, NULL)) == NULL) {
		return -1;
	}
	if ((dp = expand_filepath(dest, NULL)) == NULL) {
		efree(sp);
		return 0;
	}
#ifdef PHP_WIN32
	same = !strcasecmp(sp, dp);
#else
	same = !strcmp(sp, dp);
#endif
	efree(sp);
	efree(dp);
	return same;
}

zend_result fc_copy_file(const char *src, const char *dest, php_stream_context *ctx)
{
	php_stream_statbuf src_s;
	php_stream *in, *out;
	zend_result result;

	switch (php_stream_stat_path_ex(src, 0, &src_s, ctx)) {
		case -1:
			/* a source that cannot be stat'ed (a URL) is copied as it is */
			break;
		case 0:
			if (S_ISDIR(src_s.sb.st_mode)) {
				php_error_docref(NULL, E_WARNING, "The first argument to copy() function cannot be a directory");
				return FAILURE;
			}
			if (same_file(src, dest, &src_s, ctx) != 0) {
				return FAILURE;
			}
			break;
		default:
			return FAILURE;
	}

	in = php_stream_open_wrapper_ex(src, "rb", REPORT_ERRORS, NULL, ctx);
	if (!in) {
		return FAILURE;
	}
	out = php_stream_open_wrapper_ex(dest, "wb", REPORT_ERRORS, NULL, ctx);
	if (!out) {
		php_stream_close(in);
		return FAILURE;
	}
	result = fc_override_copy(in, out, PHP_STREAM_COPY_ALL, NULL);
	php_stream_close(in);
	if (!fc_close_destination(out)) {
		result = FAILURE;
	}
	return result;
}
