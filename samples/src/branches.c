/* Loops, data-dependent branches, a switch, an indirect call through qsort
 * and two matrix traversals (row-major: cache friendly, column-major: not).
 * Used for: jumps.callgrind (--dump-instr=yes --collect-jumps=yes),
 * cachesim.callgrind (--cache-sim=yes --branch-sim=yes),
 * branches.cachegrind and the cg_diff sample (two runs, different sizes). */
#include <stdio.h>
#include <stdlib.h>

#define N 64

static int matrix[N][N];

__attribute__((noinline)) static long sum_rows(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s += matrix[i][j];
    return s;
}

__attribute__((noinline)) static long sum_cols(int n)
{
    long s = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            s += matrix[i][j];
    return s;
}

__attribute__((noinline)) static int classify(int v)
{
    switch (v % 5) {
    case 0: return 10;
    case 1: return v > 50 ? 20 : 21;
    case 2: return 30;
    case 3: return v & 1 ? 40 : 41;
    default: return 50;
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

__attribute__((noinline)) static long count_big(const int *v, int n, int limit)
{
    long c = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > limit)      /* unpredictable before sorting */
            c++;
    return c;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : N;
    if (n > N) n = N;
    unsigned seed = 12345;
    int data[512];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            matrix[i][j] = i * N + j;
    for (int i = 0; i < 512; i++) {
        seed = seed * 1103515245u + 12345u;
        data[i] = (int)((seed >> 16) % 100);
    }
    long a = sum_rows(n) + sum_cols(n);
    long k = 0;
    for (int i = 0; i < 512; i++)
        k += classify(data[i]);
    long before = count_big(data, 8 * n, 50);
    qsort(data, 512, sizeof data[0], cmp_int);
    long after = count_big(data, 8 * n, 50);
    printf("%ld %ld %ld %ld\n", a, k, before, after);
    return 0;
}
