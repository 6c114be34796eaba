/* fastcopy.override: stream_copy_to_stream(), fpassthru(), readfile(), copy() and
 * file_put_contents() with a stream, on the engine. As ext/phar does, the handler
 * is swapped in the function table at MINIT and put back at MSHUTDOWN, so names,
 * arginfo and messages stay stock's; a built-in whose parameters are not the ones
 * our handler parses is left to stock (docs/internals.md, "The override"). */

#include "src/functions/functions.h"
#include "src/core/php_compat.h"

#include "fopen_wrappers.h"
#include "ext/standard/file.h"
#include "ext/standard/flock_compat.h"
#include <ctype.h>
#include "fastcopy_arginfo.h"

static ZEND_NAMED_FUNCTION(fastcopy_stream_copy_to_stream);
static ZEND_NAMED_FUNCTION(fastcopy_fpassthru);
static ZEND_NAMED_FUNCTION(fastcopy_readfile);
static ZEND_NAMED_FUNCTION(fastcopy_copy);
static ZEND_NAMED_FUNCTION(fastcopy_file_put_contents);

typedef struct {
	const char *name;
	/* The parameters our handler parses, as describe_parameters() spells them:
	 * optional ones in brackets, types as PHP prints them, untyped ones bare. */
	const char *parameters;
	zif_handler ours;
	zif_handler previous;   /* set while ours is installed */
	zend_string *declined;  /* why the built-in was left to stock (persistent), or NULL */
} fc_override;

static fc_override overrides[] = {
#if PHP_VERSION_ID >= 80600
	{"stream_copy_to_stream", "$from, $to[, ?int $length, int $offset, $context]", fastcopy_stream_copy_to_stream},
#else
	{"stream_copy_to_stream", "$from, $to[, ?int $length, int $offset]",           fastcopy_stream_copy_to_stream},
#endif
	{"fpassthru",             "$stream",                                           fastcopy_fpassthru},
	{"readfile",              "string $filename[, bool $use_include_path, $context]", fastcopy_readfile},
	{"copy",                  "string $from, string $to[, $context]",              fastcopy_copy},
	{"file_put_contents",     "string $filename, mixed $data[, int $flags, $context]", fastcopy_file_put_contents},
};
#define OVERRIDE_COUNT (sizeof(overrides) / sizeof(overrides[0]))
#define OVERRIDE_ALL ((1 << OVERRIDE_COUNT) - 1)

/* Process-wide, like the function table it describes. */
static int selected;

/* Whether any built-in was asked for. */
bool fc_override_selected(void)
{
	return selected != 0;
}

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

#ifdef FASTCOPY_DEV
/* fastcopy.dev_parameters (developer builds only): "name=parameters" stands in for
 * the table's parameters of one built-in, so a test can make them differ from the
 * built-in's and see the override step aside. */
static zend_string *dev_parameters;

ZEND_INI_MH(fc_on_update_dev_parameters)
{
	dev_parameters = new_value;
	return SUCCESS;
}
#endif

static const char *expected_parameters(const fc_override *o)
{
#ifdef FASTCOPY_DEV
	size_t len = strlen(o->name);

	if (dev_parameters && ZSTR_LEN(dev_parameters) > len && ZSTR_VAL(dev_parameters)[len] == '='
			&& !strncasecmp(ZSTR_VAL(dev_parameters), o->name, len)) {
		return ZSTR_VAL(dev_parameters) + len + 1;
	}
#endif
	return o->parameters;
}

/* One parameter of fn's arginfo: 8.6 made every function's arg_info a zend_arg_info
 * (zend_string names); before, internal functions have zend_internal_arg_info
 * (char * names) unless ZEND_ACC_USER_ARG_INFO says otherwise. */
static void describe_parameter(const zend_function *fn, uint32_t i, smart_str *out)
{
	zend_type type;
	const char *name;

#if PHP_VERSION_ID < 80600
	if (!(fn->common.fn_flags & ZEND_ACC_USER_ARG_INFO)) {
		type = fn->internal_function.arg_info[i].type;
		name = fn->internal_function.arg_info[i].name;
	} else
#endif
	{
		type = fn->common.arg_info[i].type;
		name = ZSTR_VAL(fn->common.arg_info[i].name);
	}
	if (ZEND_TYPE_IS_SET(type)) {
		zend_string *spelled = zend_type_to_string(type);
		smart_str_append(out, spelled);
		smart_str_appendc(out, ' ');
		zend_string_release(spelled);
	}
	if ((ZEND_TYPE_FULL_MASK(type) >> _ZEND_SEND_MODE_SHIFT) & 3) {
		smart_str_appendc(out, '&');
	}
	if (ZEND_TYPE_FULL_MASK(type) & _ZEND_IS_VARIADIC_BIT) {
		smart_str_appends(out, "...");
	}
	smart_str_appendc(out, '$');
	smart_str_appends(out, name);
}

/* fn's parameters, spelled as the table spells them: how many, how many are
 * required, and each one's name, type, by-reference and variadic marks. */
static void describe_parameters(const zend_function *fn, smart_str *out)
{
	uint32_t count = fn->common.num_args + (fn->common.fn_flags & ZEND_ACC_VARIADIC ? 1 : 0);
	uint32_t required = fn->common.required_num_args;

	for (uint32_t i = 0; i < count; i++) {
		if (i == required) {
			smart_str_appends(out, i ? "[, " : "[");
		} else if (i) {
			smart_str_appends(out, ", ");
		}
		describe_parameter(fn, i, out);
	}
	if (count > required) {
		smart_str_appendc(out, ']');
	}
	smart_str_0(out);
}

static zend_string *persistent_string(const char *format, ...) ZEND_ATTRIBUTE_FORMAT(printf, 1, 2);

static zend_string *persistent_string(const char *format, ...)
{
	va_list args;
	char *text;
	size_t len;
	zend_string *s;

	va_start(args, format);
	len = vspprintf(&text, 0, format, args);
	va_end(args);
	s = zend_string_init(text, len, 1);
	efree(text);
	return s;
}

/* NULL when our handler can stand in for fn, or why not (persistent). */
static zend_string *why_not_take_over(const fc_override *o, const zend_function *fn)
{
	const char *expected = expected_parameters(o);
	smart_str actual = {0};
	const char *spelled;
	zend_string *why = NULL;

	if (!fn || fn->type != ZEND_INTERNAL_FUNCTION) {
		return persistent_string("this PHP has no internal function of that name");
	}
#if PHP_VERSION_ID >= 80400
	/* A frameless call (8.4) runs its own C function, not the handler: a built-in
	 * that gains one would be ours for some calls and stock's for others. */
	if (fn->internal_function.frameless_function_infos) {
		return persistent_string("this PHP compiles some of its calls as frameless calls, which bypass the handler");
	}
#endif
	describe_parameters(fn, &actual);
	spelled = actual.s ? ZSTR_VAL(actual.s) : "";
	if (strcmp(spelled, expected)) {
		why = persistent_string("its parameters are (%s) where fastcopy implements (%s)", spelled, expected);
	}
	smart_str_free(&actual);
	return why;
}

void fc_override_install(void)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		fc_override *o = &overrides[i];
		zend_function *fn;

		if (!(selected & (1 << i))) {
			continue;
		}
		fn = zend_hash_str_find_ptr(CG(function_table), o->name, strlen(o->name));
		o->declined = why_not_take_over(o, fn);
		if (o->declined) {
			/* At startup, so once per server start, in the error log (a startup
			 * error is always logged, and displayed only with display_startup_errors):
			 * where an administrator who set fastcopy.override looks. */
			zend_error(E_CORE_WARNING, "fastcopy.override: %s() is left to stock PHP: %s",
				o->name, ZSTR_VAL(o->declined));
			continue;
		}
		o->previous = fn->internal_function.handler;
		fn->internal_function.handler = o->ours;
	}
}

void fc_override_uninstall(void)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		fc_override *o = &overrides[i];
		zend_function *fn;

		if (o->declined) {
			zend_string_release(o->declined);
			o->declined = NULL;
		}
		if (!o->previous) {
			continue;
		}
		fn = zend_hash_str_find_ptr(CG(function_table), o->name, strlen(o->name));
		/* Someone who wrapped us after MINIT restores us first; then we restore. */
		if (fn && fn->type == ZEND_INTERNAL_FUNCTION && fn->internal_function.handler == o->ours) {
			fn->internal_function.handler = o->previous;
		}
		o->previous = NULL;
	}
}

/* For phpinfo(): the built-ins on the engine now ("name, name"), or with `declined`
 * those fastcopy.override asked for but left to stock, and why ("name(): why;
 * ..."); "none" where there are none. */
void fc_override_describe(smart_str *out, bool declined)
{
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		const fc_override *o = &overrides[i];

		if (declined ? !o->declined : !o->previous) {
			continue;
		}
		if (out->s) {
			smart_str_appends(out, declined ? "; " : ", ");
		}
		smart_str_appends(out, o->name);
		if (declined) {
			smart_str_appends(out, "(): ");
			smart_str_append(out, o->declined);
		}
	}
	if (!out->s) {
		smart_str_appends(out, "none");
	}
	smart_str_0(out);
}

/* for fastcopy_stats(), name => why. */
void fc_override_declined_to_array(zval *array)
{
	array_init(array);
	for (size_t i = 0; i < OVERRIDE_COUNT; i++) {
		if (overrides[i].declined) {
			add_assoc_str(array, overrides[i].name, zend_string_init(
				ZSTR_VAL(overrides[i].declined), ZSTR_LEN(overrides[i].declined), 0));
		}
	}
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

/* {{{ stream_copy_to_stream(): fastcopy_stream()'s parsing, with the pairs stock
 * copies in the kernel itself (8.6) left to stock */
static ZEND_NAMED_FUNCTION(fastcopy_stream_copy_to_stream)
{
	fc_stream_copy_function(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}
/* }}} */

/* {{{ fpassthru(resource $stream): int */
static ZEND_NAMED_FUNCTION(fastcopy_fpassthru)
{
	php_stream *stream;
	ssize_t size;
#if PHP_VERSION_ID < 80500
	zval *res;
#endif

	ZEND_PARSE_PARAMETERS_START(1, 1)
#if PHP_VERSION_ID >= 80500
		PHP_Z_PARAM_STREAM(stream)
#else
		Z_PARAM_RESOURCE(res)
#endif
	ZEND_PARSE_PARAMETERS_END();

#if PHP_VERSION_ID < 80500
	php_stream_from_zval(stream, res);
#endif

	FC_ERROR_OPERATION_BEGIN();
	size = php_fastcopy_passthru(stream);
	FC_ERROR_OPERATION_END_FOR_STREAM(stream);
	RETURN_LONG(size);
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
	FC_ERROR_OPERATION_BEGIN();
	stream = php_stream_open_wrapper_ex(filename, "rb", (use_include_path ? USE_PATH : 0) | REPORT_ERRORS, NULL, context);
	if (stream) {
		size = php_fastcopy_passthru(stream);
		php_stream_close(stream);
		RETVAL_LONG(size);
	} else {
		RETVAL_FALSE;
	}
	FC_ERROR_OPERATION_END(context);
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

#if PHP_VERSION_ID >= 80600
	/* stock 8.6 takes the context first, inside the error operation */
	php_stream_error_operation_begin();
	context = php_stream_context_from_zval(zcontext, 0);
	if (php_stream_locate_url_wrapper(source, NULL, 0) == &php_plain_files_wrapper && php_check_open_basedir(source)) {
		php_stream_error_operation_end(context);
		RETURN_FALSE;
	}
	RETVAL_BOOL(fc_copy_file(source, target, context) == SUCCESS);
	php_stream_error_operation_end(context);
#else
	if (php_stream_locate_url_wrapper(source, NULL, 0) == &php_plain_files_wrapper && php_check_open_basedir(source)) {
		RETURN_FALSE;
	}
	context = php_stream_context_from_zval(zcontext, 0);
	RETURN_BOOL(fc_copy_file(source, target, context) == SUCCESS);
#endif
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

	copied = fc_override_copy(src, stream, PHP_STREAM_COPY_ALL, &len);
	if (!fc_close_destination(stream)) {
		copied = FAILURE;
	}
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
