/* Self recursion (fib), mutual recursion (is_even/is_odd) and a
 * three-function cycle (cycle_a -> cycle_b -> cycle_c -> cycle_a).
 * Used for: recursion.callgrind, recursion-separate-recs1.callgrind,
 * recursion-nocompress.callgrind, recursion.callgrind.gz */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

static int is_odd(unsigned n);

__attribute__((noinline)) static int is_even(unsigned n)
{
    if (n == 0)
        return 1;
    return is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(unsigned n)
{
    if (n == 0)
        return 0;
    return is_even(n - 1);
}

static unsigned long cycle_b(unsigned n);
static unsigned long cycle_c(unsigned n);

__attribute__((noinline)) static unsigned long cycle_a(unsigned n)
{
    if (n == 0)
        return 1;
    return 1 + cycle_b(n - 1);
}

__attribute__((noinline)) static unsigned long cycle_b(unsigned n)
{
    if (n == 0)
        return 2;
    return 2 + cycle_c(n - 1);
}

__attribute__((noinline)) static unsigned long cycle_c(unsigned n)
{
    if (n == 0)
        return 3;
    return 3 + cycle_a(n - 1);
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 15;
    unsigned long f = fib(n);
    int e = is_even(n * 3);
    unsigned long c = cycle_a(n * 2);
    printf("fib(%u)=%lu even(%u)=%d cycle(%u)=%lu\n", n, f, n * 3, e, n * 2, c);
    return 0;
}
