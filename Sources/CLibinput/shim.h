// libinput and libudev for TouchlineInput's libinput source.
#ifndef TOUCHLINE_CLIBINPUT_SHIM_H
#define TOUCHLINE_CLIBINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/// libinput's open_restricted: a plain open that returns -errno, as libinput requires.
static inline int touchline_libinput_open(const char *path, int flags) {
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}
static inline void touchline_libinput_close(int fd) { close(fd); }
#endif
