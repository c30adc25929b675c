#ifndef C_SYSTEM_SHIMS_H
#define C_SYSTEM_SHIMS_H
// Linux headers that Swift's Glibc module does not export. Nothing here is third-party:
// it is the C library's own API, made visible to Swift.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
/// Bytes written to a TCP socket that the peer has not acknowledged yet (SIOCOUTQ), or -1.
static inline int cshim_unsent_bytes(int fd) {
    int value = 0;
    return ioctl(fd, SIOCOUTQ, &value) == 0 ? value : -1;
}

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

/// `openat2(2)` with `RESOLVE_NO_SYMLINKS` (5.6+): opens `path` only if no component of it is a
/// symlink. glibc has no wrapper and Swift cannot call the variadic `syscall`, hence this shim.
/// Returns -1 with errno ENOSYS where the kernel (or a seccomp filter) lacks the call.
static inline int stubserver_open_no_symlinks(const char *path, int flags) {
#ifdef SYS_openat2
    struct { unsigned long long flags, mode, resolve; } how = { (unsigned long long)flags, 0, 0x04 /* RESOLVE_NO_SYMLINKS */ };
    return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// CPUs in this process's affinity mask (`sched_getaffinity`), or 0 when it cannot be read.
/// The raw call avoids the glibc wrapper and CPU_COUNT, which need _GNU_SOURCE.
static inline int stubserver_affinity_cpu_count(void) {
    unsigned long long mask[64] = {0}; // 4096 CPUs
    long written = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (written <= 0) return 0;
    int count = 0;
    for (long i = 0; i < written / (long)sizeof mask[0]; i++) count += __builtin_popcountll(mask[i]);
    return count;
}
#endif
#endif
