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
#endif
#endif
