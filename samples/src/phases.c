/* Three phases, each called from main; used with --dump-before=phase_*
 * (dumps/callgrind.out.1000.N) and --combine-dumps=yes (several parts in
 * one file). A dump taken while main is still running has call edges with
 * calls=0 (the call started in an earlier part). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
    return x * 31 + 7;
}

__attribute__((noinline)) static unsigned long phase_one(unsigned n)
{
    unsigned long s = 0;
    for (unsigned i = 0; i < n; i++)
        s += leaf(i);
    return s;
}

__attribute__((noinline)) static unsigned long phase_two(unsigned n)
{
    unsigned long s = 1;
    for (unsigned i = 0; i < 2 * n; i++)
        s ^= leaf(s + i);
    return s;
}

__attribute__((noinline)) static unsigned long phase_three(unsigned n)
{
    char *buf = malloc(n);
    unsigned long s = 0;
    for (unsigned i = 0; i < n; i++)
        buf[i] = (char)leaf(i);
    for (unsigned i = 0; i < n; i++)
        s += (unsigned char)buf[i];
    free(buf);
    return s;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100;
    unsigned long r = phase_one(n);
    r += phase_two(n);
    r += phase_three(n);
    printf("%lu\n", r);
    return 0;
}
