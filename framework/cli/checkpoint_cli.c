/*
 * checkpoint_cli.c - --checkpoint FILE, --checkpoint-every S and --resume
 * FILE on the command line: what may checkpoint, the run's key, the file
 * read (and refused) before the run starts (checkpoint.h does the rest).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "worker.h"

int cli_checkpoint_setup(const struct cli *c, const struct ps_algorithm *a,
                         int nalgos, const char *rules_stamp,
                         struct ps_search *s, struct ps_checkpoint *ck)
{
    if (!c->checkpoint && !c->resume) {
        if (cli_option_given(c, "checkpoint-every"))
            return cli_usage_error("%s", "--checkpoint-every needs "
                                         "--checkpoint FILE");
        return -1;
    }
    if (nalgos != 1)
        return cli_usage_error("%s", "--checkpoint and --resume take one "
                                     "--algo, not a list");
    if (a->checkpoint == PS_CHECKPOINT_NONE) {
        fprintf(stderr,
                "psolve: --checkpoint and --resume: %s keeps no checkpoint "
                "(nrpa, nmcs, beam and dnrpa do; dfs on cost games)\n",
                a->name);
        return PS_EXIT_USAGE;
    }
    if (a->checkpoint == PS_CHECKPOINT_COST && (s->flags & PS_MAXIMISE)) {
        fprintf(stderr,
                "psolve: --checkpoint and --resume: %s keeps no checkpoint "
                "on a score game, only on a cost game (here nrpa, nmcs and "
                "beam do)\n",
                a->name);
        return PS_EXIT_USAGE;
    }
    if (c->fe && c->fe->keeps_checkpoints && !c->fe->keeps_checkpoints())
        return -1;
    char key[sizeof ck->key];
    int threads = a->checkpoint == PS_CHECKPOINT_THREADS ? ps_thread_count(s) : 0;
    ps_checkpoint_key(s, a, rules_stamp, threads, key, sizeof key);
    ps_checkpoint_init(ck, c->checkpoint, c->checkpoint_every, key);
    if (c->resume) {
        ck->resumed = c->resume;
        struct ps_error err;
        ps_error_clear(&err);
        if (!ps_checkpoint_load(ck, &err)) {
            cli_print_error(&err);
            ps_checkpoint_free(ck);
            return PS_EXIT_USAGE;
        }
        if (!c->quiet)
            fprintf(stderr, "psolve: resuming %s (%.1f s before)\n", c->resume,
                    ck->elapsed_before);
    }
    s->checkpoint = ck;
    return -1;
}

int cli_checkpoint_finish(struct ps_checkpoint *ck)
{
    bool failed = ck->write_failed;
    ps_checkpoint_free(ck);
    return failed ? PS_EXIT_ERROR : 0;
}
