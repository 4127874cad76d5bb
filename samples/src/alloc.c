/* Allocations from several call paths, some freed, some leaked.
 * Used for: xtree-memory.callgrind (memcheck --xtree-memory=full) and
 * xtree-leak.callgrind (memcheck --xtree-leak=yes). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct node { struct node *next; char payload[48]; };

__attribute__((noinline)) static struct node *make_list(int n)
{
    struct node *head = NULL;
    for (int i = 0; i < n; i++) {
        struct node *e = malloc(sizeof *e);
        memset(e->payload, i, sizeof e->payload);
        e->next = head;
        head = e;
    }
    return head;
}

__attribute__((noinline)) static void free_list(struct node *l)
{
    while (l) {
        struct node *next = l->next;
        free(l);
        l = next;
    }
}

__attribute__((noinline)) static char *dup_twice(const char *s)
{
    char *a = strdup(s);
    char *b = realloc(a, 2 * strlen(s) + 1);
    strcat(b, s);
    return b;
}

int main(void)
{
    struct node *kept = make_list(10);   /* leaked */
    struct node *tmp = make_list(100);
    free_list(tmp);
    char *d = dup_twice("xtree");
    void *big = calloc(64, 1024);
    printf("%s %p\n", d, (void *)kept);
    free(big);
    free(d);
    return 0;
}
