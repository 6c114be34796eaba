/* The ways bytes move between two endpoints. Each path answers continue, done,
 * failed or fall back, and leaves the job just past the last byte it delivered. */

#ifndef FASTCOPY_PATHS_H
#define FASTCOPY_PATHS_H

#include "src/core/job.h"

#if defined(HAVE_MMAP) && defined(HAVE_SYS_MMAN_H)
# define FASTCOPY_HAVE_MMAP 1
#endif

/* Largest count one read/write-like syscall moves on Linux (MAX_RW_COUNT). */
#define FC_KERNEL_CHUNK ((size_t) 0x7ffff000)

/* blocks.c: blocks through PHP's stream layer, shared by the paths */
size_t fc_block_size(const fc_job *job);
fc_status fc_write_block(fc_job *job, const char *buf, size_t len, size_t *written);
fc_status fc_move_block(fc_job *job, char *buf, size_t len);
void fc_give_back(fc_job *job, const char *buf, size_t n);
void fc_give_back_after(fc_job *job, const char *buf, size_t n);
void fc_report_write_error(const fc_job *job, int err);

/* buffered.c: through PHP's stream layer */
fc_status fc_copy_readahead(fc_job *job);
fc_status fc_copy_buffered(fc_job *job);
void fc_buffered_release(fc_job *job);

/* kernel.c */
fc_status fc_copy_file_range(fc_job *job);
fc_status fc_copy_sendfile(fc_job *job);
fc_status fc_copy_splice(fc_job *job);
const char *fc_kernel_unavailable(php_fastcopy_path path);

/* same_file.c */
bool fc_same_file(const fc_job *job);
fc_status fc_copy_same_file(fc_job *job);

/* discard.c */
fc_status fc_copy_discard(fc_job *job);

/* mmap_window.c */
fc_status fc_copy_mmap(fc_job *job);
void fc_mmap_release(fc_job *job);
const char *fc_mmap_unavailable(void);
void fc_mmap_shutdown(void);

#endif
