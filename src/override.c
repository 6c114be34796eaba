/* fastcopy.override: the built-in stream_copy_to_stream(), fpassthru(), readfile(),
 * copy() and file_put_contents() with a stream run on the engine, so applications
 * get faster with no code change.
 *
 * As ext/phar does, the swap replaces internal_function.handler in the function
 * table at MINIT and puts the previous handler back at MSHUTDOWN. The function keeps
 * its name, arginfo and reflection, so its messages still say
 * "stream_copy_to_stream(): Argument #1 ($from)". Whatever handler was there before
 * (phar's readfile, for one) is kept and called for the calls it exists for. */

#include "src/engine.h"

#include "fopen_wrappers.h"
#include "ext/standard/file.h"
#include "ext/standard/flock_compat.h"
#include <ctype.h>
#include "fastcopy_arginfo.h"

static ZEND_NAMED_FUNCTION(fastcopy_fpassthru);
static ZEND_NAMED_FUNCTION(fastcopy_readfile);
static ZEND_NAMED_FUNCTION(fastcopy_copy);
static ZEND_NAMED_FUNCTION(fastcopy_file_put_contents);

typedef struct {
	const char *name;
	zif_handler ours;
	zif_handler previous;
} fc_override;

static fc_override overrides[] = {
	{"stream_copy_to_stream", ZEND_FN(fastcopy_stream), NULL},
	{"fpassthru",             fastcopy_fpassthru,       NULL},
	{"readfile",              fastcopy_readfile,        NULL},
	{"copy",                  fastcopy_copy,            NULL},
	{"file_put_contents",     fastcopy_file_put_contents, NULL},
};
#define OVERRIDE_COUNT (sizeof(overrides) / sizeof(overrides[0]))
#define OVERRIDE_ALL ((1 << OVERRIDE_COUNT) - 1)

/* Process-wide, like the function table it describes. */
static int selected;

static bool is_word(const char *p, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(p, word, len);
}

/* "0", "" or "off": none; "1", "on" or "all": every function; otherwise a
 * comma-separated list of function names. */
ZEND_INI_MH(fc_on_update_override)
{
	const char *p = ZSTR_VAL(new_value), *end = p + ZSTR_LEN(new_value);
	int mask = 0;

	while (p < end) {
		const char *comma = memchr(p, ',', end - p), *word_end = comma ? comma : end;
		size_t len;

		while (p < word_end && isspace((unsigned char) *p)) {
			p++;
		}
		while (word_end > p && isspace((unsigned char) word_end[-1])) {
			word_end--;
		}
		len = (size_t) (word_end - p);

		if (len == 0 || is_word(p, len, "0") || is_word(p, len, "off") || is_word(p, len, "no")
				|| is_word(p, len, "false") || is_word(p, len, "none")) {
			/* nothing */
		} else if (is_word(p, len, "1") || is_word(p, len, "on") || is_word(p, len, "yes")
				|| is_word(p, len, "true") || is_word(p, len, "all")) {
			mask |= OVERRIDE_ALL;
		} else {
			size_t i;
			for (i = 0; i < OVERRIDE_COUNT && !is_word(p, len, overrides[i].name); i++);
			if (i == OVERRIDE_COUNT) {
				php_error_docref(NULL, E_WARNING,
					"fastcopy.override: unknown function \"%.*s\" (expected all, or any of "
					"stream_copy_to_stream, fpassthru, readfile, copy, file_put_contents)", (int) len, p);
				return FAILURE;
			}
			mask |= 1 << i;
		}
		p = comma ? comma + 1 : end;
	}
	selected = mask;
	return SUCCESS;
}

void fc_override_install(void)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		zend_function *fn;

		if (!(selected & (1 << i))) {
			continue;
		}
		fn = zend_hash_str_find_ptr(CG(function_table), overrides[i].name, strlen(overrides[i].name));
		if (fn && fn->type == ZEND_INTERNAL_FUNCTION) {
			overrides[i].previous = fn->internal_function.handler;
			fn->internal_function.handler = overrides[i].ours;
		}
	}
}

void fc_override_uninstall(void)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		zend_function *fn;

		if (!overrides[i].previous) {
			continue;
		}
		fn = zend_hash_str_find_ptr(CG(function_table), overrides[i].name, strlen(overrides[i].name));
		/* Someone who wrapped us after MINIT restores us first; then we restore. */
		if (fn && fn->type == ZEND_INTERNAL_FUNCTION && fn->internal_function.handler == overrides[i].ours) {
			fn->internal_function.handler = overrides[i].previous;
		}
		overrides[i].previous = NULL;
	}
}

/* Which functions run on the engine now, for phpinfo(). */
void fc_override_describe(smart_str *out)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		if (overrides[i].previous) {
			if (out->s) {
				smart_str_appends(out, ", ");
			}
			smart_str_appends(out, overrides[i].name);
		}
	}
	if (!out->s) {
		smart_str_appends(out, "none");
	}
	smart_str_0(out);
}

static zif_handler previous_handler(const char *name)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		if (!strcmp(overrides[i].name, name)) {
			return overrides[i].previous;
		}
	}
	return NULL;
}

/* {{{ fpassthru(resource $stream): int */
static ZEND_NAMED_FUNCTION(fastcopy_fpassthru)
{
	zval *res;
	php_stream *stream;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_RESOURCE(res)
	ZEND_PARSE_PARAMETERS_END();

	php_stream_from_zval(stream, res);

	RETURN_LONG(php_fastcopy_passthru(stream));
}
/* }}} */

/* phar resolves a relative name (or an include_path lookup) against the archive a
 * script runs from; those calls belong to its handler. */
static bool phar_would_resolve(const char *filename, size_t filename_len, bool use_include_path)
{
	const char *running = zend_get_executed_filename();

	if (!running || strncasecmp(running, "phar://", sizeof("phar://") - 1)) {
		return false;
	}
	return use_include_path || (!IS_ABSOLUTE_PATH(filename, filename_len) && !strstr(filename, "://"));
}

/* {{{ readfile(string $filename, bool $use_include_path = false, $context = null): int|false */
static ZEND_NAMED_FUNCTION(fastcopy_readfile)
{
	char *filename;
	size_t filename_len;
	bool use_include_path = 0;
	zval *zcontext = NULL;
	php_stream_context *context;
	php_stream *stream;
	ssize_t size;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_PATH(filename, filename_len)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(use_include_path)
		Z_PARAM_RESOURCE_OR_NULL(zcontext)
	ZEND_PARSE_PARAMETERS_END();

	if (phar_would_resolve(filename, filename_len, use_include_path)) {
		previous_handler("readfile")(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	context = php_stream_context_from_zval(zcontext, 0);
	stream = php_stream_open_wrapper_ex(filename, "rb", (use_include_path ? USE_PATH : 0) | REPORT_ERRORS, NULL, context);
	if (!stream) {
		RETURN_FALSE;
	}
	size = php_fastcopy_passthru(stream);
	php_stream_close(stream);
	RETURN_LONG(size);
}
/* }}} */

/* {{{ copy(string $from, string $to, $context = null): bool */
static ZEND_NAMED_FUNCTION(fastcopy_copy)
{
	char *source, *target;
	size_t source_len, target_len;
	zval *zcontext = NULL;
	php_stream_context *context;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_PATH(source, source_len)
		Z_PARAM_PATH(target, target_len)
		Z_PARAM_OPTIONAL
		Z_PARAM_RESOURCE_OR_NULL(zcontext)
	ZEND_PARSE_PARAMETERS_END();

	if (php_stream_locate_url_wrapper(source, NULL, 0) == &php_plain_files_wrapper && php_check_open_basedir(source)) {
		RETURN_FALSE;
	}

	context = php_stream_context_from_zval(zcontext, 0);
	RETURN_BOOL(fc_copy_file(source, target, context) == SUCCESS);
}
/* }}} */

/* {{{ file_put_contents(string $filename, mixed $data, int $flags = 0, $context = null): int|false
 * A stream as $data is copied by the engine; any other $data (a string, an array,
 * an object) is the previous handler's call, untouched. The steps around the copy
 * are stock's, in stock's order, so its warnings and results are the same. */
static ZEND_NAMED_FUNCTION(fastcopy_file_put_contents)
{
	char *filename;
	size_t filename_len, len;
	zval *data, *zcontext = NULL;
	zend_long flags = 0;
	php_stream_context *context;
	php_stream *src, *stream;
	char mode[3] = "wb";
	zend_result copied;

	if (ZEND_NUM_ARGS() < 2 || Z_TYPE_P(ZEND_CALL_ARG(execute_data, 2)) != IS_RESOURCE) {
		previous_handler("file_put_contents")(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}

	ZEND_PARSE_PARAMETERS_START(2, 4)
		Z_PARAM_PATH(filename, filename_len)
		Z_PARAM_ZVAL(data)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(flags)
		Z_PARAM_RESOURCE_OR_NULL(zcontext)
	ZEND_PARSE_PARAMETERS_END();

	php_stream_from_zval(src, data);
	context = php_stream_context_from_zval(zcontext, flags & PHP_FILE_NO_DEFAULT_CONTEXT);

	if (flags & PHP_FILE_APPEND) {
		mode[0] = 'a';
	} else if (flags & LOCK_EX) {
		/* Only plain files can be locked; "c" so that the file is emptied once locked. */
		if (php_memnstr(filename, "://", sizeof("://") - 1, filename + filename_len)
				&& strncasecmp(filename, "file://", sizeof("file://") - 1)) {
			php_error_docref(NULL, E_WARNING, "Exclusive locks may only be set for regular files");
			RETURN_FALSE;
		}
		mode[0] = 'c';
	}

	stream = php_stream_open_wrapper_ex(filename, mode,
		((flags & PHP_FILE_USE_INCLUDE_PATH) ? USE_PATH : 0) | REPORT_ERRORS, NULL, context);
	if (!stream) {
		RETURN_FALSE;
	}
	if ((flags & LOCK_EX) && (!php_stream_supports_lock(stream) || php_stream_lock(stream, LOCK_EX))) {
		php_stream_close(stream);
		php_error_docref(NULL, E_WARNING, "Exclusive locks are not supported for this stream");
		RETURN_FALSE;
	}
	if (mode[0] == 'c') {
		php_stream_truncate_set_size(stream, 0);
	}

	copied = php_fastcopy_copy(src, stream, PHP_STREAM_COPY_ALL, &len);
	php_stream_close(stream);
	if (copied != SUCCESS) {
		RETURN_FALSE;
	}
	if (len > ZEND_LONG_MAX) {
		php_error_docref(NULL, E_WARNING, "content truncated from %zu to " ZEND_LONG_FMT " bytes", len, ZEND_LONG_MAX);
		len = ZEND_LONG_MAX;
	}
	RETURN_LONG((zend_long) len);
}
/* }}} */
