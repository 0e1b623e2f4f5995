/*
 * A mounted session: mount, the event loop integration, and teardown.
 *
 * /dev/fuse is served from Node's own event loop: a uv_poll watches the
 * session fd, and on readable we receive and process requests one by one.
 * The fd is non-blocking so a wakeup drains what is queued and never blocks
 * the loop. An op callback that needs JS calls it synchronously (the JS
 * scopes are opened lazily, once per wakeup); JS may answer at once or later.
 * This file also keeps the per-inode "plain file" table that lets ops.c
 * answer opens of read-only files without JS.
 *
 * Teardown has three triggers: unmount() from JS, the kernel ending the
 * session (an unmount from outside), and process exit. It waits for any
 * invalidation batch still on the threadpool, because such a batch may be
 * blocked in the kernel until this loop answers a pending request (see
 * invalidate.c); the loop keeps serving until the batch is done.
 */
#include "forage_fuse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Requests handled per wakeup before yielding to the rest of the loop. The
 * poll is level-triggered, so anything left is picked up on the next turn. */
#define MAX_REQUESTS_PER_WAKEUP 64

static forage_session *live_sessions;

/* ---- libfuse's log: captured while mounting, for a useful JS error ----- */

static char *log_capture;
static size_t log_capture_size;

static void forage_log(enum fuse_log_level level, const char *fmt, va_list ap) {
  (void)level;
  if (log_capture && log_capture_size > 0) {
    size_t used = strlen(log_capture);
    if (used + 1 < log_capture_size)
      vsnprintf(log_capture + used, log_capture_size - used, fmt, ap);
    return;
  }
  fputs("forage-fuse: ", stderr);
  vfprintf(stderr, fmt, ap);
}

/* ---- Attributes -------------------------------------------------------- */

void session_fill_stat(const forage_session *s, struct stat *st, uint64_t ino, uint32_t mode,
                       double size) {
  memset(st, 0, sizeof *st);
  st->st_ino = ino;
  st->st_mode = mode;
  st->st_nlink = 1; /* 1 for directories too: "unknown", so find never guesses leaves */
  st->st_uid = s->uid;
  st->st_gid = s->gid;
  st->st_size = size > 0 ? (off_t)size : 0;
  st->st_blksize = 4096;
  st->st_blocks = (st->st_size + 511) / 512;
  st->st_atim = s->mtime;
  st->st_mtim = s->mtime;
  st->st_ctim = s->mtime;
}

/* Appends one directory entry (with attributes and an entry when `plus`) to
 * buf. Returns the size it needs: more than `remaining` means it did not fit
 * and nothing was written. `next` is the offset the kernel resumes at. */
size_t session_add_direntry(forage_session *s, fuse_req_t req, char *buf, size_t remaining,
                            const char *name, uint64_t ino, uint32_t mode, double size, bool plus,
                            double entry_timeout, double attr_timeout, off_t next) {
  if (!plus) {
    struct stat st;
    session_fill_stat(s, &st, ino, mode, size);
    return fuse_add_direntry(req, buf, remaining, name, &st, next);
  }
  struct fuse_entry_param e = {
    .ino = (fuse_ino_t)ino,
    .entry_timeout = entry_timeout,
    .attr_timeout = attr_timeout,
  };
  session_fill_stat(s, &e.attr, e.ino, mode, size);
  size_t used = fuse_add_direntry_plus(req, buf, remaining, name, &e, next);
  if (used <= remaining) session_note_mode(s, e.ino, mode);
  return used;
}

/* Inode numbers above this are not tracked (their opens simply go to JS). */
#define PLAIN_TRACK_LIMIT (1u << 28)

/* Remembers whether an inode is a plain file, from the attributes we send
 * the kernel, so open() of it can be answered without JS. */
void session_note_mode(forage_session *s, uint64_t ino, uint32_t mode) {
  if (!s->fast_open || ino == 0 || ino >= PLAIN_TRACK_LIMIT) return;
  bool plain = S_ISREG(mode) && !(mode & 0222);
  if (ino >= s->plain_size) {
    if (!plain) return;
    size_t size = s->plain_size ? s->plain_size : 4096;
    while (size <= ino) size *= 2;
    uint8_t *bigger = realloc(s->plain, size);
    if (!bigger) return;
    memset(bigger + s->plain_size, 0, size - s->plain_size);
    s->plain = bigger;
    s->plain_size = size;
  }
  s->plain[ino] = plain;
}

bool session_is_plain(const forage_session *s, uint64_t ino) {
  return ino < s->plain_size && s->plain[ino];
}

/* ---- JS scopes for calls made from libuv callbacks ---------------------- */

/* Scopes for a JS call from a libuv callback other than a wakeup (the
 * close notification); wakeups use session_enter_js below. */
struct js_scope {
  napi_handle_scope handles;
  napi_callback_scope callback;
};

static void js_scope_open(forage_session *s, struct js_scope *scope) {
  napi_value resource;
  napi_open_handle_scope(s->env, &scope->handles);
  napi_get_reference_value(s->env, s->resource, &resource);
  napi_open_callback_scope(s->env, resource, s->async_context, &scope->callback);
}

static void js_scope_close(forage_session *s, struct js_scope *scope) {
  napi_close_callback_scope(s->env, scope->callback);
  napi_close_handle_scope(s->env, scope->handles);
}

/* ---- Serving requests --------------------------------------------------- */

static bool keep_serving(const forage_session *s) {
  if (s->ended || s->torn_down) return false;
  /* After unmount() we go on serving only while an invalidation batch needs
   * this loop to answer the request it is waiting behind. */
  return !s->closing || s->pending_invalidations > 0;
}

static void serve_requests(forage_session *s) {
  s->dispatch_depth++;
  for (int i = 0; i < MAX_REQUESTS_PER_WAKEUP && keep_serving(s); i++) {
    int res = fuse_session_receive_buf(s->se, &s->buf);
    if (res == -EINTR) continue; /* an interrupted request: nothing to do */
    if (res == -EAGAIN) break;   /* queue drained */
    if (res <= 0) {
      /* 0: the kernel closed the session (unmounted from outside, or the
       * connection was aborted). Negative: the device failed. Either way
       * the session is over. */
      s->ended = true;
      break;
    }
    fuse_session_process_buf(s->se, &s->buf);
  }
  s->dispatch_depth--;
  if (fuse_session_exited(s->se)) s->ended = true;
  if (s->ended) s->closing = true;
}

/* Opens the JS scopes for the rest of this wakeup, the first time a request
 * needs JS. Requests answered in C (plain-file opens) never pay for them. */
void session_enter_js(forage_session *s) {
  if (s->in_js) return;
  napi_value resource;
  napi_open_handle_scope(s->env, &s->js_handles);
  napi_get_reference_value(s->env, s->resource, &resource);
  napi_open_callback_scope(s->env, resource, s->async_context, &s->js_callback);
  s->in_js = true;
}

/* Closing the callback scope runs the microtasks and nextTicks queued by the
 * handlers, so promise continuations are not left waiting. */
static void leave_js(forage_session *s) {
  if (!s->in_js) return;
  s->in_js = false;
  napi_close_callback_scope(s->env, s->js_callback);
  napi_close_handle_scope(s->env, s->js_handles);
}

static void on_fuse_readable(uv_poll_t *handle, int status, int events) {
  forage_session *s = handle->data;
  (void)events;
  if (s->torn_down) return;
  if (status < 0) {
    s->ended = true;
    s->closing = true;
  } else {
    serve_requests(s);
  }
  leave_js(s);
  /* A dead fd stays readable; stop watching it or we would spin. */
  if (s->ended) uv_poll_stop(&s->poll);
  session_maybe_teardown(s);
}

/* ---- Mount -------------------------------------------------------------- */

static void link_live(forage_session *s) {
  s->next = live_sessions;
  live_sessions = s;
}

static void unlink_live(forage_session *s) {
  for (forage_session **p = &live_sessions; *p; p = &(*p)->next) {
    if (*p == s) {
      *p = s->next;
      return;
    }
  }
}

static struct fuse_session *new_fuse_session(forage_session *s, const char *options, bool debug) {
  char *argv[] = { "forage", "-o", (char *)options, debug ? "-d" : NULL, NULL };
  struct fuse_args args = FUSE_ARGS_INIT(debug ? 4 : 3, argv);
  struct fuse_session *se = fuse_session_new(&args, &forage_ops, sizeof forage_ops, s);
  fuse_opt_free_args(&args);
  return se;
}

/* Mounts and starts serving. On failure returns NULL with a message in
 * error; nothing stays mounted. The caller fills handlers and refs. */
forage_session *session_mount(napi_env env, const char *mountpoint, const char *options,
                              bool debug, char *error, size_t error_size) {
  forage_session *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  s->env = env;
  error[0] = '\0';
  log_capture = error;
  log_capture_size = error_size;
  s->se = new_fuse_session(s, options, debug);
  if (s->se && fuse_session_mount(s->se, mountpoint) != 0) {
    fuse_session_destroy(s->se);
    s->se = NULL;
  }
  log_capture = NULL;
  if (!s->se) {
    if (!error[0]) snprintf(error, error_size, "fuse_session_mount failed");
    free(s);
    return NULL;
  }

  int fd = fuse_session_fd(s->se);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  uv_loop_t *loop = NULL;
  napi_get_uv_event_loop(env, &loop);
  uv_poll_init(loop, &s->poll, fd);
  s->poll.data = s;
  uv_poll_start(&s->poll, UV_READABLE, on_fuse_readable);
  s->refs = 2; /* the JS external and the live mount */
  link_live(s);
  return s;
}

/* ---- Teardown ----------------------------------------------------------- */

void session_unref(forage_session *s) {
  if (--s->refs > 0) return;
  free(s->plain);
  table_free(s->table);
  free(s);
}

static void release_js(forage_session *s) {
  for (int i = 0; i < OP_COUNT; i++) {
    if (s->handlers[i]) napi_delete_reference(s->env, s->handlers[i]);
    s->handlers[i] = NULL;
  }
  if (s->on_error) napi_delete_reference(s->env, s->on_error);
  if (s->on_close) napi_delete_reference(s->env, s->on_close);
  if (s->resource) napi_delete_reference(s->env, s->resource);
  if (s->async_context) napi_async_destroy(s->env, s->async_context);
  s->on_error = s->on_close = s->resource = NULL;
  s->async_context = NULL;
}

static void notify_closed(forage_session *s) {
  if (!s->on_close) return;
  struct js_scope scope;
  js_scope_open(s, &scope);
  napi_value on_close;
  napi_value external = js_boolean(s->env, s->ended);
  napi_get_reference_value(s->env, s->on_close, &on_close);
  if (napi_call_function(s->env, js_undefined(s->env), on_close, 1, &external, NULL) != napi_ok)
    forage_report_exception(s);
  js_scope_close(s, &scope);
}

static void on_poll_closed(uv_handle_t *handle) {
  forage_session *s = handle->data;
  if (!s->env_gone) {
    notify_closed(s);
    release_js(s);
  }
  session_unref(s);
}

/* Unmounts and frees the libfuse session. The poll handle is closed first:
 * libuv must stop watching the fd before libfuse closes it. */
static void teardown(forage_session *s) {
  s->torn_down = true;
  unlink_live(s);
  uv_close((uv_handle_t *)&s->poll, on_poll_closed);
  requests_fail_all(s, EIO);
  fuse_session_unmount(s->se);
  fuse_session_destroy(s->se);
  s->se = NULL;
  free(s->buf.mem);
  s->buf.mem = NULL;
}

/* Tears down once nothing is running that still needs the session: no
 * request being processed, and no invalidation batch on the threadpool (its
 * completion calls this again). */
void session_maybe_teardown(forage_session *s) {
  if (!s->closing || s->torn_down || s->dispatch_depth > 0) return;
  if (s->pending_invalidations > 0) return;
  teardown(s);
}

/* Unmount on the way out, when no JS can run and nothing may block: only
 * detach the mount and close the fd. Memory is left to the process exit. */
static void emergency_unmount(forage_session *s) {
  if (s->torn_down) return;
  s->torn_down = true;
  s->env_gone = true;
  fuse_session_unmount(s->se);
}

/* force: unmount now even if an invalidation batch is in flight (process
 * exit). The batch thread still references the session, so it is not freed. */
void session_request_close(forage_session *s, bool force) {
  if (s->torn_down) return;
  s->closing = true;
  if (force && s->pending_invalidations > 0) {
    unlink_live(s);
    uv_close((uv_handle_t *)&s->poll, NULL);
    requests_fail_all(s, EIO);
    emergency_unmount(s);
    return;
  }
  session_maybe_teardown(s);
}

static void unmount_all_at_exit(void) {
  for (forage_session *s = live_sessions; s; s = s->next) emergency_unmount(s);
  live_sessions = NULL;
}

/* Node is tearing the environment down (normal exit, process.exit, or an
 * uncaught exception): no mount may outlive it. */
static void unmount_all_at_env_cleanup(void *arg) {
  (void)arg;
  for (forage_session *s = live_sessions; s; s = s->next) {
    if (s->torn_down) continue;
    s->env_gone = true;
    uv_close((uv_handle_t *)&s->poll, on_poll_closed);
    requests_fail_all(s, EIO);
    emergency_unmount(s);
  }
  live_sessions = NULL;
}

/* Once per process: the addon is meant for the main thread's environment
 * (registering the same cleanup hook twice would abort Node). */
void session_install_exit_hooks(napi_env env) {
  static bool installed;
  if (installed) return;
  installed = true;
  fuse_set_log_func(forage_log);
  napi_add_env_cleanup_hook(env, unmount_all_at_env_cleanup, NULL);
  atexit(unmount_all_at_exit); /* last resort, e.g. exit() called from C */
}
