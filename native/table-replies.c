/*
 * Requests answered from the node table (node-table.c), without JS.
 *
 * Each function answers and returns true when the request is about a node
 * the table holds, and returns false, answering nothing, when it is not:
 * ops.c then hands the request to JS. A name missing from a listed table
 * directory is a negative entry, cached by the kernel like any other answer.
 *
 * The answers run on the reader thread, under the session lock; the next
 * table's functions run on the JS thread, and only serving a filled next
 * table takes the lock (nothing serves the next one before).
 */
#include "forage_fuse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A node whose own requests are answered here (not a control file). */
static const table_node *served(const forage_session *s, fuse_ino_t ino) {
  const table_node *n = table_find(s->table, ino);
  return n && !(n->flags & NODE_FORWARD) ? n : NULL;
}

static double attr_timeout_of(const node_table *t, const table_node *n) {
  /* A control file's size changes per open, so the kernel must always ask. */
  return n->flags & NODE_FORWARD ? 0 : t->attr_timeout;
}

bool table_holds(const forage_session *s, fuse_ino_t ino) {
  return table_find(s->table, ino) != NULL;
}

bool table_lookup(forage_session *s, fuse_req_t req, fuse_ino_t parent, const char *name) {
  const node_table *t = s->table;
  const table_node *dir = table_find(t, parent);
  if (!dir || !S_ISDIR(dir->mode)) return false;
  const table_node *n = table_child(t, dir, name);
  if (!n && (dir->flags & NODE_UNLISTED)) return false;
  struct fuse_entry_param e = { .entry_timeout = t->negative_timeout };
  if (n) {
    e.ino = n->ino;
    e.entry_timeout = t->entry_timeout;
    e.attr_timeout = attr_timeout_of(t, n);
    attr_fill_stat(s, &e.attr, n->ino, n->mode, (double)n->size);
  }
  /* ino 0 with a timeout: "no such name", cached for negative_timeout. */
  if (!n && e.entry_timeout <= 0) fuse_reply_err(req, ENOENT);
  else fuse_reply_entry(req, &e);
  return true;
}

bool table_getattr(forage_session *s, fuse_req_t req, fuse_ino_t ino) {
  const table_node *n = served(s, ino);
  if (!n) return false;
  struct stat st;
  attr_fill_stat(s, &st, n->ino, n->mode, (double)n->size);
  fuse_reply_attr(req, &st, s->table->attr_timeout);
  return true;
}

bool table_readlink(forage_session *s, fuse_req_t req, fuse_ino_t ino) {
  const table_node *n = served(s, ino);
  if (!n || !S_ISLNK(n->mode)) return false;
  fuse_reply_readlink(req, table_data(s->table, n));
  return true;
}

bool table_is_plain(const forage_session *s, fuse_ino_t ino) {
  const table_node *n = served(s, ino);
  return n && S_ISREG(n->mode);
}

bool table_read(forage_session *s, fuse_req_t req, fuse_ino_t ino, size_t size, off_t off) {
  const table_node *n = served(s, ino);
  if (!n || !S_ISREG(n->mode)) return false;
  size_t start = off < 0 ? 0 : (uint64_t)off < n->size ? (size_t)off : (size_t)n->size;
  size_t count = n->size - start < size ? n->size - start : size;
  fuse_reply_buf(req, table_data(s->table, n) + start, count);
  return true;
}

/* The entry at listing offset i: ".", "..", then the children in order. */
static size_t add_listing_entry(forage_session *s, fuse_req_t req, const table_node *dir,
                                uint64_t i, char *buf, size_t remaining, bool plus) {
  const node_table *t = s->table;
  off_t next = (off_t)(i + 1);
  if (i < 2) {
    uint64_t ino = i == 0 ? dir->ino : dir->parent;
    return attr_add_direntry(s, req, buf, remaining, i == 0 ? "." : "..", ino, S_IFDIR | 0555,
                             0, plus, t->entry_timeout, t->attr_timeout, next);
  }
  const table_node *n = &t->nodes[dir->first_child + (i - 2)];
  return attr_add_direntry(s, req, buf, remaining, t->names + n->name, n->ino, n->mode,
                           (double)n->size, plus, t->entry_timeout, attr_timeout_of(t, n), next);
}

/* The session's listing buffer, at least `size` bytes; NULL when out of memory. */
static char *listing_buffer(forage_session *s, size_t size) {
  if (s->listing_size >= size) return s->listing;
  char *bigger = realloc(s->listing, size);
  if (!bigger) return NULL;
  s->listing = bigger;
  s->listing_size = size;
  return bigger;
}

bool table_readdir(forage_session *s, fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                   bool plus) {
  const table_node *dir = served(s, ino);
  if (!dir || !S_ISDIR(dir->mode)) return false;
  char *buf = listing_buffer(s, size);
  if (!buf) {
    fuse_reply_err(req, ENOMEM);
    return true;
  }
  size_t used = 0;
  uint64_t end = (uint64_t)dir->child_count + 2;
  for (uint64_t i = off < 0 ? 0 : (uint64_t)off; i < end; i++) {
    size_t n = add_listing_entry(s, req, dir, i, buf + used, size - used, plus);
    if (n > size - used) break;
    used += n;
  }
  fuse_reply_buf(req, buf, used);
  return true;
}

/* The table a call names: the session's next one. */
static bool next_of(napi_env env, napi_callback_info info, size_t argc, napi_value *argv,
                    forage_session **s) {
  if (!js_args(env, info, argc, argv) || !js_session(env, argv[0], s)) return false;
  if ((*s)->next_table) return true;
  napi_throw_error(env, NULL, "forage_fuse: no next node table");
  return false;
}

/* A next table that failed to fill or number goes: what was loaded before stays served. */
static napi_value drop_failed(forage_session *s) {
  table_next_free(s->next_table);
  s->next_table = NULL;
  return NULL;
}

/* startNextTable(session, spec): starts the next table, empty and not served, replacing any one
 * started before; spec carries entryTimeout, attrTimeout and negativeTimeout beside the node fields. */
napi_value js_start_next_table(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  forage_session *s;
  if (!js_args(env, info, 2, argv) || !js_session(env, argv[0], &s)) return NULL;
  double timeouts[3];
  const char *keys[3] = { "entryTimeout", "attrTimeout", "negativeTimeout" };
  for (int i = 0; i < 3; i++) {
    napi_value v;
    if (napi_get_named_property(env, argv[1], keys[i], &v) != napi_ok ||
        !js_double(env, v, &timeouts[i]))
      return NULL;
  }
  next_table *st = table_start(env, argv[1]);
  if (!st) return NULL;
  st->table->entry_timeout = timeouts[0];
  st->table->attr_timeout = timeouts[1];
  st->table->negative_timeout = timeouts[2];
  table_next_free(s->next_table);
  s->next_table = st;
  return js_undefined(env);
}

/* fillNextTable(session, spec, maxNodes) -> true once the whole spec is in. */
napi_value js_fill_next_table(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  forage_session *s;
  double budget;
  if (!next_of(env, info, 3, argv, &s) || !js_double(env, argv[2], &budget)) return NULL;
  bool done = false;
  uint32_t nodes = budget < 1 ? 1 : budget > UINT32_MAX ? UINT32_MAX : (uint32_t)budget;
  if (!table_fill(env, s->next_table, argv[1], nodes, &done)) return drop_failed(s);
  return js_boolean(env, done);
}

/* serveNextTable(session, { inos, parents }): numbers the filled table and serves it from now
 * on, in place of the one before (one pointer). */
napi_value js_serve_next_table(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  forage_session *s;
  if (!next_of(env, info, 2, argv, &s)) return NULL;
  node_table *t = table_number(env, s->next_table, argv[1]);
  if (!t) return drop_failed(s);
  s->next_table = NULL;
  /* The reader processes each request under the lock, so none sees part of each table. */
  session_lock(s);
  node_table *old = s->table;
  s->table = t;
  session_unlock(s);
  table_free(old);
  return js_undefined(env);
}

/* dropNextTable(session): frees the next table, if any. */
napi_value js_drop_next_table(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  forage_session *s;
  if (!js_args(env, info, 1, argv) || !js_session(env, argv[0], &s)) return NULL;
  table_next_free(s->next_table);
  s->next_table = NULL;
  return js_undefined(env);
}
