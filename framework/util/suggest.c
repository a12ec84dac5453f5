/*
 * suggest.c - "did you mean": the nearest name by edit distance, and the
 * plain-name check (suggest.h).
 */
#include "suggest.h"

#include <string.h>

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment distance over three rolling rows. */
int ps_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > PS_SUGGEST_MAX_LEN || lb > PS_SUGGEST_MAX_LEN)
        return PS_SUGGEST_MAX_LEN + 1;
    int rows[3][PS_SUGGEST_MAX_LEN + 1];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
        }
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

const char *ps_suggest(const char *word, const char *const *names, size_t n)
{
    const char *best = NULL;
    int best_d = 3;
    int len = (int)strlen(word);
    for (size_t i = 0; i < n; i++) {
        int d = ps_edit_distance(word, names[i]);
        if (d < best_d && 2 * d < (len > 1 ? len : 2)) {
            best = names[i];
            best_d = d;
        }
    }
    return best;
}

bool ps_name_is_plain(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
            return false;
    return true;
}
