/* Main thread plus three worker threads doing different amounts of work.
 * Used for: threads/callgrind.out.1000-01 ... (--separate-threads=yes) */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
    unsigned long x = 1;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return x;
}

/* All four threads are alive at the same time (valgrind would otherwise
 * reuse the thread id of a finished worker for the next one). */
static pthread_barrier_t barrier;

static void *worker(void *arg)
{
    unsigned long n = (unsigned long)arg;
    pthread_barrier_wait(&barrier);
    return (void *)spin(n);
}

int main(void)
{
    pthread_t t[3];
    pthread_barrier_init(&barrier, NULL, 4);
    for (unsigned long i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, (void *)(1000 * (i + 1)));
    pthread_barrier_wait(&barrier);
    unsigned long acc = spin(500);
    for (int i = 0; i < 3; i++) {
        void *r;
        pthread_join(t[i], &r);
        acc ^= (unsigned long)r;
    }
    printf("%lu\n", acc);
    return 0;
}
