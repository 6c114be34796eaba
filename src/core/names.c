/* The names users see, made from the lists they are written in: the paths'
 * (php_fastcopy.h) and the fallback reasons' (src/core/reasons.h), with the errno
 * values a fallback can carry; and fastcopy.disable, which takes the paths' names. */

#include "src/core/names.h"
#include "zend_smart_str.h"

#include <errno.h>

/* php_fastcopy.h's globals size their counters without seeing the reasons. */
typedef char fc_reason_slots_match[FC_REASON_SLOTS == FASTCOPY_FALLBACK_SLOTS ? 1 : -1];

#define FC_PATH_NAME(id, name) [FASTCOPY_PATH_##id] = name,
static const char *const path_names[FASTCOPY_COUNTERS] = {
	PHP_FASTCOPY_PATHS(FC_PATH_NAME)
	[FASTCOPY_STEP_WRAPPERS] = "wrappers",
};
#undef FC_PATH_NAME

#define FC_REASON_NAME(name) [FC_REASON_##name] = #name,
static const char *const reason_names[FC_REASON_SLOTS] = {
	FC_REASONS(FC_REASON_NAME)
};
#undef FC_REASON_NAME

/* The errno values a fallback can carry, by name; any other is shown by number. */
#define FC_ERRNO(e) {e, #e},
static const struct {
	int value;
	const char *name;
} errno_names[] = {
	FC_ERRNO(EINVAL) FC_ERRNO(EXDEV) FC_ERRNO(ENOSYS) FC_ERRNO(EIO) FC_ERRNO(EOPNOTSUPP)
#if defined(ENOTSUP) && ENOTSUP != EOPNOTSUPP
	FC_ERRNO(ENOTSUP)
#endif
	FC_ERRNO(EPERM) FC_ERRNO(EBADF) FC_ERRNO(EACCES) FC_ERRNO(ENODEV) FC_ERRNO(EOVERFLOW)
	FC_ERRNO(ENOMEM) FC_ERRNO(ESPIPE) FC_ERRNO(EPIPE) FC_ERRNO(ECONNRESET) FC_ERRNO(ENOTCONN)
	FC_ERRNO(ENOSPC)
#ifdef EDQUOT
	FC_ERRNO(EDQUOT)
#endif
	FC_ERRNO(EFBIG) FC_ERRNO(EISDIR) FC_ERRNO(ETXTBSY)
};
#undef FC_ERRNO

PHP_FASTCOPY_API const char *php_fastcopy_path_name(php_fastcopy_path path)
{
	return (unsigned) path < FASTCOPY_COUNTERS ? path_names[path] : "unknown";
}

const char *fc_reason_name(int reason, char *buf, size_t buflen)
{
	if (reason > FC_REASON_ERRNO_MAX && reason < FC_REASON_SLOTS) {
		return reason_names[reason];
	}
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++) {
		if (errno_names[i].value == reason) {
			return errno_names[i].name;
		}
	}
	snprintf(buf, buflen, "errno %d", reason);
	return buf;
}

bool fc_switched_off(int counter)
{
	return counter != FASTCOPY_PATH_BUFFERED && (FASTCOPY_G(disabled_paths) & (1 << counter));
}

/* "unknown path "x" (expected a, b or c)": every name fastcopy.disable takes. */
static void warn_unknown_path(const char *word, size_t len)
{
	smart_str expected = {0};
	int last = FASTCOPY_COUNTERS - 1;

	for (int p = 0; p < FASTCOPY_COUNTERS; p++) {
		if (p == FASTCOPY_PATH_BUFFERED) {
			continue;
		}
		if (expected.s) {
			smart_str_appends(&expected, p == last ? " or " : ", ");
		}
		smart_str_appends(&expected, path_names[p]);
	}
	smart_str_0(&expected);
	php_error_docref(NULL, E_WARNING, "fastcopy.disable: unknown path \"%.*s\" (expected %s)",
		(int) len, word, ZSTR_VAL(expected.s));
	smart_str_free(&expected);
}

/* A comma-separated list of paths to route around, e.g. a filesystem whose
 * copy_file_range misbehaves; blanks around each name are ignored, case too. */
zend_result fc_disable_mask(const zend_string *value, zend_long *mask)
{
	const char *p = ZSTR_VAL(value), *end = p + ZSTR_LEN(value);

	*mask = 0;
	while (p < end) {
		const char *comma = memchr(p, ',', end - p);
		const char *word_end = comma ? comma : end;
		bool known = false;

		while (p < word_end && (*p == ' ' || *p == '\t')) {
			p++;
		}
		while (word_end > p && (word_end[-1] == ' ' || word_end[-1] == '\t')) {
			word_end--;
		}
		if (word_end > p) {
			for (int path = 0; path < FASTCOPY_COUNTERS; path++) {
				const char *name = path_names[path];

				if (path != FASTCOPY_PATH_BUFFERED && strlen(name) == (size_t) (word_end - p)
						&& !strncasecmp(name, p, word_end - p)) {
					*mask |= 1 << path;
					known = true;
				}
			}
			if (!known) {
				warn_unknown_path(p, (size_t) (word_end - p));
				return FAILURE;
			}
		}
		p = comma ? comma + 1 : end;
	}
	return SUCCESS;
}
