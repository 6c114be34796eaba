/* The counters behind fastcopy_stats() (src/core/stats.c). */

#ifndef FASTCOPY_STATS_H
#define FASTCOPY_STATS_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php_fastcopy.h"

void fc_stats_call(php_fastcopy_path path);
void fc_stats_bytes(php_fastcopy_path path, size_t n);
void fc_stats_fallback(php_fastcopy_path path, int reason);
/* fastcgi_input's own counters: bytes spliced into the file, spool bytes cloned from it */
void fc_stats_spliced(size_t n);
void fc_stats_spool_cloned(size_t n);
/* body_file's: bytes whose spool is the stored body */
void fc_stats_spool_shared(size_t n);
/* handover's: a response whose n bytes the web server sent itself */
void fc_stats_handed_over(size_t n);

#endif
