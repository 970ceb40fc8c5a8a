// libinput and libudev for TouchlineInput's libinput source.
#ifndef TOUCHLINE_CLIBINPUT_SHIM_H
#define TOUCHLINE_CLIBINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>

/// libinput's open_restricted: a plain open that returns -errno, as libinput requires. In C so
/// that it is a plain function pointer with no context (none is needed: we run as a user
/// allowed to open the nodes, or report the EACCES).
static inline int touchline_libinput_open(const char *path, int flags, void *user_data) {
    (void)user_data;
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static inline void touchline_libinput_close(int fd, void *user_data) {
    (void)user_data;
    close(fd);
}

/// libinput keeps the interface pointer for the context's life: a static, never freed.
static inline const struct libinput_interface *touchline_libinput_interface(void) {
    static const struct libinput_interface interface = {
        .open_restricted = touchline_libinput_open,
        .close_restricted = touchline_libinput_close,
    };
    return &interface;
}

static inline void touchline_device_set_id(struct libinput_device *device, uintptr_t id) {
    libinput_device_set_user_data(device, (void *)id);
}

static inline uintptr_t touchline_device_id(struct libinput_device *device) {
    return (uintptr_t)libinput_device_get_user_data(device);
}
#endif
