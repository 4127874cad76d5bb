/* A dump taken while a call that started in an earlier part is still
 * active. Run with --separate-recs=1 --dump-before=trigger
 * --combine-dumps=yes. In part 2, walk()'s block has a plain cost row for
 * the `if (i == 1)` line, then the call walk(n - 1) that started in part 1
 * (its basic block did not run in part 2: no plain row of its own), so the
 * row after that calls= line is written relative to the `if` line and is
 * not "*"; the next plain row is relative to the `if` line too, not to the
 * row after calls=. Used for: active-call.callgrind */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void trigger(unsigned long v)
{
    sink += v;
}

__attribute__((noinline)) static void walk(int n)
{
    for (int i = 0; i < 2; i++) {
        if (i == 1)
            trigger((unsigned long)n);
        else if (n > 0)
            walk(n - 1);
    }
}

int main(void)
{
    walk(2);
    printf("%lu\n", sink);
    return 0;
}
