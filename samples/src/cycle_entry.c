/* Mutual recursion entered from outside, shaped like SQLite's
 * sqlite3_exec -> sqlite3_step -> sqlite3VdbeExec -> (a nested statement)
 * sqlite3_step: `step` does almost nothing itself, the work is done by
 * `vdbe_exec` and its leaf calls, and a statement may run a nested one.
 * With callgrind's default --separate-recs=2, the nested activations are
 * `step'2` and `vdbe_exec'2`, a cycle entered from `vdbe_exec`.
 * Used for: cycle-entry.callgrind */
#include <stdio.h>
#include <stdlib.h>

static unsigned long vdbe_exec(unsigned depth);

__attribute__((noinline)) static unsigned long leaf(unsigned n)
{
    unsigned long s = 0;
    for (unsigned i = 0; i < n; i++)
        s += (i * i) ^ (s >> 3);
    return s;
}

__attribute__((noinline)) static unsigned long step(unsigned depth)
{
    return vdbe_exec(depth);
}

__attribute__((noinline)) static unsigned long vdbe_exec(unsigned depth)
{
    unsigned long r = leaf(100);
    if (depth > 0)
        r += step(depth - 1);
    return r;
}

__attribute__((noinline)) static unsigned long exec_sql(unsigned stmts, unsigned depth)
{
    unsigned long r = 0;
    for (unsigned i = 0; i < stmts; i++)
        r += step(depth);
    return r;
}

int main(int argc, char **argv)
{
    unsigned stmts = argc > 1 ? (unsigned)atoi(argv[1]) : 20;
    unsigned long r = exec_sql(stmts, 4);
    printf("%lu\n", r);
    return 0;
}
