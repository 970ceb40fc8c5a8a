// libevdev and the kernel's input headers for TouchlineInput. The kernel's ioctl macros and
// timerfd/signalfd/epoll helpers that Swift cannot import as macros are restated here as
// static inline functions.
#ifndef TOUCHLINE_CLIBEVDEV_SHIM_H
#define TOUCHLINE_CLIBEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <dirent.h>
#include <time.h>
#include <sys/inotify.h>
#include <string.h>
#include <spawn.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/// errno after a libc call, without Glibc's thread-local accessor dance in Swift.
static inline int touchline_errno(void) { return errno; }

static inline int touchline_open_nonblocking(const char *path, int writable) {
    return open(path, (writable ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
}

/// UI_SET_PHYS on a /dev/uinput descriptor before its device is created (libevdev's uinput
/// creation sets no phys): 0, or -1 with errno.
static inline int touchline_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}

/// Fills a signal set with SIGINT, SIGTERM and SIGHUP, blocks them (so signalfd receives them
/// instead of their default action) and returns a non-blocking signalfd, or -1.
static inline int touchline_signalfd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

/// Reads one signal from a signalfd: its number, 0 when none is pending, -1 on error.
static inline int touchline_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n != (ssize_t)sizeof info) return (n < 0 && errno == EAGAIN) ? 0 : -1;
    return (int)info.ssi_signo;
}

/// Arms a CLOCK_MONOTONIC timerfd to an absolute time in µs; 0 disarms it.
static inline int touchline_timerfd_set(int fd, long long microseconds) {
    struct itimerspec spec = {0};
    if (microseconds > 0) {
        spec.it_value.tv_sec = microseconds / 1000000;
        spec.it_value.tv_nsec = (microseconds % 1000000) * 1000;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

/// Drains a timerfd's expiry count; returns the count, 0 when not expired, -1 on error.
static inline long long touchline_timerfd_read(int fd) {
    unsigned long long count = 0;
    ssize_t n = read(fd, &count, sizeof count);
    if (n != (ssize_t)sizeof count) return (n < 0 && errno == EAGAIN) ? 0 : -1;
    return (long long)count;
}

static inline long long touchline_monotonic_microseconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/// Writes a run of events in one write(2), so a frame reaches the kernel whole.
static inline ssize_t touchline_write_events(int fd, const struct input_event *events, size_t count) {
    return write(fd, events, count * sizeof *events);
}

static inline void touchline_set_event(struct input_event *e, unsigned short type, unsigned short code, int value) {
    e->input_event_sec = 0;
    e->input_event_usec = 0;
    e->type = type;
    e->code = code;
    e->value = value;
}

static inline long long touchline_event_microseconds(const struct input_event *e) {
    return (long long)e->input_event_sec * 1000000LL + (long long)e->input_event_usec;
}

static inline int touchline_clock_monotonic(void) { return CLOCK_MONOTONIC; }

static inline int touchline_epoll_add(int epfd, int fd, unsigned long long token) {
    struct epoll_event ev = {0};
    ev.events = EPOLLIN;
    ev.data.u64 = token;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

static inline int touchline_epoll_remove(int epfd, int fd) {
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
}

/// Waits for one ready descriptor; writes its token and event bits. Returns 1, 0 (interrupted)
/// or -1. Blocks without a timeout: wake-ups come only from descriptors (the timerfd included).
static inline int touchline_epoll_wait_one(int epfd, unsigned long long *token, unsigned int *bits) {
    struct epoll_event ev;
    int n = epoll_wait(epfd, &ev, 1, -1);
    if (n == 1) { *token = ev.data.u64; *bits = ev.events; }
    if (n < 0 && errno == EINTR) return 0;
    return n;
}

static inline unsigned int touchline_epollhup(void) { return EPOLLHUP | EPOLLERR; }

/// Watches a directory for new or re-permissioned entries (IN_CREATE: devtmpfs made a node;
/// IN_ATTRIB: udev changed its mode or group, so a node we could not open may now open).
static inline int touchline_inotify_directory(const char *path, int *watch) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    *watch = inotify_add_watch(fd, path, IN_CREATE | IN_ATTRIB);
    if (*watch < 0) { int e = errno; close(fd); errno = e; return -1; }
    return fd;
}

/// Reads one batch of inotify records into buf; returns bytes read, 0 when none, -1 on error.
static inline long touchline_inotify_read(int fd, char *buf, unsigned long size) {
    ssize_t n = read(fd, buf, size);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    return (long)n;
}

/// The name in the record at offset; returns the next record's offset.
static inline unsigned long touchline_inotify_record(const char *buf, unsigned long offset, const char **name) {
    const struct inotify_event *e = (const struct inotify_event *)(buf + offset);
    *name = e->len > 0 ? e->name : "";
    return offset + sizeof(struct inotify_event) + e->len;
}
// The event socket (TouchlineInput/Socket/UnsafeSocket.swift): a Unix stream socket's address is a
// fixed-size array, so the path's length is checked here, before it is copied.
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <grp.h>

/// A non-blocking AF_UNIX stream socket bound to `path` (not listening yet, so no client can
/// connect before its mode is set); -1 with errno (ENAMETOOLONG for a path sun_path cannot hold).
static inline int touchline_unix_bind(const char *path) {
    struct sockaddr_un addr = {0};
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof addr.sun_path) { errno = ENAMETOOLONG; return -1; }
    addr.sun_family = AF_UNIX;
    memcpy(addr.sun_path, path, n + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { int e = errno; close(fd); errno = e; return -1; }
    return fd;
}

/// A client connection to `path` (blocking unless `nonblocking`); -1 with errno.
static inline int touchline_unix_connect(const char *path, int nonblocking) {
    struct sockaddr_un addr = {0};
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof addr.sun_path) { errno = ENAMETOOLONG; return -1; }
    addr.sun_family = AF_UNIX;
    memcpy(addr.sun_path, path, n + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) { int e = errno; close(fd); errno = e; return -1; }
    return fd;
}

/// A pending connection, non-blocking; -1 with errno (EAGAIN: none pending).
static inline int touchline_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

/// send(2) that never raises SIGPIPE nor blocks.
static inline long touchline_send(int fd, const void *bytes, unsigned long count) {
    return (long)send(fd, bytes, count, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/// What is at `path` without following a link: 0 nothing, 1 a socket, 2 anything else, -1 error.
static inline int touchline_path_kind(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : -1;
    return S_ISSOCK(st.st_mode) ? 1 : 2;
}

/// The mode bits (permissions) and group of `path`; -1 with errno.
static inline int touchline_path_mode(const char *path, unsigned int *mode, unsigned int *gid) {
    struct stat st;
    if (lstat(path, &st) != 0) return -1;
    *mode = st.st_mode & 07777;
    *gid = st.st_gid;
    return 0;
}

/// A group's id by name: 0 found, 1 no such group, -1 error (errno).
static inline int touchline_group_id(const char *name, unsigned int *gid) {
    struct group grp, *found = NULL;
    char buf[16384];
    int e = getgrnam_r(name, &grp, buf, sizeof buf, &found);
    if (e != 0) { errno = e; return -1; }
    if (!found) return 1;
    *gid = found->gr_gid;
    return 0;
}

/// Adds (op EPOLL_CTL_ADD) or changes (EPOLL_CTL_MOD) a descriptor's interest: input and/or
/// output (hang-ups and errors are always reported).
static inline int touchline_epoll_set(int epfd, int op, int fd, unsigned long long token, int input, int output) {
    struct epoll_event ev = {0};
    ev.events = (input ? EPOLLIN : 0) | (output ? EPOLLOUT : 0);
    ev.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &ev);
}
static inline int touchline_epoll_ctl_add(void) { return EPOLL_CTL_ADD; }
static inline int touchline_epoll_ctl_mod(void) { return EPOLL_CTL_MOD; }

/// Waits up to `timeout` ms (0: not at all) for up to `max` ready descriptors (at most 64);
/// writes their tokens. Returns how many, 0 (none or interrupted) or -1.
static inline int touchline_epoll_wait_tokens(int epfd, unsigned long long *tokens, int max, int timeout) {
    struct epoll_event evs[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, evs, max, timeout);
    if (n < 0 && errno == EINTR) return 0;
    for (int i = 0; i < n; i++) tokens[i] = evs[i].data.u64;
    return n;
}
/// Actions of the daemon (TouchlineInput/Process/UnsafeProcess.swift). Spawns argv (PATH search) with
/// envp: standard input /dev/null, a process group of its own (so that a timeout kills what a
/// shell started too), default dispositions and an empty signal mask (the daemon blocks
/// SIGINT/SIGTERM/SIGHUP for its signalfd; a child inheriting that could not be stopped).
/// Returns 0 and the pid, or an errno (exec failures included). With `output` (not NULL), the
/// child's standard output and error are the write end of a new pipe whose read end
/// (non-blocking, close-on-exec) is returned there, so that the daemon can prefix each line.
static inline int touchline_spawn(char *const argv[], char *const envp[], int *pid, int *output) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t none, all;
    pid_t child;
    int r;
    int p[2] = { -1, -1 };
    if (output && pipe2(p, O_CLOEXEC) != 0) return errno;
    if ((r = posix_spawn_file_actions_init(&actions)) != 0) { if (output) { close(p[0]); close(p[1]); } return r; }
    if ((r = posix_spawnattr_init(&attributes)) != 0) { posix_spawn_file_actions_destroy(&actions); if (output) { close(p[0]); close(p[1]); } return r; }
    sigemptyset(&none);
    sigfillset(&all);
    r = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    /* Its standard output goes where the daemon's messages go (stderr: the journal), never
       into the daemon's own standard output, which `daemon --stdout` keeps for events; or
       both into the pipe the daemon reads. dup2 clears close-on-exec on the copies. */
    if (output) {
        if (r == 0) r = posix_spawn_file_actions_adddup2(&actions, p[1], 1);
        if (r == 0) r = posix_spawn_file_actions_adddup2(&actions, p[1], 2);
    } else if (r == 0) {
        r = posix_spawn_file_actions_adddup2(&actions, 2, 1);
    }
    if (r == 0) r = posix_spawnattr_setsigmask(&attributes, &none);
    if (r == 0) r = posix_spawnattr_setsigdefault(&attributes, &all);
    if (r == 0) r = posix_spawnattr_setpgroup(&attributes, 0);
    if (r == 0) r = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    if (r == 0) r = posix_spawnp(&child, argv[0], &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (output) {
        close(p[1]);
        if (r == 0 && fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK) != 0) r = errno;
        if (r == 0) *output = p[0]; else close(p[0]);
    }
    if (r == 0) *pid = child;
    return r;
}

/// Reads what is there without waiting: bytes read, 0 at end of file, -1 when nothing is
/// there yet (EAGAIN, EINTR), -2 on another error.
static inline long touchline_read_available(int fd, void *buffer, unsigned long count) {
    ssize_t n = read(fd, buffer, count);
    if (n >= 0) return (long)n;
    return (errno == EAGAIN || errno == EINTR) ? -1 : -2;
}

/// A descriptor readable once the process has exited (Linux 5.3), or -1.
static inline int touchline_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/// The child's wait status once it has exited (and reaps it); -1 while it runs; -2 on error.
static inline int touchline_reap(int pid) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == 0) return -1;
    if (r < 0) return -2;
    return status;
}

static inline int touchline_kill_group(int pid, int signo) { return kill(-pid, signo); }

/// Whether process group `pgid` still has a process: 1 or 0. Its members that are the caller's
/// own children and have exited are reaped first (a daemon that is PID 1 inherits orphans, whose
/// zombies would otherwise count for ever).
static inline int touchline_group_alive(int pgid) {
    int status;
    while (waitpid(-pgid, &status, WNOHANG) > 0) {}
    return kill(-pgid, 0) == 0 || errno == EPERM;
}

static inline int touchline_sigterm(void) { return SIGTERM; }
static inline int touchline_sigkill(void) { return SIGKILL; }
static inline int touchline_exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
static inline int touchline_term_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

/// Waits up to `milliseconds` for fd to be readable: 1, 0 (not yet) or -1.
static inline int touchline_poll_readable(int fd, int milliseconds) {
    struct pollfd p = { fd, POLLIN, 0 };
    int n = poll(&p, 1, milliseconds);
    if (n < 0 && errno == EINTR) return 0;
    return n;
}

#endif
