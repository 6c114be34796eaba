/* Reads (and the one write) of a server's private structures in this process
 * through the kernel, process_vm_readv(2): an address that is not mapped fails with
 * EFAULT instead of faulting, so a wrong guess about a layout is a refusal, never a
 * crash. Shared by the guards of the fastcgi and apache paths. */

#ifndef FASTCOPY_GUARDED_READ_H
#define FASTCOPY_GUARDED_READ_H

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"

#ifdef __linux__

#include <sys/uio.h>

/* Takes this process's id anew: after a fork (prefork's children), before a read. */
void fc_guarded_self(void);
/* len bytes at addr; an address in the first 64 KiB is refused unread. */
bool fc_guarded_read(const void *addr, void *dst, size_t len);
/* A structure, which is aligned wherever it really is one. */
bool fc_guarded_read_aligned(const void *addr, void *dst, size_t len);
/* A string, cut to len - 1 bytes: the kernel stops at an unmapped page, so a short
 * string just before one still reads. */
bool fc_guarded_read_string(const char *addr, char *dst, size_t len);
/* Several ranges in one call: whether all of them were read whole. */
bool fc_guarded_readv(const struct iovec *local, const struct iovec *remote, int count);
bool fc_guarded_write(void *addr, const void *src, size_t len);

#endif

#endif
