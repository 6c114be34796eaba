/* The PHP functions on the engine: fastcopy.override's built-ins (override.c) and
 * copy()'s checks (copy_file.c). */

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
void fc_override_uninstall(void);
void fc_override_describe(smart_str *out);
void fc_override_describe_declined(smart_str *out);
void fc_override_declined_to_array(zval *array);

/* php_fastcopy.c: fastcopy_stream(), and the stream_copy_to_stream() override, which
 * leaves to stock the pairs stock copies in the kernel itself */
void fc_stream_copy_function(INTERNAL_FUNCTION_PARAMETERS, bool as_override);

#endif
