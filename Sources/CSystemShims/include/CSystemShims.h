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
#endif
#endif
