/*
 * suggest.h - "did you mean": the nearest name to a misspelt word.
 */
#ifndef PS_SUGGEST_H
#define PS_SUGGEST_H

#include <stddef.h>

/* Edit distance (insert, delete, replace, swap two neighbours) between a
 * and b, both at most PS_SUGGEST_MAX_LEN bytes (longer words count as far). */
#define PS_SUGGEST_MAX_LEN 63
int ps_edit_distance(const char *a, const char *b);

/* The name in names[0..n) nearest to `word` when it is close enough to be a
 * likely typo (distance <= 2 and less than half the word), else NULL. */
const char *ps_suggest(const char *word, const char *const *names, size_t n);

#endif
