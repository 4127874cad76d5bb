/* Helpers for inline.c: static inline functions that gcc -O2 inlines into
 * their callers, so callgrind attributes their cost to this header with
 * fi=/fe= lines inside the callers' cost blocks. */
#ifndef INLINE_HELPERS_H
#define INLINE_HELPERS_H

#include <string.h>

/* Defined in inline.c / inline_other.c, never inlined: calls from inlined
 * code to them show which file a cfn= without cfi= belongs to. */
unsigned long mix_main(unsigned long x);
unsigned long mix_other(unsigned long x);

/* Defined in this header and kept out of line: a call from inlined header
 * code to a function of the same header. */
__attribute__((noinline)) static unsigned long header_outlined(unsigned long x)
{
    unsigned long r = x;
    for (int i = 0; i < 3; i++)
        r = r * 2654435761u + (unsigned long)i;
    return r;
}

static inline unsigned long square_add(unsigned long a, unsigned long b)
{
    return a * a + b;
}

static inline unsigned long checksum(const char *s)
{
    unsigned long h = 5381;
    size_t n = strlen(s);          /* libc call from inlined code */
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h;
}

static inline unsigned long inlined_caller(unsigned long x)
{
    unsigned long r = square_add(x, 7);
    r ^= mix_main(r);              /* call into the including .c file */
    r += mix_other(r);             /* call into another .c file */
    r += header_outlined(r);       /* call into this header */
    return r;
}

#endif
