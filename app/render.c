/* floe render: the pictures are drawn by python/floe/_render.py with
 * matplotlib (docs/render.md); this command runs that script with Debian's
 * interpreter, passing the arguments on. The script is found next to an
 * installed floe (PREFIX/share/floe/render.py, `make install`) or, for
 * the floe of a build tree, in the source tree it was built from
 * (docs/decisions.md#floe-render-draws-with-matplotlib). */
#include "render.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FLOE_RENDER_SOURCE
#define FLOE_RENDER_SOURCE ""
#endif
#ifndef FLOE_RENDER_INSTALLED
#define FLOE_RENDER_INSTALLED "../share/floe/render.py"
#endif

/* The script: PREFIX/share/floe/render.py beside an installed floe, else
 * the source tree's. 0 when found. */
static int find_script(char *out, size_t cap, char *tried, size_t tcap) {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    tried[0] = '\0';
    if (n > 0 && n < (ssize_t)sizeof self - 1) {
        self[n] = '\0';
        snprintf(out, cap, "%s/%s", dirname(self), FLOE_RENDER_INSTALLED);
        if (access(out, R_OK) == 0) return 0;
        snprintf(tried, tcap, "%s", out);
    }
    snprintf(out, cap, "%s", FLOE_RENDER_SOURCE);
    if (out[0] && access(out, R_OK) == 0) return 0;
    size_t len = strlen(tried);
    snprintf(tried + len, tcap - len, "%s%s", len ? ", " : "", out[0] ? out : "(no source tree)");
    return -1;
}

int floe_cli_render(int argc, char **argv) {
    char script[4200], tried[8600];
    if (find_script(script, sizeof script, tried, sizeof tried)) {
        fprintf(stderr,
                "floe render: the renderer render.py is missing (looked for %s): install floe with `make install`, "
                "or run the floe of a build tree whose source tree is still there\n",
                tried);
        return 1;
    }
    /* Debian's interpreter, where python3-matplotlib installs, rather than
     * another python3 first on PATH; FLOE_RENDER_PYTHON chooses another. */
    const char *py = getenv("FLOE_RENDER_PYTHON");
    if (!py || !py[0]) py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        fprintf(stderr, "floe render: out of memory\n");
        return 1;
    }
    args[0] = (char *)py;
    args[1] = script;
    for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
    fflush(NULL);
    execvp(py, args);
    fprintf(stderr,
            "floe render: cannot run %s: %s: floe render needs Python 3 with matplotlib and numpy "
            "(Debian: apt-get install python3 python3-matplotlib python3-numpy)\n",
            py, strerror(errno));
    free(args);
    return 1;
}
