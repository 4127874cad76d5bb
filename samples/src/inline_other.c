/* Out-of-line helper in a separate translation unit (see inline.c). */
#include "inline_helpers.h"

__attribute__((noinline)) unsigned long mix_other(unsigned long x)
{
    return (x >> 3) ^ (x << 5) ^ 0x9e3779b97f4a7c15ul;
}
