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
 * run of it, in listing order. Names and file bytes live in two blobs. A
 * node is found by inode number in by_ino: indexed by the number itself when
 * the numbers are dense (a first table numbers its nodes in table order, so
 * a reader going directory by directory walks by_ino and the nodes in step,
 * as a C filesystem indexing an array by inode does), otherwise an
 * open-addressing hash, which scatters every lookup; a name is found by
 * binary search in its directory's run of `by_name`, the children's indexes
 * in strcmp order. That keeps a lookup within memory its siblings' lookups
 * just touched, which matters: `find` and `stat` go directory by directory.
 * The table is immutable once built; loading another one replaces it whole.
 *
 * A table is built in steps, so that a big one never holds the loop for long:
 * started (allocated) as the next table, filled a chunk of nodes per call (fields, names, bytes,
 * then each directory's run of by_name sorted), then numbered in one short
 * step (inode numbers, the hash by inode, the parent checks), which is when it
 * may be served. Until then nothing serves it.
 */
#define _GNU_SOURCE /* qsort_r */
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
  if (t->dense) {
    if (ino < t->ino_base || ino - t->ino_base > t->mask) return NULL;
    uint32_t slot = t->by_ino[ino - t->ino_base];
    return slot == EMPTY_SLOT ? NULL : &t->nodes[slot];
  }
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

/* Names up to FUSE's own limit; the JS handlers took the same. */
#define MAX_NAME_BYTES FORAGE_NAME_MAX

static bool fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return false;
}

static bool out_of_memory(napi_env env) {
  napi_throw_error(env, NULL, "forage_fuse: out of memory for the node table");
  return false;
}

static bool blob_reserve(struct table_blob *b, size_t more) {
  if (b->size - b->used > more) return true;
  size_t size = b->size ? b->size : 4096;
  while (size - b->used <= more) size *= 2;
  char *bigger = realloc(b->bytes, size);
  if (!bigger) return false;
  b->bytes = bigger;
  b->size = size;
  return true;
}

/* spec[key] when it is a typed array of `type` with `count` elements (count 0: any length,
 * returned in *count). Its data must be copied before the next call that may run JS: a
 * getter elsewhere in the spec could detach the buffer. */
static bool typed_field(napi_env env, napi_value spec, const char *key, napi_typedarray_type type,
                        size_t *count, const void **out) {
  napi_value v;
  bool is_typed = false;
  napi_typedarray_type actual;
  size_t length;
  void *data;
  if (napi_get_named_property(env, spec, key, &v) != napi_ok) return false;
  napi_is_typedarray(env, v, &is_typed);
  if (!is_typed) return fail(env, "forage_fuse: a node table field is not a typed array");
  napi_get_typedarray_info(env, v, &actual, &length, &data, NULL, NULL);
  if (actual != type || (*count != 0 && length != *count))
    return fail(env, "forage_fuse: a node table field has the wrong type or length");
  *count = length;
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

static bool is_integer(double d) {
  return d >= 0 && d <= 9007199254740991.0 && d == (double)(uint64_t)d;
}

/* Copies inos and parents (whole numbers; inos positive). */
static bool copy_numbers(napi_env env, napi_value numbers, node_table *t) {
  size_t count = t->count;
  const double *inos, *parents;
  if (!typed_field(env, numbers, "inos", napi_float64_array, &count, (const void **)&inos))
    return false;
  for (uint32_t i = 0; i < t->count; i++) {
    if (!is_integer(inos[i]) || inos[i] == 0)
      return fail(env, "forage_fuse: node inode numbers must be positive integers");
    t->nodes[i].ino = (uint64_t)inos[i];
  }
  if (!typed_field(env, numbers, "parents", napi_float64_array, &count, (const void **)&parents))
    return false;
  for (uint32_t i = 0; i < t->count; i++) {
    if (!is_integer(parents[i])) return fail(env, "forage_fuse: parent inode numbers must be integers");
    t->nodes[i].parent = (uint64_t)parents[i];
  }
  return true;
}

/* Copies modes, flags, firstChild and childCount of nodes [from, to). */
static bool copy_fields(napi_env env, napi_value spec, node_table *t, uint32_t from, uint32_t to) {
  static const char *const keys[] = { "modes", "flags", "firstChild", "childCount" };
  for (int k = 0; k < 4; k++) {
    size_t count = t->count;
    const uint32_t *values;
    if (!typed_field(env, spec, keys[k], napi_uint32_array, &count, (const void **)&values))
      return false;
    for (uint32_t i = from; i < to; i++) {
      table_node *n = &t->nodes[i];
      uint32_t *field[] = { &n->mode, &n->flags, &n->first_child, &n->child_count };
      *field[k] = values[i];
    }
  }
  return true;
}

/* Appends names[i] to the names blob, NUL-terminated. */
static bool copy_name(napi_env env, napi_value names, node_table *t, struct table_blob *b, uint32_t i) {
  napi_value v;
  size_t len = 0;
  if (napi_get_element(env, names, i, &v) != napi_ok ||
      napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok)
    return fail(env, "forage_fuse: node names must be strings");
  if (len > MAX_NAME_BYTES) return fail(env, "forage_fuse: a node name is longer than 1024 bytes");
  if (b->used + len + 1 > UINT32_MAX) return fail(env, "forage_fuse: node names exceed 4 GiB");
  if (!blob_reserve(b, len + 1)) return out_of_memory(env);
  size_t copied = 0;
  napi_get_value_string_utf8(env, v, b->bytes + b->used, len + 1, &copied);
  t->nodes[i].name = (uint32_t)b->used;
  t->nodes[i].name_len = (uint32_t)copied;
  b->used += copied + 1;
  return true;
}

/* Appends contents[i] (a Uint8Array, or nothing when undefined) to the data blob, NUL-terminated
 * so that a symlink target is a C string. */
static bool copy_content(napi_env env, napi_value contents, node_table *t, struct table_blob *b,
                         uint32_t i) {
  napi_value v;
  napi_valuetype type;
  const char *bytes = NULL;
  size_t len = 0;
  if (napi_get_element(env, contents, i, &v) != napi_ok) return false;
  napi_typeof(env, v, &type);
  if (type != napi_undefined) {
    bool is_typed = false;
    napi_typedarray_type actual;
    napi_is_typedarray(env, v, &is_typed);
    if (is_typed) napi_get_typedarray_info(env, v, &actual, &len, (void **)&bytes, NULL, NULL);
    if (!is_typed || actual != napi_uint8_array)
      return fail(env, "forage_fuse: node contents must be Uint8Arrays or undefined");
  }
  if (!blob_reserve(b, len + 1)) return out_of_memory(env);
  if (len > 0) memcpy(b->bytes + b->used, bytes, len);
  b->bytes[b->used + len] = '\0';
  t->nodes[i].data = b->used;
  t->nodes[i].size = len;
  b->used += len + 1;
  return true;
}


/* What the request paths rely on, of node i alone. */
static bool check_node(napi_env env, node_table *t, uint32_t i) {
  table_node *n = &t->nodes[i];
  if (i == 0 && !S_ISDIR(n->mode)) return fail(env, "forage_fuse: node 0 of a table must be its root directory");
  if (!S_ISDIR(n->mode) && !S_ISREG(n->mode) && !S_ISLNK(n->mode))
    return fail(env, "forage_fuse: a node must be a directory, a regular file or a symlink");
  uint64_t end = (uint64_t)n->first_child + n->child_count;
  if (n->child_count > 0 && (!S_ISDIR(n->mode) || n->first_child <= i || end > t->count))
    return fail(env, "forage_fuse: a node's children must follow it in the table");
  if (S_ISDIR(n->mode)) n->size = 0;
  return true;
}

static bool index_ino(napi_env env, node_table *t, uint32_t i) {
  const table_node *n = &t->nodes[i];
  uint64_t slot = t->dense ? n->ino - t->ino_base : mix64(n->ino) & t->mask;
  while (t->by_ino[slot] != EMPTY_SLOT) {
    if (t->nodes[t->by_ino[slot]].ino == n->ino || t->dense)
      return fail(env, "forage_fuse: two nodes share an inode number");
    slot = (slot + 1) & t->mask;
  }
  t->by_ino[slot] = i;
  return true;
}

/* Fills by_ino, directly indexed when the inode numbers fit its slots. */
static bool index_inos(napi_env env, node_table *t) {
  uint64_t low = UINT64_MAX, high = 0;
  for (uint32_t i = 0; i < t->count; i++) {
    if (t->nodes[i].ino < low) low = t->nodes[i].ino;
    if (t->nodes[i].ino > high) high = t->nodes[i].ino;
  }
  t->dense = high - low <= t->mask;
  t->ino_base = low;
  for (uint32_t i = 0; i < t->count; i++)
    if (!index_ino(env, t, i)) return false;
  return true;
}

static int compare_names(const void *a, const void *b, void *table) {
  const node_table *t = table;
  const table_node *x = &t->nodes[*(const uint32_t *)a];
  const table_node *y = &t->nodes[*(const uint32_t *)b];
  return strcmp(node_name(t, x), node_name(t, y));
}

/* Sorts a directory's run of by_name. Refused: two equal names in one directory. */
static bool sort_run(napi_env env, node_table *t, const table_node *dir) {
  uint32_t *run = t->by_name + dir->first_child;
  if (dir->child_count < 2) return true;
  qsort_r(run, dir->child_count, sizeof *run, compare_names, t);
  for (uint32_t k = 1; k < dir->child_count; k++) {
    if (compare_names(&run[k - 1], &run[k], t) == 0)
      return fail(env, "forage_fuse: two nodes of one directory share a name");
  }
  return true;
}

/* Refused: a child whose parent is another node. */
static bool check_parents(napi_env env, const node_table *t) {
  for (uint32_t i = 0; i < t->count; i++) {
    const table_node *dir = &t->nodes[i];
    for (uint32_t k = dir->first_child; k < dir->first_child + dir->child_count; k++) {
      if (t->nodes[k].parent != dir->ino)
        return fail(env, "forage_fuse: a node is not in its parent's run of children");
    }
  }
  return true;
}

static node_table *table_alloc(uint32_t count) {
  node_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  size_t slots = 16;
  while (slots < (size_t)count * 2) slots *= 2; /* load factor at most 1/2 */
  t->count = count;
  t->mask = slots - 1;
  t->nodes = calloc(count, sizeof *t->nodes);
  t->by_ino = malloc(slots * sizeof *t->by_ino);
  t->by_name = malloc((size_t)count * sizeof *t->by_name);
  if (!t->nodes || !t->by_ino || !t->by_name) {
    table_free(t);
    return NULL;
  }
  memset(t->by_ino, 0xff, slots * sizeof *t->by_ino);
  for (uint32_t i = 0; i < count; i++) t->by_name[i] = i;
  return t;
}

/* ---- The next table ------------------------------------------------------- */

void table_next_free(next_table *st) {
  if (!st) return;
  free(st->names.bytes);
  free(st->data.bytes);
  table_free(st->table);
  free(st);
}

next_table *table_start(napi_env env, napi_value spec) {
  size_t count = 0;
  const void *ignored;
  if (!typed_field(env, spec, "modes", napi_uint32_array, &count, &ignored)) return NULL;
  if (count == 0 || count >= EMPTY_SLOT / 4) {
    fail(env, "forage_fuse: a node table needs between 1 and 2^30 nodes");
    return NULL;
  }
  next_table *st = calloc(1, sizeof *st);
  if (st) st->table = table_alloc((uint32_t)count);
  if (!st || !st->table) {
    table_next_free(st);
    out_of_memory(env);
    return NULL;
  }
  return st;
}

/* Copies nodes [from, to): their fields first, then each name and content read once (a
 * getter cannot make a second read disagree with the first), then checks each. */
static bool fill_nodes(napi_env env, next_table *st, napi_value spec, uint32_t from, uint32_t to) {
  node_table *t = st->table;
  napi_value names, contents;
  if (!copy_fields(env, spec, t, from, to) || !array_field(env, spec, "names", t->count, &names) ||
      !array_field(env, spec, "contents", t->count, &contents))
    return false;
  for (uint32_t i = from; i < to; i++) {
    if (!copy_name(env, names, t, &st->names, i) || !copy_content(env, contents, t, &st->data, i) ||
        !check_node(env, t, i))
      return false;
  }
  return true;
}

bool table_fill(napi_env env, next_table *st, napi_value spec, uint32_t budget, bool *done) {
  node_table *t = st->table;
  if (st->copied < t->count) {
    uint32_t to = t->count - st->copied < budget ? t->count : st->copied + budget;
    if (!fill_nodes(env, st, spec, st->copied, to)) return false;
    budget -= to - st->copied;
    st->copied = to;
    if (to == t->count) { /* every name and byte is in: the blobs belong to the table now */
      t->names = st->names.bytes;
      t->data = st->data.bytes;
      st->names.bytes = st->data.bytes = NULL;
    }
  }
  /* Sorting waits for every name: a directory's children may lie in a later chunk. */
  for (; st->copied == t->count && st->sorted < t->count && budget > 0; st->sorted++) {
    const table_node *dir = &t->nodes[st->sorted];
    if (!sort_run(env, t, dir)) return false;
    budget -= dir->child_count < budget ? dir->child_count + 1 : budget;
  }
  *done = st->sorted == t->count;
  return true;
}

node_table *table_number(napi_env env, next_table *st, napi_value numbers) {
  node_table *t = st->table;
  if (st->sorted != t->count) {
    fail(env, "forage_fuse: the next node table is not filled yet");
    return NULL;
  }
  bool ok = copy_numbers(env, numbers, t);
  if (ok) ok = index_inos(env, t);
  if (ok) ok = check_parents(env, t);
  if (!ok) return NULL;
  st->table = NULL;
  table_next_free(st);
  return t;
}
