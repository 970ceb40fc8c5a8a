// libinput and libudev for TouchlineInput's libinput source.
//
// libinput is loaded when the libinput source starts (dlopen), not when touchline does: linked,
// it brings libwacom, libgudev, GObject, GLib, libffi and PCRE2, their relocations and GLib's
// constructors, 0.5 MB resident in every command (`replay` included: issue 33's 14 MiB), for
// a source only `run`/`daemon --source libinput` use. Its declarations come from libinput.h as
// before; the calls go through the table below (tl_libinput_*), filled on first use. Each
// wrapper asks for the table itself: a static inline function's static is one per LLVM module
// that uses it, so every copy loads its own (dlopen counts references: one library).
#ifndef TOUCHLINE_CLIBINPUT_SHIM_H
#define TOUCHLINE_CLIBINPUT_SHIM_H
#include <libinput.h>
#include <libudev.h>
#include <dlfcn.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>

struct touchline_libinput_functions {
    __typeof__(&libinput_udev_create_context) libinput_udev_create_context;
    __typeof__(&libinput_udev_assign_seat) libinput_udev_assign_seat;
    __typeof__(&libinput_unref) libinput_unref;
    __typeof__(&libinput_get_fd) libinput_get_fd;
    __typeof__(&libinput_path_create_context) libinput_path_create_context;
    __typeof__(&libinput_path_add_device) libinput_path_add_device;
    __typeof__(&libinput_path_remove_device) libinput_path_remove_device;
    __typeof__(&libinput_device_unref) libinput_device_unref;
    __typeof__(&libinput_dispatch) libinput_dispatch;
    __typeof__(&libinput_get_event) libinput_get_event;
    __typeof__(&libinput_event_destroy) libinput_event_destroy;
    __typeof__(&libinput_event_get_type) libinput_event_get_type;
    __typeof__(&libinput_event_get_device) libinput_event_get_device;
    __typeof__(&libinput_device_has_capability) libinput_device_has_capability;
    __typeof__(&libinput_event_get_touch_event) libinput_event_get_touch_event;
    __typeof__(&libinput_event_touch_get_time_usec) libinput_event_touch_get_time_usec;
    __typeof__(&libinput_event_touch_get_slot) libinput_event_touch_get_slot;
    __typeof__(&libinput_event_touch_get_x_transformed) libinput_event_touch_get_x_transformed;
    __typeof__(&libinput_event_touch_get_y_transformed) libinput_event_touch_get_y_transformed;
    __typeof__(&libinput_device_get_udev_device) libinput_device_get_udev_device;
    __typeof__(&libinput_device_get_name) libinput_device_get_name;
    __typeof__(&libinput_device_ref) libinput_device_ref;
    __typeof__(&libinput_device_set_user_data) libinput_device_set_user_data;
    __typeof__(&libinput_device_get_user_data) libinput_device_get_user_data;
};

#define TOUCHLINE_LIBINPUT_SYMBOL(name) \
    do { if (!(table.name = (__typeof__(table.name))dlsym(library, #name))) { error = #name; return NULL; } } while (0)

/// The table, loaded on first use; NULL when libinput.so.10 or one of its functions is missing
/// (`touchline_libinput_error()` says which).
static inline const struct touchline_libinput_functions *touchline_libinput_table(void) {
    static struct touchline_libinput_functions table;
    static int loaded = 0;
    static const char *error = NULL;
    static void *library = NULL;
    if (loaded) return &table;
    if (error) return NULL;
    library = dlopen("libinput.so.10", RTLD_NOW | RTLD_LOCAL);
    if (!library) { error = dlerror(); return NULL; }
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_udev_create_context);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_udev_assign_seat);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_unref);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_get_fd);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_path_create_context);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_path_add_device);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_path_remove_device);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_unref);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_dispatch);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_get_event);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_destroy);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_get_type);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_get_device);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_has_capability);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_get_touch_event);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_touch_get_time_usec);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_touch_get_slot);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_touch_get_x_transformed);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_event_touch_get_y_transformed);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_get_udev_device);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_get_name);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_ref);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_set_user_data);
    TOUCHLINE_LIBINPUT_SYMBOL(libinput_device_get_user_data);
    loaded = 1;
    return &table;
}

/// Why the table is not there: dlopen's message or the missing function; NULL when it loaded.
static inline const char *touchline_libinput_error(void) {
    if (touchline_libinput_table()) return NULL;
    void *library = dlopen("libinput.so.10", RTLD_NOW | RTLD_LOCAL);
    if (!library) return dlerror();
    dlclose(library);
    return "a libinput function is missing (libinput older than 1.10?)";
}

static inline struct libinput * tl_libinput_udev_create_context(const struct libinput_interface *interface, void *user_data, struct udev *udev) { return touchline_libinput_table()->libinput_udev_create_context(interface, user_data, udev); }
static inline int tl_libinput_udev_assign_seat(struct libinput *libinput, const char *seat_id) { return touchline_libinput_table()->libinput_udev_assign_seat(libinput, seat_id); }
static inline struct libinput * tl_libinput_unref(struct libinput *libinput) { return touchline_libinput_table()->libinput_unref(libinput); }
static inline int tl_libinput_get_fd(struct libinput *libinput) { return touchline_libinput_table()->libinput_get_fd(libinput); }
static inline struct libinput * tl_libinput_path_create_context(const struct libinput_interface *interface, void *user_data) { return touchline_libinput_table()->libinput_path_create_context(interface, user_data); }
static inline struct libinput_device * tl_libinput_path_add_device(struct libinput *libinput, const char *path) { return touchline_libinput_table()->libinput_path_add_device(libinput, path); }
static inline void tl_libinput_path_remove_device(struct libinput_device *device) { touchline_libinput_table()->libinput_path_remove_device(device); }
static inline struct libinput_device * tl_libinput_device_unref(struct libinput_device *device) { return touchline_libinput_table()->libinput_device_unref(device); }
static inline int tl_libinput_dispatch(struct libinput *libinput) { return touchline_libinput_table()->libinput_dispatch(libinput); }
static inline struct libinput_event * tl_libinput_get_event(struct libinput *libinput) { return touchline_libinput_table()->libinput_get_event(libinput); }
static inline void tl_libinput_event_destroy(struct libinput_event *event) { touchline_libinput_table()->libinput_event_destroy(event); }
static inline enum libinput_event_type tl_libinput_event_get_type(struct libinput_event *event) { return touchline_libinput_table()->libinput_event_get_type(event); }
static inline struct libinput_device * tl_libinput_event_get_device(struct libinput_event *event) { return touchline_libinput_table()->libinput_event_get_device(event); }
static inline int tl_libinput_device_has_capability(struct libinput_device *device, enum libinput_device_capability capability) { return touchline_libinput_table()->libinput_device_has_capability(device, capability); }
static inline struct libinput_event_touch * tl_libinput_event_get_touch_event(struct libinput_event *event) { return touchline_libinput_table()->libinput_event_get_touch_event(event); }
static inline uint64_t tl_libinput_event_touch_get_time_usec(struct libinput_event_touch *event) { return touchline_libinput_table()->libinput_event_touch_get_time_usec(event); }
static inline int32_t tl_libinput_event_touch_get_slot(struct libinput_event_touch *event) { return touchline_libinput_table()->libinput_event_touch_get_slot(event); }
static inline double tl_libinput_event_touch_get_x_transformed(struct libinput_event_touch *event, uint32_t width) { return touchline_libinput_table()->libinput_event_touch_get_x_transformed(event, width); }
static inline double tl_libinput_event_touch_get_y_transformed(struct libinput_event_touch *event, uint32_t height) { return touchline_libinput_table()->libinput_event_touch_get_y_transformed(event, height); }
static inline struct udev_device * tl_libinput_device_get_udev_device(struct libinput_device *device) { return touchline_libinput_table()->libinput_device_get_udev_device(device); }
static inline const char * tl_libinput_device_get_name(struct libinput_device *device) { return touchline_libinput_table()->libinput_device_get_name(device); }
static inline struct libinput_device * tl_libinput_device_ref(struct libinput_device *device) { return touchline_libinput_table()->libinput_device_ref(device); }
static inline void tl_libinput_device_set_user_data(struct libinput_device *device, void *user_data) { touchline_libinput_table()->libinput_device_set_user_data(device, user_data); }
static inline void * tl_libinput_device_get_user_data(struct libinput_device *device) { return touchline_libinput_table()->libinput_device_get_user_data(device); }

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
    tl_libinput_device_set_user_data(device, (void *)id);
}

static inline uintptr_t touchline_device_id(struct libinput_device *device) {
    return (uintptr_t)tl_libinput_device_get_user_data(device);
}
#endif
