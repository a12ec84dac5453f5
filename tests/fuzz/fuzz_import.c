/*
 * fuzz_import - pictures (psolve import, docs/import.md). Input: one byte
 * that picks what the picture is read as (byte % 3: either, a SameGame
 * grid, Water Sort tubes), then the file's bytes (PNG and JPEG seeds from
 * tests/draw_picture_main.c). Oracles: the decoder and the detectors
 * return without a memory error; a picture refused says why; a picture
 * read gives a puzzle file that its game loads.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "import.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const enum ps_import_kind kinds[3] = {PS_IMPORT_ANY, PS_IMPORT_GRID,
                                                 PS_IMPORT_TUBES};
    char *text = NULL;
    static struct ps_import_seen seen;
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_import_picture(data + 1, size - 1, "fuzz", kinds[data[0] % 3], &text, &seen,
                           &err)) {
        if (!err.msg[0])
            fuzz_fail(NULL, "a picture refused without a reason");
        return 0;
    }
    const char *game = seen.game;
    const struct ps_game *g = ps_game_find(game);
    if (!g)
        fuzz_fail(NULL, "the import names game '%s', which does not exist", game);
    if (seen.width <= 0 || seen.height <= 0 || seen.nunsure < 0 ||
        (seen.tubes == 0) == (seen.rows == 0))
        fuzz_fail(g, "where the puzzle was seen is not filled in");
    void *rules = ps_rules_resolve(g, NULL, NULL, &err);
    void *inst = rules ? g->load(rules, "fuzz", text, strlen(text), &err) : NULL;
    if (!inst)
        fuzz_fail(g, "the imported puzzle does not load: %s\n%s", err.msg, text);
    g->free_instance(inst);
    free(rules);
    free(text);
    return 0;
}
