/* The PHP functions on the engine: stream_copy_to_stream()'s parameters
 * (stream_copy.c), fastcopy.override's built-ins (override.c) and copy()'s checks
 * (copy_file.c). */

#ifndef FASTCOPY_FUNCTIONS_H
#define FASTCOPY_FUNCTIONS_H

#include "src/core/job.h"
#include "zend_smart_str.h"

/* copy_file.c */
zend_result fc_copy_file(const char *src, const char *dest, php_stream_context *ctx);

/* override.c */
ZEND_INI_MH(fc_on_update_override);
#ifdef FASTCOPY_DEV
ZEND_INI_MH(fc_on_update_dev_parameters);
#endif
void fc_override_install(void);
bool fc_override_selected(void);
void fc_override_uninstall(void);
void fc_override_describe(smart_str *out, bool declined);
void fc_override_declined_to_array(zval *array);

/* stream_copy.c: fastcopy_stream()'s and stream_copy_to_stream()'s parameters; the
 * copy an overridden built-in makes, which leaves to stock the pairs stock 8.6
 * copies in the kernel itself */
void fc_stream_copy_function(INTERNAL_FUNCTION_PARAMETERS, bool as_override);
zend_result fc_override_copy(php_stream *src, php_stream *dest, size_t maxlen, size_t *len);
#if PHP_VERSION_ID >= 80600
bool fc_stock_copies_in_kernel(php_stream *src, php_stream *dest);
#endif

#endif
