/*
 * import_none.c - psolve import in a build without libpng and libturbojpeg
 * (not found, or -DPSOLVE_BUILD_IMPORT=OFF): a picture gets a clear error.
 */
#include "import.h"

bool ps_import_picture(const unsigned char *data, size_t len, const char *name,
                       enum ps_import_kind kind, char **text,
                       struct ps_import_seen *seen, struct ps_error *err)
{
    (void)data;
    (void)len;
    (void)kind;
    (void)seen;
    *text = NULL;
    return ps_error_set(err, name, 0, 0,
                        "a picture, but this psolve was built without picture "
                        "import (apt-get install libpng-dev libturbojpeg0-dev, then rebuild)");
}
