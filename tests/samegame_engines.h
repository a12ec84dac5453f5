/*
 * samegame_engines.h - what the SameGame engine tests share: SameGame
 * loaded with a chosen engine ($PSOLVE_SAMEGAME_PLAYOUT, read at load), and
 * random boards as text. Include after support.h and rng.h.
 */
#ifndef PS_TEST_SAMEGAME_ENGINES_H
#define PS_TEST_SAMEGAME_ENGINES_H

extern const struct ps_game samegame_game;

/* The bit-plane builds; "bytes" is the byte engine. */
static const char *const engines[] = {"portable", "popcnt", "bmi2"};
#define ENGINES 3

/* The instance, loaded with $PSOLVE_SAMEGAME_PLAYOUT = engine (NULL: the
 * machine's best). The engine is chosen at load. */
static inline void *load_with(const char *engine, const void *rules,
                              const char *text)
{
    if (engine)
        setenv("PSOLVE_SAMEGAME_PLAYOUT", engine, 1);
    else
        unsetenv("PSOLVE_SAMEGAME_PLAYOUT");
    void *inst = test_load(&samegame_game, rules, text);
    unsetenv("PSOLVE_SAMEGAME_PLAYOUT");
    return inst;
}

/* A rows x cols board of colours 1..colours, uniformly; free() it. */
static inline char *random_text(struct ps_rng *rng, int rows, int cols,
                                int colours)
{
    char *text = malloc((size_t)rows * ((size_t)cols + 1) + 1), *t = text;
    assert_non_null(text);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            *t++ = (char)('1' + ps_rng_below(rng, (uint32_t)colours));
        *t++ = '\n';
    }
    *t = '\0';
    return text;
}

#endif
