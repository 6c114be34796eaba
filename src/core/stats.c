/* Counters behind fastcopy_stats(): for each path, how often it was tried, how many
 * bytes it moved and why it handed over, so an operator can see what their
 * filesystems and sockets really do, and a test can prove which path ran. */

#include "src/core/stats.h"

#include <errno.h>

void fc_stats_call(php_fastcopy_path path)
{
	FASTCOPY_G(stats)[path].calls++;
}

void fc_stats_bytes(php_fastcopy_path path, size_t n)
{
	FASTCOPY_G(stats)[path].bytes += n;
}

void fc_stats_fallback(php_fastcopy_path path, int reason)
{
	if (reason <= 0 || (reason > FASTCOPY_REASON_ERRNO_MAX && reason < FASTCOPY_REASON_ZERO)
			|| reason >= FASTCOPY_REASON_SLOTS) {
		reason = FASTCOPY_REASON_OTHER;
	}
	FASTCOPY_G(stats)[path].fallbacks[reason]++;
}

void fc_stats_spliced(size_t n)
{
	FASTCOPY_G(stats)[FASTCOPY_PATH_FASTCGI_INPUT].spliced += (zend_ulong) n;
}

void fc_stats_spool_cloned(size_t n)
{
	FASTCOPY_G(stats)[FASTCOPY_PATH_FASTCGI_INPUT].spool_cloned += (zend_ulong) n;
}

/* The errno names a fallback can carry; any other is shown by number. */
const char *fc_reason_name(int reason, char *buf, size_t buflen)
{
	switch (reason) {
		case FASTCOPY_REASON_ZERO: return "ZERO";
		case FASTCOPY_REASON_APPEND: return "O_APPEND";
		case FASTCOPY_REASON_OTHER: return "OTHER";
		case FASTCOPY_REASON_HANDLER: return "OUTPUT_HANDLER";
		case FASTCOPY_REASON_ABORTED: return "OUTPUT_DISABLED";
		case FASTCOPY_REASON_FINISHED: return "REQUEST_FINISHED";
		case FASTCOPY_REASON_UNVERIFIED: return "UNVERIFIED";
		case FASTCOPY_REASON_CLIENT: return "CLIENT_ABORTED";
		case FASTCOPY_REASON_TIMEOUT: return "TIMED_OUT";
		case FASTCOPY_REASON_ENDED: return "SCRIPT_ENDED";
		case FASTCOPY_REASON_SMALL: return "SMALL_RESPONSE";
		case FASTCOPY_REASON_SUBREQUEST: return "SUBREQUEST";
		case FASTCOPY_REASON_HEAD: return "HEAD";
		case FASTCOPY_REASON_FILTERS: return "FILTER_CHAIN";
		case FASTCOPY_REASON_CALLBACK: return "CALLBACK_SET";
		case FASTCOPY_REASON_SUBCLASS: return "SUBCLASS";
		case FASTCOPY_REASON_UNKNOWN: return "UNKNOWN_CLASS";
		case FASTCOPY_REASON_INNER: return "INNER_UNUSABLE";
		case FASTCOPY_REASON_FILTERED: return "FILTERED";
		case FASTCOPY_REASON_SHRANK: return "FILE_SHRANK";
		case FASTCOPY_REASON_FILTER_FAILED: return "FILTER_FAILED";
		case FASTCOPY_REASON_MEMORY: return "SPOOL_IN_MEMORY";
		case FASTCOPY_REASON_UNSPOOLED: return "NOT_SPOOLED";
		case FASTCOPY_REASON_BEHIND: return "BEHIND_LIVE_EDGE";
		case FASTCOPY_REASON_BODY_FILE: return "REQUEST_BODY_FILE";
		case FASTCOPY_REASON_FILL_SIZE: return "FILL_SIZE";
		case EINVAL: return "EINVAL";
		case EXDEV: return "EXDEV";
		case ENOSYS: return "ENOSYS";
		case EIO: return "EIO";
		case EOPNOTSUPP: return "EOPNOTSUPP";
#if defined(ENOTSUP) && ENOTSUP != EOPNOTSUPP
		case ENOTSUP: return "ENOTSUP";
#endif
		case EPERM: return "EPERM";
		case EBADF: return "EBADF";
		case EACCES: return "EACCES";
		case ENODEV: return "ENODEV";
		case EOVERFLOW: return "EOVERFLOW";
		case ENOMEM: return "ENOMEM";
		case ESPIPE: return "ESPIPE";
		case EPIPE: return "EPIPE";
		case ECONNRESET: return "ECONNRESET";
		case ENOTCONN: return "ENOTCONN";
		case ENOSPC: return "ENOSPC";
#ifdef EDQUOT
		case EDQUOT: return "EDQUOT";
#endif
		case EFBIG: return "EFBIG";
		case EISDIR: return "EISDIR";
		case ETXTBSY: return "ETXTBSY";
		default:
			snprintf(buf, buflen, "errno %d", reason);
			return buf;
	}
}
