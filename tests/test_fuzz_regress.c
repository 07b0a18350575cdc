/* Replays the fuzzing corpus and every input that once crashed a fuzzer
 * (tests/fuzz/corpus/<target>/, tests/fuzz/crashes/<target>/) through the
 * two harnesses, built here without libFuzzer. Under `make sanitize` this
 * runs with ASan and UBSan, so a regression of a fixed crash fails. */
#include "check.h"

#define FUZZ_SCENE_ENTRY fuzz_scene_one
#include "fuzz/fuzz_scene.c"
#define FUZZ_STL_ENTRY fuzz_stl_one
#include "fuzz/fuzz_stl.c"

#include <dirent.h>
#include <stdlib.h>

typedef int entry_fn(const uint8_t *data, size_t size);

/* Feeds every file of dir to fn; returns how many. */
static int replay(const char *dir, entry_fn *fn) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        uint8_t *buf = malloc((size_t)len + 1);
        size_t got = buf ? fread(buf, 1, (size_t)len, f) : 0;
        fclose(f);
        if (buf) fn(buf, got);
        free(buf);
        n++;
    }
    closedir(d);
    return n;
}

int main(void) {
    const char *base = FLOE_TEST_DATA "/../fuzz";
    char dir[1024];
    int n[4];
    const char *sub[4] = {"corpus/scene", "crashes/scene", "corpus/stl", "crashes/stl"};
    for (int i = 0; i < 4; i++) {
        snprintf(dir, sizeof dir, "%s/%s", base, sub[i]);
        n[i] = replay(dir, i < 2 ? fuzz_scene_one : fuzz_stl_one);
    }
    CHECK(n[0] > 0 && n[2] > 0);
    REPORT("replayed %d scene and %d STL corpus inputs, %d scene and %d STL crash regressions\n", n[0], n[2], n[1],
           n[3]);
    return CHECK_DONE();
}
