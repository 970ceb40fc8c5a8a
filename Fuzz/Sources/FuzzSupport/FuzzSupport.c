// Saves the input that crashed when libFuzzer cannot. On a deadly signal libFuzzer first
// prints a stack trace and only then writes the crash-* file; when the crash has overwritten the
// stack (the JSON writer's scratch did), the unwinder faults in turn and the input is lost. This
// handler runs before libFuzzer's, on its own stack, and does only async-signal-safe work: it
// writes the input to $FUZZ_CRASH_INPUT, then gives the signal back to libFuzzer's handler.
#include "FuzzSupport.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const uint8_t *current_data;
static size_t current_size;
static const char *crash_path;
static const int deadly[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
static struct sigaction previous[sizeof deadly / sizeof deadly[0]];
static char alternate_stack[256 * 1024];

static void say(const char *text) {
    ssize_t unused = write(2, text, strlen(text));
    (void)unused;
}

static void on_deadly_signal(int signal, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    if (crash_path && current_data) {
        int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            size_t done = 0;
            while (done < current_size) {
                ssize_t n = write(fd, current_data + done, current_size - done);
                if (n <= 0) break;
                done += (size_t)n;
            }
            close(fd);
            say("FuzzSupport: deadly signal; the input is saved as ");
            say(crash_path);
            say("\n");
        }
        current_data = NULL;
    }
    // Back to libFuzzer's handler: returning re-runs the faulting instruction, which raises
    // the signal again; a signal sent (abort) is raised again here.
    for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++) {
        if (deadly[i] == signal) sigaction(signal, &previous[i], NULL);
    }
    if (info == NULL || info->si_code <= 0) raise(signal);
}

void fuzz_support_begin(const uint8_t *data, size_t size) {
    static int installed;
    current_data = data;
    current_size = size;
    // Installed on the first input, after libFuzzer has installed its own handlers.
    if (installed) return;
    installed = 1;
    crash_path = getenv("FUZZ_CRASH_INPUT");
    if (crash_path == NULL || crash_path[0] == 0) return;
    stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack, .ss_flags = 0};
    sigaltstack(&stack, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_deadly_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++) {
        sigaction(deadly[i], &action, &previous[i]);
    }
}
