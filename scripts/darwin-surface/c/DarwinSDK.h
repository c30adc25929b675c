// The C declarations of Apple's SDK that Rehearsal's Darwin branches use, transcribed with Darwin's
// types and values (macOS/iOS SDK, arm64 and x86_64 LP64 agree on all of them). Each group names the
// SDK header it comes from (MacOSX.sdk/usr/include/...). No Linux header is included: nothing here
// comes from Glibc. When the check reports "cannot find X in scope" for an Apple API, add X here
// (or in ../Darwin.swift if the Swift overlay declares it) with its header, exactly as the SDK has it.
#ifndef REHEARSAL_DARWIN_SDK_H
#define REHEARSAL_DARWIN_SDK_H

// sys/_types.h, sys/_types/*.h, arm/_types.h, i386/_types.h
typedef signed char __int8_t; typedef unsigned char __uint8_t;
typedef short __int16_t; typedef unsigned short __uint16_t;
typedef int __int32_t; typedef unsigned int __uint32_t;
typedef long long __int64_t; typedef unsigned long long __uint64_t;
typedef __int8_t int8_t; typedef __int16_t int16_t; typedef __int32_t int32_t; typedef __int64_t int64_t;
typedef __uint8_t uint8_t; typedef __uint16_t uint16_t; typedef __uint32_t uint32_t; typedef __uint64_t uint64_t;
typedef long intptr_t; typedef unsigned long uintptr_t;
typedef unsigned long size_t; typedef long ssize_t;
typedef unsigned char u_char; typedef unsigned short u_short; typedef unsigned int u_int; typedef unsigned long u_long;
typedef __int32_t dev_t;          // sys/_types/_dev_t.h: __darwin_dev_t is __int32_t (unsigned on Linux)
typedef __uint16_t mode_t;        // sys/_types/_mode_t.h: __darwin_mode_t is __uint16_t
typedef __uint16_t nlink_t;
typedef __uint64_t ino_t;         // _DARWIN_FEATURE_64_BIT_INODE
typedef __uint64_t ino64_t;
typedef __uint32_t uid_t; typedef __uint32_t gid_t;
typedef __int32_t pid_t;
typedef __int64_t off_t;
typedef __int64_t blkcnt_t; typedef __int32_t blksize_t;
typedef long time_t; typedef __int32_t suseconds_t; typedef __uint32_t useconds_t;
typedef __uint64_t rlim_t;
typedef __uint32_t sigset_t;
typedef __uint32_t socklen_t;
typedef __uint8_t sa_family_t; typedef __uint16_t in_port_t; typedef __uint32_t in_addr_t;
typedef __uint32_t fixpt_t; typedef __int32_t segsz_t; typedef __uint32_t u_int32_t; typedef __int32_t boolean_t;
typedef int errno_t;

// sys/_types/_timespec.h, _timeval.h. The C tags carry a prefix and `swift_name` gives Swift the
// SDK's names: Linux's Dispatch module (loaded by Foundation) brings glibc's `struct timespec`,
// `struct timeval` and `struct stat` into the same Clang instance, and identical tags would clash.
#define REHEARSAL_SWIFT_NAME(name) __attribute__((swift_name(#name)))
struct REHEARSAL_SWIFT_NAME(timespec) rehearsal_darwin_timespec { time_t tv_sec; long tv_nsec; };
struct REHEARSAL_SWIFT_NAME(timeval) rehearsal_darwin_timeval { time_t tv_sec; suseconds_t tv_usec; };
#define timespec rehearsal_darwin_timespec
#define timeval rehearsal_darwin_timeval

// time.h (macOS 10.12 / iOS 10): clockid_t is an enum; the CLOCK_* macros alias its constants
// (their Swift spelling is in ../Darwin.swift).
typedef enum {
    _CLOCK_REALTIME = 0, _CLOCK_MONOTONIC = 6, _CLOCK_MONOTONIC_RAW = 4, _CLOCK_MONOTONIC_RAW_APPROX = 5,
    _CLOCK_UPTIME_RAW = 8, _CLOCK_UPTIME_RAW_APPROX = 9, _CLOCK_PROCESS_CPUTIME_ID = 12, _CLOCK_THREAD_CPUTIME_ID = 16
} clockid_t;
int clock_gettime(clockid_t __clock_id, struct timespec *__tp);
__uint64_t clock_gettime_nsec_np(clockid_t __clock_id);
time_t time(time_t *);

// sys/errno.h: `errno` is `(*__error())`; the overlay's `errno` var wraps it.
int *__error(void);
#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define EBADF 9
#define ECHILD 10
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOSPC 28
#define ESPIPE 29
#define EPIPE 32
#define ERANGE 34
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define EINPROGRESS 36
#define EALREADY 37
#define ENOTSOCK 38
#define EMSGSIZE 40
#define EOPNOTSUPP 45
#define EAFNOSUPPORT 47
#define EADDRINUSE 48
#define EADDRNOTAVAIL 49
#define ENETDOWN 50
#define ENETUNREACH 51
#define ECONNABORTED 53
#define ECONNRESET 54
#define ENOBUFS 55
#define EISCONN 56
#define ENOTCONN 57
#define ETIMEDOUT 60
#define ECONNREFUSED 61
#define ELOOP 62
#define ENAMETOOLONG 63
#define EHOSTUNREACH 65
#define ENOTEMPTY 66
#define ENOTSUP 45
#define EMLINK 31
#define EPROTO 100
#define ECANCELED 89
char *strerror(int);

// string.h, stdlib.h, sys/syslimits.h
size_t strlen(const char *);
void *memchr(const void *, int, size_t);
int memcmp(const void *, const void *, size_t);
void *memmove(void *, const void *, size_t);
char *strpbrk(const char *, const char *);
char *strchr(const char *, int);
char *strstr(const char *, const char *);
#define PATH_MAX 1024
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, size_t);
char *strdup(const char *);
void *memcpy(void *, const void *, size_t);
void *memset(void *, int, size_t);
void *malloc(size_t); void *calloc(size_t, size_t); void *realloc(void *, size_t); void free(void *);
char *getenv(const char *);
int setenv(const char *, const char *, int);
int unsetenv(const char *);
void exit(int) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
int atexit(void (*)(void));
char *realpath(const char *, char *);
int mkstemp(char *);
char ***_NSGetEnviron(void);   // crt_externs.h

// stdio.h: FILE is `struct __sFILE`; the streams are __stdinp/__stdoutp/__stderrp (overlay: stdin...).
typedef struct __sFILE { int _opaque; } FILE;
extern FILE *__stdinp; extern FILE *__stdoutp; extern FILE *__stderrp;
int fflush(FILE *);
int fputs(const char *, FILE *);
size_t fwrite(const void *, size_t, size_t, FILE *);
int fileno(FILE *);
int setvbuf(FILE *, char *, int, size_t);
int isatty(int);
#define _IONBF 2
#define _IOLBF 1

// unistd.h (fork/vfork: declared here as C does; the overlay marks them unavailable in Swift)
pid_t fork(void);
pid_t vfork(void);
pid_t getpid(void);
pid_t getppid(void);
uid_t getuid(void);
uid_t geteuid(void);
int close(int);
ssize_t read(int, void *, size_t);
ssize_t write(int, const void *, size_t);
ssize_t pread(int, void *, size_t, off_t);
ssize_t pwrite(int, const void *, size_t, off_t);
off_t lseek(int, off_t, int);
int dup(int);
int dup2(int, int);
int pipe(int [2]);
int unlink(const char *);
int unlinkat(int, const char *, int);
int rmdir(const char *);
int rename(const char *, const char *);
int renameat(int, const char *, int, const char *);
int fsync(int);
int access(const char *, int);
int chdir(const char *);
char *getcwd(char *, size_t);
ssize_t readlink(const char *, char *, size_t);
ssize_t readlinkat(int, const char *, char *, size_t);
int symlink(const char *, const char *);
unsigned int sleep(unsigned int);
int usleep(useconds_t);
int gethostname(char *, size_t);
void _exit(int) __attribute__((noreturn));
long sysconf(int);
int execv(const char *, char *const []);
int execvp(const char *, char *const []);
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define F_OK 0
#define R_OK 4
#define W_OK 2
#define X_OK 1
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _SC_NPROCESSORS_ONLN 58
#define _SC_OPEN_MAX 5
#define _SC_PAGESIZE 29

// sys/wait.h (the W* status macros are function-like and not imported; code decodes status by hand)
pid_t waitpid(pid_t, int *, int);
#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002

// fcntl.h, sys/fcntl.h: open/openat/fcntl are variadic in C, so Swift sees only the overlay's
// fixed-arity wrappers (../Darwin.swift), which call these shims (SwiftOverlayShims).
int open(const char *, int, ...);
int openat(int, const char *, int, ...);
int fcntl(int, int, ...);
int _swift_stdlib_open(const char *path, int oflag, mode_t mode);
int _swift_stdlib_openat(int fd, const char *path, int oflag, mode_t mode);
int _swift_stdlib_fcntl(int fd, int cmd, int value);
int _swift_stdlib_fcntlPtr(int fd, int cmd, void *ptr);
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_ACCMODE 0x0003
#define O_NONBLOCK 0x00000004
#define O_APPEND 0x00000008
#define O_NOFOLLOW 0x00000100
#define O_CREAT 0x00000200
#define O_TRUNC 0x00000400
#define O_EXCL 0x00000800
#define O_DIRECTORY 0x00100000
#define O_CLOEXEC 0x01000000
#define O_NOCTTY 0x00020000
#define O_NOFOLLOW_ANY 0x20000000  // macOS 11, iOS 14
#define AT_FDCWD -2
#define AT_SYMLINK_NOFOLLOW 0x0020
#define AT_REMOVEDIR 0x0080
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_NOCACHE 48
#define F_FULLFSYNC 51
#define F_GETPATH 50
#define FD_CLOEXEC 1

// sys/ioctl.h (ioctl is variadic: overlay wrappers), sys/filio.h
int ioctl(int, unsigned long, ...);
int _swift_stdlib_ioctl(int fd, unsigned long request, int value);
int _swift_stdlib_ioctlPtr(int fd, unsigned long request, void *ptr);
#define FIONREAD 0x4004667f
#define FIONBIO 0x8004667e

// sys/stat.h with _DARWIN_FEATURE_64_BIT_INODE: st_dev is dev_t (Int32), st_mode mode_t (UInt16),
// times are st_atimespec/st_mtimespec/st_ctimespec/st_birthtimespec.
struct REHEARSAL_SWIFT_NAME(stat) rehearsal_darwin_stat {
    dev_t st_dev; mode_t st_mode; nlink_t st_nlink; __uint64_t st_ino; uid_t st_uid; gid_t st_gid; dev_t st_rdev;
    struct timespec st_atimespec; struct timespec st_mtimespec; struct timespec st_ctimespec; struct timespec st_birthtimespec;
    off_t st_size; blkcnt_t st_blocks; blksize_t st_blksize; __uint32_t st_flags; __uint32_t st_gen;
    __int32_t st_lspare; __int64_t st_qspare[2];
};
int stat(const char *, struct rehearsal_darwin_stat *);
int lstat(const char *, struct rehearsal_darwin_stat *);
int fstat(int, struct rehearsal_darwin_stat *);
int fstatat(int, const char *, struct rehearsal_darwin_stat *, int);
int mkdir(const char *, mode_t);
int mkdirat(int, const char *, mode_t);
int chmod(const char *, mode_t);
int fchmod(int, mode_t);
mode_t umask(mode_t);

// sys/file.h
int flock(int, int);
#define LOCK_SH 0x01
#define LOCK_EX 0x02
#define LOCK_NB 0x04
#define LOCK_UN 0x08

// dirent.h
typedef struct { int __dd_fd; } DIR;
struct dirent { __uint64_t d_ino; __uint64_t d_seekoff; __uint16_t d_reclen; __uint16_t d_namlen; __uint8_t d_type; char d_name[1024]; };
DIR *opendir(const char *); DIR *fdopendir(int); struct dirent *readdir(DIR *); int closedir(DIR *);

// sys/resource.h
struct rlimit { rlim_t rlim_cur; rlim_t rlim_max; };
int getrlimit(int, struct rlimit *);
int setrlimit(int, const struct rlimit *);
#define RLIMIT_NOFILE 8
#define RLIMIT_CORE 4
#define RLIM_INFINITY (((__uint64_t)1 << 63) - 1)
// sys/resource.h: struct rusage (ru_maxrss in bytes on Darwin; the tag is prefixed like timeval's,
// as glibc's `struct rusage` is in the same Clang instance), RUSAGE_SELF, getrusage.
struct REHEARSAL_SWIFT_NAME(rusage) rehearsal_darwin_rusage {
    struct timeval ru_utime; struct timeval ru_stime;
    long ru_maxrss; long ru_ixrss; long ru_idrss; long ru_isrss; long ru_minflt; long ru_majflt; long ru_nswap;
    long ru_inblock; long ru_oublock; long ru_msgsnd; long ru_msgrcv; long ru_nsignals; long ru_nvcsw; long ru_nivcsw;
};
#define rusage rehearsal_darwin_rusage
#define RUSAGE_SELF 0
int getrusage(int, struct rusage *);

// sys/sysctl.h, sys/proc.h: sysctl/sysctlbyname and kinfo_proc (kp_proc is struct extern_proc;
// p_comm is char[MAXCOMLEN + 1], MAXCOMLEN = 16; p_un.__p_starttime is a struct timeval).
int sysctl(int *, u_int, void *, size_t *, void *, size_t);
int sysctlbyname(const char *, void *, size_t *, void *, size_t);
#define CTL_KERN 1
#define KERN_MAXFILESPERPROC 29
#define KERN_PROC 14
#define KERN_PROC_PID 1
#define MAXCOMLEN 16
struct extern_proc {
    union { struct { void *__p_forw; void *__p_back; } p_st1; struct timeval __p_starttime; } p_un;
    void *p_vmspace; void *p_sigacts; int p_flag; char p_stat; pid_t p_pid; pid_t p_oppid; int p_dupfd;
    char *user_stack; void *exit_thread; int p_debugger; boolean_t sigwait; u_int p_estcpu; int p_cpticks;
    fixpt_t p_pctcpu; void *p_wchan; char *p_wmesg; u_int p_swtime; u_int p_slptime;
    struct { __uint64_t it_interval[2]; __uint64_t it_value[2]; } p_realtimer;
    struct timeval p_rtime; __uint64_t p_uticks; __uint64_t p_sticks; __uint64_t p_iticks;
    int p_traceflag; void *p_tracep; int p_siglist; void *p_textvp; int p_holdcnt;
    sigset_t p_sigmask; sigset_t p_sigignore; sigset_t p_sigcatch; u_char p_priority; u_char p_usrpri;
    char p_nice; char p_comm[MAXCOMLEN + 1]; void *p_pgrp; void *p_addr; u_short p_xstat; u_short p_acflag; void *p_ru;
};
struct eproc { void *e_paddr; void *e_sess; char e_pcred[72]; char e_ucred[76]; char e_vm[72]; pid_t e_ppid; pid_t e_pgid;
    short e_jobc; dev_t e_tdev; pid_t e_tpgid; void *e_tsess; char e_wmesg[8]; segsz_t e_xsize; short e_xrssize;
    short e_xccount; short e_xswrss; int32_t e_flag; char e_login[12]; int32_t e_spare[4]; };
struct kinfo_proc { struct extern_proc kp_proc; struct eproc kp_eproc; };

// libproc.h (macOS; on iOS the header is not in the SDK)
int proc_name(int pid, void *buffer, uint32_t buffersize);
int proc_pidpath(int pid, void *buffer, uint32_t buffersize);
#define PROC_PIDPATHINFO_MAXSIZE 4096

// signal.h, sys/signal.h: sig_t is `void (*)(int)`; SIG_DFL/SIG_IGN are in the overlay.
typedef void (*sig_t)(int);
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGEMT 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGBUS 10
#define SIGSEGV 11
#define SIGSYS 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 20
#define SIGUSR1 30
#define SIGUSR2 31
#define SIG_BLOCK 1
#define SIG_UNBLOCK 2
#define SIG_SETMASK 3
sig_t signal(int, sig_t);
int kill(pid_t, int);
int raise(int);
int sigemptyset(sigset_t *);
int sigaddset(sigset_t *, int);
int sigfillset(sigset_t *);
int sigprocmask(int, const sigset_t *, sigset_t *);
int sigwait(const sigset_t *, int *);

// pthread.h
typedef struct _opaque_pthread_t { long __sig; char __opaque[8176]; } *pthread_t;
int pthread_sigmask(int, const sigset_t *, sigset_t *);
pthread_t pthread_self(void);
int pthread_main_np(void);
typedef unsigned long pthread_key_t;
int pthread_key_create(pthread_key_t *, void (*)(void *));
int pthread_setspecific(pthread_key_t, const void *);
void *pthread_getspecific(pthread_key_t);
// sys/_pthread/_pthread_types.h (LP64: __PTHREAD_RWLOCK_SIZE__ 192, __PTHREAD_RWLOCKATTR_SIZE__ 16), pthread.h
typedef struct _opaque_pthread_rwlock_t { long __sig; char __opaque[192]; } pthread_rwlock_t;
typedef struct _opaque_pthread_rwlockattr_t { long __sig; char __opaque[16]; } pthread_rwlockattr_t;
int pthread_rwlock_init(pthread_rwlock_t * __restrict, const pthread_rwlockattr_t * __restrict);
int pthread_rwlock_destroy(pthread_rwlock_t *);
int pthread_rwlock_rdlock(pthread_rwlock_t *);
int pthread_rwlock_wrlock(pthread_rwlock_t *);
int pthread_rwlock_unlock(pthread_rwlock_t *);

// dlfcn.h (RTLD_DEFAULT is `((void *) -2)`, a cast macro Swift does not import)
void *dlopen(const char *, int);
void *dlsym(void *, const char *);
int dlclose(void *);
char *dlerror(void);
#define RTLD_LAZY 0x1
#define RTLD_NOW 0x2
#define RTLD_LOCAL 0x4
#define RTLD_GLOBAL 0x8

// sys/event.h: kqueue. `struct kevent` and `kevent()` share a name; Swift imports both.
struct kevent { uintptr_t ident; int16_t filter; uint16_t flags; uint32_t fflags; intptr_t data; void *udata; };
int kqueue(void);
int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist, int nevents, const struct timespec *timeout);
#define EVFILT_READ (-1)
#define EVFILT_WRITE (-2)
#define EVFILT_VNODE (-4)
#define EVFILT_PROC (-5)
#define EVFILT_SIGNAL (-6)
#define EVFILT_TIMER (-7)
#define EVFILT_USER (-10)
#define EV_ADD 0x0001
#define EV_DELETE 0x0002
#define EV_ENABLE 0x0004
#define EV_DISABLE 0x0008
#define EV_ONESHOT 0x0010
#define EV_CLEAR 0x0020
#define EV_RECEIPT 0x0040
#define EV_ERROR 0x4000
#define EV_EOF 0x8000
#define NOTE_TRIGGER 0x01000000
#define NOTE_DELETE 0x00000001
#define NOTE_WRITE 0x00000002
#define NOTE_EXTEND 0x00000004
#define NOTE_ATTRIB 0x00000008
#define NOTE_RENAME 0x00000020

// sys/socket.h, netinet/in.h, netinet/tcp.h, arpa/inet.h, netdb.h: BSD sockaddrs carry a length
// byte (sin_len); SOCK_STREAM is an Int32 macro; no SOCK_CLOEXEC/SOCK_NONBLOCK/MSG_NOSIGNAL.
struct in_addr { in_addr_t s_addr; };
struct in6_addr { union { __uint8_t __u6_addr8[16]; __uint16_t __u6_addr16[8]; __uint32_t __u6_addr32[4]; } __u6_addr; };
struct sockaddr { __uint8_t sa_len; sa_family_t sa_family; char sa_data[14]; };
struct sockaddr_in { __uint8_t sin_len; sa_family_t sin_family; in_port_t sin_port; struct in_addr sin_addr; char sin_zero[8]; };
struct sockaddr_in6 { __uint8_t sin6_len; sa_family_t sin6_family; in_port_t sin6_port; __uint32_t sin6_flowinfo; struct in6_addr sin6_addr; __uint32_t sin6_scope_id; };
struct sockaddr_storage { __uint8_t ss_len; sa_family_t ss_family; char __ss_pad1[6]; __int64_t __ss_align; char __ss_pad2[112]; };
struct sockaddr_un { unsigned char sun_len; sa_family_t sun_family; char sun_path[104]; };
struct linger { int l_onoff; int l_linger; };
struct iovec { void *iov_base; size_t iov_len; };
struct addrinfo { int ai_flags; int ai_family; int ai_socktype; int ai_protocol; socklen_t ai_addrlen; char *ai_canonname; struct sockaddr *ai_addr; struct addrinfo *ai_next; };
#define AF_UNSPEC 0
#define AF_UNIX 1
#define AF_INET 2
#define AF_INET6 30
#define PF_INET AF_INET
#define PF_INET6 AF_INET6
#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOL_SOCKET 0xffff
#define SO_REUSEADDR 0x0004
#define SO_KEEPALIVE 0x0008
#define SO_REUSEPORT 0x0200
#define SO_LINGER 0x0080
#define SO_SNDBUF 0x1001
#define SO_RCVBUF 0x1002
#define SO_ERROR 0x1007
#define SO_SNDTIMEO 0x1005
#define SO_RCVTIMEO 0x1006
#define SO_NOSIGPIPE 0x1022
#define SO_NREAD 0x1020
#define SO_NWRITE 0x1024
#define IPPROTO_IP 0
#define IPPROTO_TCP 6
#define IPPROTO_IPV6 41
#define IPV6_V6ONLY 27
#define TCP_NODELAY 0x01
#define TCP_KEEPALIVE 0x10
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2
#define MSG_PEEK 0x2
#define MSG_DONTWAIT 0x80
#define SOMAXCONN 128
#define INADDR_ANY (u_int32_t)0x00000000
#define INADDR_LOOPBACK (u_int32_t)0x7f000001
#define INET_ADDRSTRLEN 16
#define INET6_ADDRSTRLEN 46
#define AI_PASSIVE 0x00000001
#define AI_NUMERICHOST 0x00000004
#define AI_NUMERICSERV 0x00001000
#define NI_MAXHOST 1025
#define NI_NUMERICHOST 0x00000002
#define NI_NUMERICSERV 0x00000008
int socket(int, int, int);
int bind(int, const struct sockaddr *, socklen_t);
int listen(int, int);
int accept(int, struct sockaddr *, socklen_t *);
int connect(int, const struct sockaddr *, socklen_t);
int shutdown(int, int);
ssize_t recv(int, void *, size_t, int);
ssize_t send(int, const void *, size_t, int);
ssize_t writev(int, const struct iovec *, int);
int setsockopt(int, int, int, const void *, socklen_t);
int getsockopt(int, int, int, void *, socklen_t *);
int getsockname(int, struct sockaddr *, socklen_t *);
int getpeername(int, struct sockaddr *, socklen_t *);
int socketpair(int, int, int, int [2]);
int inet_pton(int, const char *, void *);
in_addr_t inet_addr(const char *);
const char *inet_ntop(int, const void *, char *, socklen_t);
int getaddrinfo(const char *, const char *, const struct addrinfo *, struct addrinfo **);
void freeaddrinfo(struct addrinfo *);
const char *gai_strerror(int);
int getnameinfo(const struct sockaddr *, socklen_t, char *, socklen_t, char *, socklen_t, int);
__uint32_t htonl(__uint32_t); __uint16_t htons(__uint16_t); __uint32_t ntohl(__uint32_t); __uint16_t ntohs(__uint16_t);

// poll.h
struct pollfd { int fd; short events; short revents; };
typedef unsigned int nfds_t;
int poll(struct pollfd *, nfds_t, int);
#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020

// sys/mman.h
void *mmap(void *, size_t, int, int, int, off_t);
int munmap(void *, size_t);
#define PROT_READ 0x01
#define MAP_PRIVATE 0x0002

// termios.h, sys/ioctl.h (TIOCGWINSZ)
struct winsize { unsigned short ws_row; unsigned short ws_col; unsigned short ws_xpixel; unsigned short ws_ypixel; };
#define TIOCGWINSZ 0x40087468

// mach/mach_time.h
struct mach_timebase_info { uint32_t numer; uint32_t denom; };
typedef struct mach_timebase_info mach_timebase_info_data_t;
uint64_t mach_absolute_time(void);
int mach_timebase_info(struct mach_timebase_info *);

#endif
