/* One small program built three ways for the tests of `cgtui check` and
 * `report --series` (tests/support/runs.rs): WORK sets how often `hot`
 * loops, EXTRA adds a call to `extra`. No library calls after start-up,
 * so the builds differ only where the source says. */

#ifndef WORK
#define WORK 1000
#endif

static volatile long sink;

long hot(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += i * 3; /* the hot line */
    return s;
}

long steady(void)
{
    long s = 0;
    for (int i = 0; i < 500; i++)
        s ^= i;
    return s;
}

#ifdef EXTRA
long extra(void)
{
    long s = 0;
    for (int i = 0; i < 300; i++)
        s += i;
    return s;
}
#endif

int main(void)
{
    sink = hot(WORK) + steady();
#ifdef EXTRA
    sink += extra();
#endif
    return 0;
}
