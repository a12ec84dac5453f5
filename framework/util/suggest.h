/*
 * suggest.h - names the user types: "did you mean" (the nearest name to a
 * misspelt word), and the one check of a plain name.
 */
#ifndef PS_SUGGEST_H
#define PS_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/* Edit distance (insert, delete, replace, swap two neighbours) between a
 * and b, both at most PS_SUGGEST_MAX_LEN bytes (longer words count as far). */
#define PS_SUGGEST_MAX_LEN 63
int ps_edit_distance(const char *a, const char *b);

/* The name in names[0..n) nearest to `word` when it is close enough to be a
 * likely typo (distance <= 2 and less than half the word), else NULL. */
const char *ps_suggest(const char *word, const char *const *names, size_t n);

/* A plain name: one or more ASCII letters, digits, '_' and '-' (a game's,
 * a heuristic's, a rule script's NAME), so it can be neither a path nor an
 * option nor empty. */
bool ps_name_is_plain(const char *s);

#endif
