/*
 * The node table: a whole read-only tree that JS hands over at once, so that
 * the requests about it are answered here, without a trip into JS.
 *
 * A revision never changes, so its names, attributes, listings and file
 * bytes can live in C for as long as it is served. Requests about nodes the
 * table does not hold (virtual directories whose names are made on lookup,
 * control files, inodes of an older table) still go to JS; see ops.c.
 *
 * Layout: one array of nodes; each directory's children are a contiguous
 * run of it, in listing order. Names and file bytes live in two blobs. An
 * open-addressing hash finds a node by inode number; a name is found by
 * binary search in its directory's run of `by_name`, the children's indexes
 * in strcmp order. That keeps a lookup within memory its siblings' lookups
 * just touched, which matters: `find` and `stat` go directory by directory.
 * The table is immutable once built; loading another one replaces it whole.
 */
#include "forage_fuse.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EMPTY_SLOT UINT32_MAX

static uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static const char *node_name(const node_table *t, const table_node *n) {
  return t->names + n->name;
}

const table_node *table_find(const node_table *t, uint64_t ino) {
  if (!t) return NULL;
  for (uint64_t i = mix64(ino) & t->mask;; i = (i + 1) & t->mask) {
    uint32_t slot = t->by_ino[i];
    if (slot == EMPTY_SLOT) return NULL;
    if (t->nodes[slot].ino == ino) return &t->nodes[slot];
  }
}

const table_node *table_child(const node_table *t, const table_node *dir, const char *name) {
  const uint32_t *run = t->by_name + dir->first_child;
  size_t low = 0, high = dir->child_count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    const table_node *n = &t->nodes[run[middle]];
    int order = strcmp(name, node_name(t, n));
    if (order == 0) return n;
    if (order < 0) high = middle;
    else low = middle + 1;
  }
  return NULL;
}

const char *table_data(const node_table *t, const table_node *n) {
  return t->data + n->data;
}

void table_free(node_table *t) {
  if (!t) return;
  free(t->nodes);
  free(t->names);
  free(t->data);
  free(t->by_ino);
  free(t->by_name);
  free(t);
}

/* ---- Building from JS ---------------------------------------------------- */

/* The typed arrays of a table spec (see loadTable in addon.c). */
struct table_spec {
  uint32_t count;
  const double *inos, *parents;
  const uint32_t *modes, *flags, *first_child, *child_count;
  napi_value names;    /* string[] */
  napi_value contents; /* (Uint8Array | undefined)[]: file bytes or symlink target */
};

static bool fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return false;
}

/* The data pointer of spec[key] when it is a typed array of `type` with `count` elements. */
static bool typed_field(napi_env env, napi_value spec, const char *key, napi_typedarray_type type,
                        uint32_t count, const void **out) {
  napi_value v;
  bool is_typed = false;
  napi_typedarray_type actual;
  size_t length;
  void *data;
  if (napi_get_named_property(env, spec, key, &v) != napi_ok) return false;
  napi_is_typedarray(env, v, &is_typed);
  if (!is_typed) return fail(env, "forage_fuse: a node table field is not a typed array");
  napi_get_typedarray_info(env, v, &actual, &length, &data, NULL, NULL);
  if (actual != type || length != count)
    return fail(env, "forage_fuse: a node table field has the wrong type or length");
  *out = data;
  return true;
}

static bool array_field(napi_env env, napi_value spec, const char *key, uint32_t count,
                        napi_value *out) {
  bool is_array = false;
  uint32_t length = 0;
  if (napi_get_named_property(env, spec, key, out) != napi_ok) return false;
  napi_is_array(env, *out, &is_array);
  if (is_array) napi_get_array_length(env, *out, &length);
  if (!is_array || length != count)
    return fail(env, "forage_fuse: a node table field is not an array of the right length");
  return true;
}

static bool read_spec(napi_env env, napi_value spec, struct table_spec *p) {
  napi_value inos;
  bool is_typed = false;
  size_t length = 0;
  if (napi_get_named_property(env, spec, "inos", &inos) != napi_ok) return false;
  napi_is_typedarray(env, inos, &is_typed);
  if (is_typed) napi_get_typedarray_info(env, inos, NULL, &length, NULL, NULL, NULL);
  if (length == 0 || length >= EMPTY_SLOT / 4)
    return fail(env, "forage_fuse: a node table needs between 1 and 2^30 nodes");
  p->count = (uint32_t)length;
  return typed_field(env, spec, "inos", napi_float64_array, p->count, (const void **)&p->inos) &&
         typed_field(env, spec, "parents", napi_float64_array, p->count, (const void **)&p->parents) &&
         typed_field(env, spec, "modes", napi_uint32_array, p->count, (const void **)&p->modes) &&
         typed_field(env, spec, "flags", napi_uint32_array, p->count, (const void **)&p->flags) &&
         typed_field(env, spec, "firstChild", napi_uint32_array, p->count,
                     (const void **)&p->first_child) &&
         typed_field(env, spec, "childCount", napi_uint32_array, p->count,
                     (const void **)&p->child_count) &&
         array_field(env, spec, "names", p->count, &p->names) &&
         array_field(env, spec, "contents", p->count, &p->contents);
}

/* Bytes of contents[i], or length 0 when it is undefined. */
static bool content_at(napi_env env, const struct table_spec *p, uint32_t i, const char **data,
                       size_t *length) {
  napi_value v;
  napi_valuetype type;
  *data = NULL;
  *length = 0;
  if (napi_get_element(env, p->contents, i, &v) != napi_ok) return false;
  napi_typeof(env, v, &type);
  if (type == napi_undefined) return true;
  bool is_typed = false;
  napi_typedarray_type actual;
  napi_is_typedarray(env, v, &is_typed);
  if (is_typed) napi_get_typedarray_info(env, v, &actual, length, (void **)data, NULL, NULL);
  if (!is_typed || actual != napi_uint8_array)
    return fail(env, "forage_fuse: node contents must be Uint8Arrays or undefined");
  return true;
}

/* Sizes both blobs, so each is one allocation. */
static bool measure(napi_env env, const struct table_spec *p, size_t *names_size,
                    size_t *data_size) {
  *names_size = 0;
  *data_size = 0;
  for (uint32_t i = 0; i < p->count; i++) {
    napi_value v;
    size_t len;
    const char *bytes;
    size_t bytes_len;
    if (napi_get_element(env, p->names, i, &v) != napi_ok ||
        napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok)
      return fail(env, "forage_fuse: node names must be strings");
    if (len > 255) return fail(env, "forage_fuse: a node name is longer than 255 bytes");
    if (!content_at(env, p, i, &bytes, &bytes_len)) return false;
    *names_size += len + 1;
    *data_size += bytes_len + 1; /* + NUL, so a symlink target is a C string */
  }
  return true;
}

static bool is_integer(double d) {
  return d >= 0 && d <= 9007199254740991.0 && d == (double)(uint64_t)d;
}

/* Copies node i; checks what the request paths rely on. */
static bool copy_node(napi_env env, const struct table_spec *p, node_table *t, uint32_t i,
                      size_t *names_used, size_t *data_used) {
  table_node *n = &t->nodes[i];
  if (!is_integer(p->inos[i]) || p->inos[i] == 0 || !is_integer(p->parents[i]))
    return fail(env, "forage_fuse: node inode numbers must be positive integers");
  uint32_t mode = p->modes[i];
  if (!S_ISDIR(mode) && !S_ISREG(mode) && !S_ISLNK(mode))
    return fail(env, "forage_fuse: a node must be a directory, a regular file or a symlink");
  uint64_t end = (uint64_t)p->first_child[i] + p->child_count[i];
  if (p->child_count[i] > 0 && (!S_ISDIR(mode) || p->first_child[i] <= i || end > p->count))
    return fail(env, "forage_fuse: a node's children must follow it in the table");
  napi_value v;
  size_t len;
  napi_get_element(env, p->names, i, &v);
  napi_get_value_string_utf8(env, v, t->names + *names_used, 256, &len);
  const char *bytes;
  size_t bytes_len;
  if (!content_at(env, p, i, &bytes, &bytes_len)) return false;
  memcpy(t->data + *data_used, bytes ? bytes : "", bytes_len);
  t->data[*data_used + bytes_len] = '\0';
  *n = (table_node){
    .ino = (uint64_t)p->inos[i],
    .parent = (uint64_t)p->parents[i],
    .size = S_ISDIR(mode) ? 0 : bytes_len,
    .data = *data_used,
    .name = (uint32_t)*names_used,
    .name_len = (uint32_t)len,
    .mode = mode,
    .flags = p->flags[i],
    .first_child = p->first_child[i],
    .child_count = p->child_count[i],
  };
  *names_used += len + 1;
  *data_used += bytes_len + 1;
  return true;
}

static bool index_ino(napi_env env, node_table *t, uint32_t i) {
  const table_node *n = &t->nodes[i];
  uint64_t slot = mix64(n->ino) & t->mask;
  while (t->by_ino[slot] != EMPTY_SLOT) {
    if (t->nodes[t->by_ino[slot]].ino == n->ino)
      return fail(env, "forage_fuse: two nodes share an inode number");
    slot = (slot + 1) & t->mask;
  }
  t->by_ino[slot] = i;
  return true;
}

/* qsort has no context argument, so the table being sorted is held here
 * (the loop thread builds one table at a time). */
static const node_table *sorting;

static int compare_names(const void *a, const void *b) {
  const table_node *x = &sorting->nodes[*(const uint32_t *)a];
  const table_node *y = &sorting->nodes[*(const uint32_t *)b];
  return strcmp(node_name(sorting, x), node_name(sorting, y));
}

/* Sorts each directory's run of by_name. Refused: a child whose parent is
 * another node, and two equal names in one directory. */
static bool index_names(napi_env env, node_table *t) {
  for (uint32_t i = 0; i < t->count; i++) t->by_name[i] = i;
  sorting = t;
  for (uint32_t i = 0; i < t->count; i++) {
    const table_node *dir = &t->nodes[i];
    uint32_t *run = t->by_name + dir->first_child;
    for (uint32_t k = 0; k < dir->child_count; k++) {
      if (t->nodes[run[k]].parent != dir->ino) {
        sorting = NULL;
        return fail(env, "forage_fuse: a node is not in its parent's run of children");
      }
    }
    if (dir->child_count < 2) continue;
    qsort(run, dir->child_count, sizeof *run, compare_names);
    for (uint32_t k = 1; k < dir->child_count; k++) {
      if (compare_names(&run[k - 1], &run[k]) == 0) {
        sorting = NULL;
        return fail(env, "forage_fuse: two nodes of one directory share a name");
      }
    }
  }
  sorting = NULL;
  return true;
}

static node_table *table_alloc(uint32_t count, size_t names_size, size_t data_size) {
  node_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  size_t slots = 16;
  while (slots < (size_t)count * 2) slots *= 2; /* load factor at most 1/2 */
  t->count = count;
  t->mask = slots - 1;
  t->nodes = calloc(count, sizeof *t->nodes);
  t->names = malloc(names_size);
  t->data = malloc(data_size);
  t->by_ino = malloc(slots * sizeof *t->by_ino);
  t->by_name = malloc((size_t)count * sizeof *t->by_name);
  if (!t->nodes || !t->names || !t->data || !t->by_ino || !t->by_name) {
    table_free(t);
    return NULL;
  }
  memset(t->by_ino, 0xff, slots * sizeof *t->by_ino);
  return t;
}

node_table *table_from_js(napi_env env, napi_value spec) {
  struct table_spec p;
  size_t names_size, data_size;
  if (!read_spec(env, spec, &p) || !measure(env, &p, &names_size, &data_size)) return NULL;
  if (!S_ISDIR(p.modes[0])) {
    fail(env, "forage_fuse: node 0 of a table must be its root directory");
    return NULL;
  }
  node_table *t = table_alloc(p.count, names_size, data_size);
  if (!t) {
    napi_throw_error(env, NULL, "forage_fuse: out of memory for the node table");
    return NULL;
  }
  size_t names_used = 0, data_used = 0;
  for (uint32_t i = 0; i < p.count; i++) {
    if (!copy_node(env, &p, t, i, &names_used, &data_used) || !index_ino(env, t, i)) {
      table_free(t);
      return NULL;
    }
  }
  if (!index_names(env, t)) {
    table_free(t);
    return NULL;
  }
  return t;
}
