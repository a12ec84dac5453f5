/*
 * symbol_is_data.c - a broken plug-in whose psolve_plugin is a number, not
 * the function PS_PLUGIN defines (tests/test_plugin.c): psolve must refuse
 * it rather than call into data. Not built against game.h, which declares
 * psolve_plugin as a function.
 */
const int psolve_plugin = 3;
