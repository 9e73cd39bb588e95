// SPDX-License-Identifier: MIT
// A file tree under /tmp for the tests of what reads files (chase-host's sysfs, procfs and
// firmware readers, chase-report's inputs): made fresh, filled file by file (folders made as
// needed), removed after. Include cmocka.h first.
#ifndef CHASE_TEST_FAKE_TREE_H
#define CHASE_TEST_FAKE_TREE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FT_PATH_BYTES 320 /* the longest path a test writes, its root included */

static char ft_root[64]; /* the tree's root, which the reader under test is given */

/* A new empty tree; template names it, ending in XXXXXX (mkdtemp). */
static inline void ft_make(const char *template)
{
    snprintf(ft_root, sizeof(ft_root), "%s", template);
    assert_non_null(mkdtemp(ft_root));
}

/* Remove the tree and all in it. */
static inline void ft_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", ft_root);
    assert_int_equal(system(cmd), 0);
}

/* Make the folders of path (in the tree) up to its end, or up to its last '/' when !whole. */
static inline void ft_folders(char *path, bool whole)
{
    for (char *p = path + strlen(ft_root) + 1;; p++) {
        if (*p && *p != '/')
            continue;
        if (!*p && !whole)
            return;
        char end = *p;
        *p = 0;
        assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
        *p = end;
        if (!end)
            return;
    }
}

/* cmocka group fixtures: one fresh tree for a group of tests, removed after them. */
static inline int ft_group_setup(void **state)
{
    (void)state;
    ft_make("/tmp/chase-test-XXXXXX");
    return 0;
}

static inline int ft_group_teardown(void **state)
{
    (void)state;
    ft_remove();
    return 0;
}

/* The path of rel, "a/b" or "/a/b", in the tree. */
static inline void ft_path(char *path, const char *rel)
{
    snprintf(path, FT_PATH_BYTES, "%s%s%s", ft_root, rel[0] == '/' ? "" : "/", rel);
}

/* Folder rel in the tree, with those above it. */
static inline void ft_dir(const char *rel)
{
    char path[FT_PATH_BYTES];
    ft_path(path, rel);
    ft_folders(path, true);
}

/* File rel in the tree holding len bytes of data, its folders made first. */
static inline void ft_put(const char *rel, const void *data, size_t len)
{
    char path[FT_PATH_BYTES];
    ft_path(path, rel);
    ft_folders(path, false);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* File rel in the tree holding text. */
static inline void ft_put_text(const char *rel, const char *text)
{
    ft_put(rel, text, strlen(text));
}

#endif
