/*
 * pdb_cmd.h - the `psolve pdb` command (docs/pdb.md) and the pattern sets'
 * lines of `psolve list`.
 */
#ifndef PS_PDB_CMD_H
#define PS_PDB_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "game.h"

/* `psolve pdb build [PUZZLE]`: files[0] is "build"; heuristics the
 * --heuristic list (NULL = every set that fits the puzzle); without a
 * PUZZLE the game generates one with `gen`. Returns the exit status. */
int ps_cli_pdb(const struct ps_game *g, const void *rules,
               const char *const *files, int nfiles, const char *heuristics,
               const struct ps_gen_options *gen, uint64_t max_memory);

/* One line per pattern set of g, as psolve list prints heuristics. */
void ps_pdb_list_sets(FILE *out, const struct ps_game *g);

#endif
