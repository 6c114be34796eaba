/*
  +----------------------------------------------------------------------+
  | fastcopy: stream copies at the speed of the kernel                   |
  +----------------------------------------------------------------------+
  | BSD 3-Clause License, see the LICENSE file.                          |
  +----------------------------------------------------------------------+
*/

/* Module glue: settings, phpinfo(), and the two PHP functions, which only parse
 * their arguments and call the engine (src/engine.c). */

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "php_fastcopy.h"
#include "src/engine.h"
#include "src/core/names.h"
#include "src/functions/functions.h"
#include "src/paths/paths.h"
#include "src/sapi/sapi.h"
#include "fastcopy_arginfo.h"

ZEND_DECLARE_MODULE_GLOBALS(fastcopy)

/* {{{ settings */

/* fastcopy.disable: paths to route around (src/core/names.c). */
static ZEND_INI_MH(OnUpdateDisable)
{
	zend_long mask;

	if (fc_disable_mask(new_value, &mask) != SUCCESS) {
		return FAILURE;
	}
	FASTCOPY_G(disabled_paths) = mask;
	return SUCCESS;
}

static zend_long parse_quantity(zend_string *value, zend_string *name)
{
#if PHP_VERSION_ID >= 80200
	return zend_ini_parse_quantity_warn(value, name);
#else
	return zend_atol(ZSTR_VAL(value), ZSTR_LEN(value));
#endif
}

/* Block and window sizes: a quantity such as 1M, within bounds that keep memory
 * flat (an output buffer holds at most one block) and syscalls few. */
static ZEND_INI_MH(OnUpdateSize)
{
	zend_long *target = (zend_long *) ZEND_INI_GET_ADDR();
	zend_long min = (zend_long) (uintptr_t) mh_arg3 == 0 ? 4096 : 65536;
	zend_long value = parse_quantity(new_value, entry->name);

	if (value < min || value > 1024 * 1024 * 1024) {
		php_error_docref(NULL, E_WARNING, "%s must be between " ZEND_LONG_FMT " and 1G, \"%s\" given",
			ZSTR_VAL(entry->name), min, ZSTR_VAL(new_value));
		return FAILURE;
	}
	*target = value;
	return SUCCESS;
}

/* fastcopy.same_host: "zerocopy" (sendfile and splice to every peer: measured, the
 * cheapest for the two ends together on this host too) or "copy" (a TCP peer on
 * this host is sent copies from the mmap window, which cost its reader less and the
 * sender more). */
static ZEND_INI_MH(OnUpdateSameHost)
{
	if (zend_string_equals_literal_ci(new_value, "copy")) {
		FASTCOPY_G(same_host_copies) = true;
	} else if (zend_string_equals_literal_ci(new_value, "zerocopy")) {
		FASTCOPY_G(same_host_copies) = false;
	} else {
		php_error_docref(NULL, E_WARNING, "fastcopy.same_host must be copy or zerocopy, \"%s\" given",
			ZSTR_VAL(new_value));
		return FAILURE;
	}
	return SUCCESS;
}

/* What STD_PHP_INI_ENTRY passes as the globals: under ZTS the resource id, which
 * ZEND_INI_GET_ADDR() turns into this thread's copy. */
#ifdef ZTS
# define FASTCOPY_INI_GLOBALS ((void *) &fastcopy_globals_id)
#else
# define FASTCOPY_INI_GLOBALS ((void *) &fastcopy_globals)
#endif

PHP_INI_BEGIN()
	/* System level: handlers are swapped once, when the module starts. */
	PHP_INI_ENTRY("fastcopy.override", "0", PHP_INI_SYSTEM, fc_on_update_override)
#ifdef FASTCOPY_DEV
	/* Developer builds only: lets a test make a built-in's parameters differ from
	 * the ones the override implements (src/override.c). */
	PHP_INI_ENTRY("fastcopy.dev_parameters", "", PHP_INI_SYSTEM, fc_on_update_dev_parameters)
#endif
	STD_PHP_INI_ENTRY("fastcopy.disable", "", PHP_INI_ALL, OnUpdateDisable,
		disabled_paths, zend_fastcopy_globals, fastcopy_globals)
	PHP_INI_ENTRY3_EX("fastcopy.buffer_size", "1M", PHP_INI_ALL, OnUpdateSize,
		(void *) offsetof(zend_fastcopy_globals, buffer_size), FASTCOPY_INI_GLOBALS, (void *) 0, NULL)
	PHP_INI_ENTRY3_EX("fastcopy.mmap_window", "4M", PHP_INI_ALL, OnUpdateSize,
		(void *) offsetof(zend_fastcopy_globals, mmap_window), FASTCOPY_INI_GLOBALS, (void *) 1, NULL)
	/* Where the file and upload_tmp_dir share a filesystem that clones: the body
	 * spliced into the file, the spool cloned from it, written once for more of the
	 * worker's CPU (docs/uploads.md). */
	STD_PHP_INI_BOOLEAN("fastcopy.spool_clone", "0", PHP_INI_ALL, OnUpdateBool,
		spool_clone, zend_fastcopy_globals, fastcopy_globals)
	/* How a TCP peer on this host is sent a file (docs/paths.md, "A peer on this host"). */
	PHP_INI_ENTRY("fastcopy.same_host", "zerocopy", PHP_INI_ALL, OnUpdateSameHost)
PHP_INI_END()
/* }}} */

/* {{{ fastcopy_stream(resource $from, resource $to, ?int $length = null, int $offset = 0): int|false
 * Mirrors stream_copy_to_stream() argument for argument, down to its messages
 * (and, from PHP 8.6, its $context). */
PHP_FUNCTION(fastcopy_stream)
{
	fc_stream_copy_function(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}
/* }}} */

/* {{{ fastcopy_stats(): array
 * Per path: calls, bytes and fallbacks by reason; then the built-ins
 * fastcopy.override left to stock, and why. */
PHP_FUNCTION(fastcopy_stats)
{
	ZEND_PARSE_PARAMETERS_NONE();

	array_init_size(return_value, FASTCOPY_COUNTERS + 1);
	for (int p = 0; p < FASTCOPY_COUNTERS; p++) {
		const php_fastcopy_path_stats *s = &FASTCOPY_G(stats)[p];
		zval entry, fallbacks;

		array_init(&fallbacks);
		for (int r = 0; r < FC_REASON_SLOTS; r++) {
			if (s->fallbacks[r]) {
				char buf[32];
				add_assoc_long(&fallbacks, fc_reason_name(r, buf, sizeof(buf)), (zend_long) s->fallbacks[r]);
			}
		}

		array_init_size(&entry, 3);
		add_assoc_long(&entry, "calls", (zend_long) s->calls);
		add_assoc_long(&entry, "bytes", (zend_long) s->bytes);
		add_assoc_zval(&entry, "fallbacks", &fallbacks);
		if (p == FASTCOPY_PATH_FASTCGI_INPUT) {
			add_assoc_long(&entry, "spliced", (zend_long) s->spliced);
			add_assoc_long(&entry, "spool_cloned", (zend_long) s->spool_cloned);
		} else if (p == FASTCOPY_PATH_BODY_FILE) {
			add_assoc_long(&entry, "spool_shared", (zend_long) s->spool_shared);
		} else if (p == FASTCOPY_PATH_HANDOVER) {
			add_assoc_long(&entry, "handed_over", (zend_long) s->handed_over);
			add_assoc_long(&entry, "responses", (zend_long) s->responses);
		}
		add_assoc_zval(return_value, php_fastcopy_path_name((php_fastcopy_path) p), &entry);
	}
	{
		/* not a counter: the built-ins fastcopy.override left to stock, and why */
		zval declined;
		fc_override_declined_to_array(&declined);
		add_assoc_zval(return_value, "left_to_stock", &declined);
	}
}
/* }}} */

static PHP_GINIT_FUNCTION(fastcopy)
{
#if defined(COMPILE_DL_FASTCOPY) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(fastcopy_globals, 0, sizeof(*fastcopy_globals));
}

static PHP_MINIT_FUNCTION(fastcopy)
{
	REGISTER_INI_ENTRIES();
	fc_override_install();
	fc_handover_startup(fc_override_selected());
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(fastcopy)
{
	fc_handover_shutdown();
	fc_override_uninstall();
	fc_mmap_shutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

/* After all of a request's output, before the SAPI ends the response: a file kept
 * for the web server to send goes to it now (src/sapi/handover.c). */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(fastcopy)
{
	fc_handover_request_end();
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(fastcopy)
{
	php_info_print_table_start();
	php_info_print_table_row(2, "fastcopy support", "enabled");
	php_info_print_table_row(2, "Version", PHP_FASTCOPY_VERSION);
	for (int p = 0; p < FASTCOPY_COUNTERS; p++) {
		php_fastcopy_path path = (php_fastcopy_path) p;
		const char *why = p == FASTCOPY_STEP_WRAPPERS ? NULL : fc_path_unavailable(path);
		char state[256];

		/* What this process will do, not only what the build can. */
		if (fc_switched_off(p)) {
			snprintf(state, sizeof(state), "disabled by fastcopy.disable");
		} else if (why) {
			snprintf(state, sizeof(state), "unavailable (%s)", why);
		} else {
			snprintf(state, sizeof(state), "available");
		}
		php_info_print_table_row(2, php_fastcopy_path_name(path), state);
	}
	for (int declined = 0; declined <= 1; declined++) {
		smart_str described = {0};

		fc_override_describe(&described, declined);
		php_info_print_table_row(2, declined ? "Built-ins left to stock" : "Built-ins on the engine",
			ZSTR_VAL(described.s));
		smart_str_free(&described);
	}
	php_info_print_table_end();

	DISPLAY_INI_ENTRIES();
}

zend_module_entry fastcopy_module_entry = {
	STANDARD_MODULE_HEADER,
	"fastcopy",
	ext_functions,
	PHP_MINIT(fastcopy),
	PHP_MSHUTDOWN(fastcopy),
	NULL,
	NULL,
	PHP_MINFO(fastcopy),
	PHP_FASTCOPY_VERSION,
	PHP_MODULE_GLOBALS(fastcopy),
	PHP_GINIT(fastcopy),
	NULL,
	ZEND_MODULE_POST_ZEND_DEACTIVATE_N(fastcopy),
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_FASTCOPY
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(fastcopy)
#endif
