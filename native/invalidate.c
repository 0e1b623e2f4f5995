/*
 * Kernel cache invalidation, for catalog reloads.
 *
 * fuse_lowlevel_notify_inval_entry takes the parent directory's lock in the
 * kernel, and notify_inval_inode the file's page locks. A process that is
 * in the middle of a lookup or read on the same node holds those locks while
 * it waits for this daemon's answer, from the reader thread or from JS.
 * Calling the notify functions on the JS thread could therefore deadlock: it
 * would wait for the lock, and the lock for a JS answer; on the reader thread
 * alike. So a batch of invalidations runs as one napi async work item on
 * Node's existing threadpool, while both go on answering requests. (This and
 * the reader thread are the only work done off the JS thread; a batch takes
 * no lock, so neither ever waits for it.)
 */
#include "forage_fuse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct inval_batch {
  forage_session *s;
  napi_async_work work;
  napi_ref callback;
  uint64_t *inodes;
  size_t inode_count;
  uint64_t *parents;
  char **names;
  size_t entry_count;
  int failures; /* errors other than ENOENT ("the kernel has no such node") */
};

static void free_batch(napi_env env, struct inval_batch *b) {
  for (size_t i = 0; i < b->entry_count; i++) free(b->names[i]);
  free(b->names);
  free(b->parents);
  free(b->inodes);
  if (b->callback) napi_delete_reference(env, b->callback);
  if (b->work) napi_delete_async_work(env, b->work);
  free(b);
}

static void count_result(struct inval_batch *b, int res) {
  if (res != 0 && res != -ENOENT) b->failures++;
}

/* Threadpool: may block in the kernel until the daemon answers a request.
 * Stops early once the kernel side is gone: nothing is left to invalidate. */
static bool session_ended(const forage_session *s) {
  return session_state(s) >= SESSION_ENDED;
}

static void run_batch(napi_env env, void *data) {
  struct inval_batch *b = data;
  (void)env;
  for (size_t i = 0; i < b->entry_count && !session_ended(b->s); i++)
    count_result(b, fuse_lowlevel_notify_inval_entry(b->s->se, b->parents[i], b->names[i],
                                                     strlen(b->names[i])));
  /* off 0, len 0: drop attributes and all cached data (pages, readdir cache,
   * cached symlink target). */
  for (size_t i = 0; i < b->inode_count && !session_ended(b->s); i++)
    count_result(b, fuse_lowlevel_notify_inval_inode(b->s->se, b->inodes[i], 0, 0));
}

/* JS thread: report to JS, then let a pending unmount proceed. */
static void finish_batch(napi_env env, napi_status status, void *data) {
  struct inval_batch *b = data;
  forage_session *s = b->s;
  s->pending_invalidations--;
  if (session_js_allowed(s)) {
    napi_value callback, failures = js_number(env, status == napi_ok ? b->failures : -1);
    napi_get_reference_value(env, b->callback, &callback);
    if (napi_call_function(env, js_undefined(env), callback, 1, &failures, NULL) != napi_ok)
      js_report_exception(s);
  }
  free_batch(env, b);
  session_maybe_teardown(s);
  session_unref(s);
}

static bool read_u64_array(napi_env env, napi_value array, uint64_t **out, uint32_t *count) {
  bool is_array = false;
  napi_is_array(env, array, &is_array);
  if (!is_array) {
    napi_throw_type_error(env, NULL, "forage_fuse: expected an array of numbers");
    return false;
  }
  napi_get_array_length(env, array, count);
  *out = calloc(*count ? *count : 1, sizeof **out);
  if (!*out) return false;
  for (uint32_t i = 0; i < *count; i++) {
    napi_value v;
    int64_t n;
    napi_get_element(env, array, i, &v);
    if (!js_int64(env, v, &n)) return false;
    (*out)[i] = (uint64_t)n;
  }
  return true;
}

static bool read_names(napi_env env, napi_value array, struct inval_batch *b, uint32_t count) {
  b->names = calloc(count ? count : 1, sizeof *b->names);
  if (!b->names) return false;
  b->entry_count = count;
  for (uint32_t i = 0; i < count; i++) {
    napi_value v;
    napi_get_element(env, array, i, &v);
    if (!(b->names[i] = js_string_dup(env, v))) return false;
  }
  return true;
}

/* invalidate(session, inodes, parents, names, callback(failures)).
 * Entries are (parents[i], names[i]). The callback gets the number of
 * notifications the kernel refused for a reason other than "unknown". */
napi_value js_invalidate(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  forage_session *s;
  uint32_t inode_count = 0, parent_count = 0, name_count = 0;
  if (!js_args(env, info, 5, argv) || !js_session(env, argv[0], &s)) return NULL;
  if (s->state != SESSION_SERVING) {
    napi_throw_error(env, NULL, "forage_fuse: the session is closed");
    return NULL;
  }
  struct inval_batch *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->s = s;
  bool ok = read_u64_array(env, argv[1], &b->inodes, &inode_count) &&
            read_u64_array(env, argv[2], &b->parents, &parent_count) &&
            napi_get_array_length(env, argv[3], &name_count) == napi_ok &&
            read_names(env, argv[3], b, name_count < parent_count ? name_count : parent_count) &&
            napi_create_reference(env, argv[4], 1, &b->callback) == napi_ok;
  b->inode_count = inode_count;
  napi_value name;
  napi_create_string_utf8(env, "forage_fuse.invalidate", NAPI_AUTO_LENGTH, &name);
  if (!ok || napi_create_async_work(env, NULL, name, run_batch, finish_batch, b, &b->work) != napi_ok ||
      napi_queue_async_work(env, b->work) != napi_ok) {
    free_batch(env, b);
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw_error(env, NULL, "forage_fuse: cannot queue invalidation");
    return NULL;
  }
  s->pending_invalidations++;
  s->refs++; /* the batch keeps the session's memory alive */
  return js_undefined(env);
}
