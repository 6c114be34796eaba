/* Counters behind fastcopy_stats(): for each path, how often it was tried, how many
 * bytes it moved and why it handed over, so an operator can see what their
 * filesystems and sockets really do, and a test can prove which path ran. */

#include "src/core/stats.h"
#include "src/core/reasons.h"

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
	if (reason <= 0 || reason >= FC_REASON_SLOTS) {
		reason = FC_REASON_OTHER;
	}
	FASTCOPY_G(stats)[path].fallbacks[reason]++;
}

void fc_stats_spliced(size_t n)
{
	FASTCOPY_G(stats)[FASTCOPY_PATH_FASTCGI_INPUT].spliced += (zend_ulong) n;
}

void fc_stats_spool_shared(size_t n)
{
	FASTCOPY_G(stats)[FASTCOPY_PATH_BODY_FILE].spool_shared += (zend_ulong) n;
}

void fc_stats_spool_cloned(size_t n)
{
	FASTCOPY_G(stats)[FASTCOPY_PATH_FASTCGI_INPUT].spool_cloned += (zend_ulong) n;
}

void fc_stats_handed_over(size_t n)
{
	FASTCOPY_G(stats)[FASTCOPY_PATH_HANDOVER].handed_over += (zend_ulong) n;
	FASTCOPY_G(stats)[FASTCOPY_PATH_HANDOVER].responses++;
}
