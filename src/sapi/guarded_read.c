/* Guarded reads of a server's private structures, through the kernel. */

#include "src/sapi/guarded_read.h"

#ifdef __linux__

#include <stdint.h>
#include <unistd.h>

/* Per thread, for a ZTS PHP under a threaded server. */
ZEND_TLS pid_t self;

void fc_guarded_self(void)
{
	self = getpid();
}

bool fc_guarded_read(const void *addr, void *dst, size_t len)
{
	struct iovec local = {dst, len}, remote = {(void *) addr, len};

	return (uintptr_t) addr >= 65536 && process_vm_readv(self, &local, 1, &remote, 1, 0) == (ssize_t) len;
}

bool fc_guarded_read_aligned(const void *addr, void *dst, size_t len)
{
	return (uintptr_t) addr % sizeof(void *) == 0 && fc_guarded_read(addr, dst, len);
}

bool fc_guarded_read_string(const char *addr, char *dst, size_t len)
{
	struct iovec local = {dst, len - 1}, remote = {(void *) addr, len - 1};
	ssize_t n = (uintptr_t) addr < 65536 ? -1 : process_vm_readv(self, &local, 1, &remote, 1, 0);

	if (n <= 0) {
		return false;
	}
	dst[n] = '\0';
	return true;
}

bool fc_guarded_readv(const struct iovec *local, const struct iovec *remote, int count)
{
	size_t total = 0;

	for (int i = 0; i < count; i++) {
		total += local[i].iov_len;
	}
	return process_vm_readv(self, local, (unsigned long) count, remote, (unsigned long) count, 0) == (ssize_t) total;
}

bool fc_guarded_write(void *addr, const void *src, size_t len)
{
	struct iovec local = {(void *) src, len}, remote = {addr, len};

	return process_vm_writev(self, &local, 1, &remote, 1, 0) == (ssize_t) len;
}

#endif
