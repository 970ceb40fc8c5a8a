#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H
#include <stddef.h>
#include <stdint.h>

/// Remembers the input about to run, so that a crash can save it (see FuzzSupport.c). Call it
/// first in LLVMFuzzerTestOneInput.
void fuzz_support_begin(const uint8_t *data, size_t size);

#endif
