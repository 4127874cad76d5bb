/* Built with -O2 -g: the static inline functions of inline_helpers.h are
 * inlined into work() and main(), which makes callgrind write fi=/fe=
 * lines. Used for: inline.callgrind, inline-instr.callgrind */
#include <stdio.h>
#include <stdlib.h>
#include "inline_helpers.h"

__attribute__((noinline)) unsigned long mix_main(unsigned long x)
{
    return (x * 0xff51afd7ed558ccdul) ^ (x >> 33);
}

__attribute__((noinline)) static unsigned long work(unsigned n, const char *text)
{
    unsigned long acc = 0;
    for (unsigned i = 0; i < n; i++) {
        acc += inlined_caller(acc + i);
        acc ^= checksum(text);
        acc = square_add(acc & 0xffff, i);
    }
    return acc;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
    const char *text = argc > 2 ? argv[2] : "callgrind inlining sample";
    unsigned long r = work(n, text);
    r += checksum("main calls checksum too");
    printf("%lu\n", r);
    return 0;
}
