/* The shared helpers, one tool per chore: growing arrays and
 * the text buffer (src/base/mem.h), the atomic file replace
 * (src/io/atomic.h) and whole-file reading (src/io/io_err.h). */
#include "base/mem.h"
#include "check.h"
#include "io/atomic.h"
#include "io/io_err.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_grow(void) {
    int *a = NULL, cap = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK(floe__grow((void **)&a, &cap, i + 1, sizeof *a));
        a[i] = i;
    }
    CHECK(cap >= 1000 && a[999] == 999);
    free(a);
    CHECK(floe__grown(0, 1, SIZE_MAX) == 16);
    CHECK(floe__grown(16, 17, SIZE_MAX) == 32);
    CHECK(floe__grown(64, 10, SIZE_MAX) == 64);
    CHECK(floe__grown(1024, 1500, 1500) == 1500); /* doubling would pass max: need */
    double *d = NULL;
    size_t dcap = 0;
    CHECK(floe__grow_size((void **)&d, &dcap, 100, sizeof *d) && dcap >= 100);
    CHECK(!floe__grow_size((void **)&d, &dcap, SIZE_MAX / 4, sizeof *d)); /* bytes overflow size_t */
    CHECK(dcap >= 100 && dcap < 1000);
    free(d);
}

static void test_buf(void) {
    floe_buf b = {0};
    floe__buf_printf(&b, "%s,%d", "a", 1);
    CHECK(b.len == 3 && !strcmp(b.s, "a,1"));
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    floe__buf_printf(&b, "|%s|", big); /* longer than any first guess */
    CHECK(b.len == 3 + 5001 && b.s[b.len] == 0 && b.s[4] == 'x' && b.s[b.len - 1] == '|');
    floe__buf_append(&b, "\0z", 2); /* bytes, not only text */
    CHECK(b.len == 5006 && b.s[5004] == 0 && b.s[5005] == 'z' && !b.bad);
    floe__buf_reset(&b);
    CHECK(b.len == 0 && b.s && !strcmp(b.s, "") && !b.bad);
    b.bad = 1; /* after a failure nothing is appended */
    floe__buf_printf(&b, "more");
    CHECK(b.len == 0);
    floe__buf_free(&b);
    CHECK(!b.s && !b.cap);
}

static void test_replace(const char *dir) {
    char path[512], tmp[600], err[256] = "", link_target[512];
    const char *old = check_write_tmp(dir, "file.txt", "old", path, sizeof path);
    check_write_tmp(dir, "target.txt", "target", link_target, sizeof link_target);
    /* a link at the temporary's name is removed, never written through */
    snprintf(tmp, sizeof tmp, "%s.tmp", old);
    CHECK(symlink(link_target, tmp) == 0);
    CHECK(floe_io_replace_begin(path, tmp, sizeof tmp, err, sizeof err) == 0);
    struct stat st;
    CHECK(lstat(tmp, &st) != 0);
    check_write_file(tmp, "new");
    CHECK(floe_io_replace_finish(tmp, path, 1, FLOE_IO_DURABLE, err, sizeof err) == 0);
    char *s = check_slurp(path, NULL);
    CHECK(s && !strcmp(s, "new"));
    free(s);
    s = check_slurp(link_target, NULL);
    CHECK(s && !strcmp(s, "target"));
    free(s);
    CHECK(lstat(tmp, &st) != 0);
    /* a failed write leaves the old file and no temporary */
    CHECK(floe_io_replace_begin(path, tmp, sizeof tmp, err, sizeof err) == 0);
    check_write_file(tmp, "torn");
    snprintf(err, sizeof err, "caller's message");
    CHECK(floe_io_replace_finish(tmp, path, 0, 0, err, sizeof err) == -1);
    CHECK(!strcmp(err, "caller's message") && lstat(tmp, &st) != 0);
    s = check_slurp(path, NULL);
    CHECK(s && !strcmp(s, "new"));
    free(s);
    /* a rename that cannot happen (a directory in the way) is reported */
    char sub[512];
    snprintf(sub, sizeof sub, "%s/adir", dir);
    CHECK(mkdir(sub, 0777) == 0);
    CHECK(floe_io_replace_begin(sub, tmp, sizeof tmp, err, sizeof err) == 0);
    check_write_file(tmp, "x");
    CHECK(floe_io_replace_finish(tmp, sub, 1, 0, err, sizeof err) == -1);
    CHECK(strstr(err, "cannot rename") && lstat(tmp, &st) != 0);
    /* a name too long for the caller's buffer */
    char small[8];
    CHECK(floe_io_replace_begin(path, small, sizeof small, err, sizeof err) == -1 && strstr(err, "too long"));
}

static void test_read_all(const char *dir) {
    char path[512];
    check_write_tmp(dir, "data.txt", "0123456789", path, sizeof path);
    size_t len = 0;
    int e = -1;
    FILE *f = fopen(path, "rb");
    unsigned char *b = floe_io_read_all(f, 1 << 20, &len, &e);
    fclose(f);
    CHECK(b && len == 10 && e == 0 && !memcmp(b, "0123456789", 10));
    free(b);
    check_write_tmp(dir, "empty.txt", "", path, sizeof path);
    f = fopen(path, "rb");
    b = floe_io_read_all(f, 1 << 20, &len, &e);
    fclose(f);
    CHECK(b && len == 0 && e == 0);
    free(b);
}

int main(void) {
    char dir[] = "/tmp/floe_test_base_utils_XXXXXX";
    if (!mkdtemp(dir)) return 2;
    test_grow();
    test_buf();
    test_replace(dir);
    test_read_all(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) REPORT("could not remove %s\n", dir);
    return CHECK_DONE();
}
