/* A small hashing loop for the assembly listing (annotate --asm, the
 * browser's assembly view): hash_bytes and mix are inlined into
 * build_index, whose two loops give backward conditional jumps with
 * known counts. With N bytes (default 4096, a multiple of 8): the inner
 * loop's jump runs N times and is taken 7 N / 8 times, the outer one's
 * runs N / 8 times and is taken N / 8 - 1 times. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) unsigned mix(unsigned h, unsigned v)
{
    h ^= v;
    h *= 16777619u;
    return h;
}

static inline __attribute__((always_inline)) unsigned
hash_bytes(const unsigned char *p, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = mix(h, p[i]);
    return h;
}

__attribute__((noinline)) unsigned build_index(const unsigned char *buf, int n)
{
    unsigned acc = 0;
    for (int i = 0; i + 8 <= n; i += 8) {
        unsigned h = hash_bytes(buf + i, 8);
        if (h & 1)
            acc += h;
        else
            acc ^= h;
    }
    return acc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    unsigned char *buf = malloc(n > 0 ? n : 1);
    if (!buf)
        return 1;
    for (int i = 0; i < n; i++)
        buf[i] = (unsigned char)(i * 7);
    printf("%u\n", build_index(buf, n));
    free(buf);
    return 0;
}
