/*
 * A mounted session: mounting, serving from the event loop, and teardown.
 *
 * /dev/fuse is served from Node's own event loop: a uv_poll watches the
 * session fd, and on readable we receive and process requests one by one.
 * The fd is non-blocking so a wakeup drains what is queued and never blocks
 * the loop. An op callback that needs JS calls it synchronously (js-calls.c
 * opens the JS scopes once per wakeup); JS may answer at once or later.
 *
 * The lifecycle is one enum session_state (forage_fuse.h). Mounting sets up
 * in steps, each checked, and a failed step unwinds the ones before it in
 * reverse. Teardown is one function, teardown(), that undoes the same steps
 * in the same reverse order; it has three triggers: unmount() from JS, the
 * kernel ending the session (an unmount from outside), and the end of
 * Node's environment or of the process. A clean teardown waits for any
 * invalidation batch still on the threadpool, because such a batch may be
 * blocked in the kernel until this loop answers a pending request (see
 * invalidate.c); the loop keeps serving until the batch is done.
 */
#include "forage_fuse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Requests handled per wakeup before yielding to the rest of the loop. The
 * poll is level-triggered, so anything left is picked up on the next turn. */
#define MAX_REQUESTS_PER_WAKEUP 64

static forage_session *live_sessions;

static void set_state(forage_session *s, enum session_state state) {
  __atomic_store_n(&s->state, state, __ATOMIC_RELAXED); /* read by invalidation batches */
}

/* The kernel side is gone; the session will be torn down. */
static void end(forage_session *s) {
  if (s->state < SESSION_ENDED) set_state(s, SESSION_ENDED);
}

/* ---- Teardown ------------------------------------------------------------ */

/* How far teardown may go. */
enum teardown_kind {
  TEARDOWN_CLEAN,   /* everything, then onClose once libuv has let go of the poll */
  TEARDOWN_ABANDON, /* no JS again, and an invalidation batch or the exit may still use
                     * libfuse's session: detach the mount only; memory is left to the exit */
  TEARDOWN_AT_EXIT, /* as ABANDON, from atexit: the loop is no longer to be touched */
};

void session_unref(forage_session *s) {
  if (--s->refs > 0) return;
  free(s->plain);
  free(s->listing);
  table_free(s->table);
  table_staged_free(s->staged);
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
  js_enter(s);
  napi_value on_close;
  napi_value external = js_boolean(s->env, s->external);
  napi_get_reference_value(s->env, s->on_close, &on_close);
  if (napi_call_function(s->env, js_undefined(s->env), on_close, 1, &external, NULL) != napi_ok)
    js_report_exception(s);
  js_leave(s);
}

/* libuv let go of the poll handle: the mount's reference to the memory ends. */
static void on_poll_closed(uv_handle_t *handle) {
  forage_session *s = handle->data;
  if (session_js_allowed(s)) {
    notify_closed(s);
    release_js(s);
  }
  session_unref(s);
}

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

/* The one way down: the steps of session_mount undone in reverse. The poll
 * handle is closed before libfuse closes the fd it watches. */
static void teardown(forage_session *s, enum teardown_kind kind) {
  if (s->state >= SESSION_CLOSED) return;
  s->external = s->state == SESSION_ENDED;
  set_state(s, kind == TEARDOWN_CLEAN ? SESSION_CLOSED : SESSION_ABANDONED);
  unlink_live(s);
  if (kind != TEARDOWN_AT_EXIT) {
    uv_close((uv_handle_t *)&s->poll, on_poll_closed);
    requests_fail_all(s, EIO); /* no reader stays blocked on a request JS still holds */
  }
  fuse_session_unmount(s->se);
  if (kind != TEARDOWN_CLEAN) return;
  fuse_session_destroy(s->se);
  s->se = NULL;
  free(s->buf.mem);
  s->buf.mem = NULL;
}

/* Tears down once nothing is running that still needs the session: no
 * request being processed, and no invalidation batch on the threadpool (its
 * completion calls this again). */
void session_maybe_teardown(forage_session *s) {
  if (s->state != SESSION_CLOSING && s->state != SESSION_ENDED) return;
  if (s->dispatching || s->pending_invalidations > 0) return;
  teardown(s, TEARDOWN_CLEAN);
}

/* force: unmount now even if an invalidation batch is in flight (process
 * exit). The batch still uses libfuse's session, so that is abandoned. */
void session_request_close(forage_session *s, bool force) {
  if (s->state >= SESSION_CLOSED) return;
  if (s->state == SESSION_SERVING) set_state(s, SESSION_CLOSING);
  if (force && s->pending_invalidations > 0) teardown(s, TEARDOWN_ABANDON);
  else session_maybe_teardown(s);
}

static void abandon_all(enum teardown_kind kind) {
  forage_session *next;
  for (forage_session *s = live_sessions; s; s = next) {
    next = s->next;
    teardown(s, kind);
  }
}

/* Node is tearing the environment down (normal exit, process.exit, or an
 * uncaught exception): no mount may outlive it, and no JS may run. */
static void unmount_all_at_env_cleanup(void *arg) {
  (void)arg;
  abandon_all(TEARDOWN_ABANDON);
}

/* The last resort, e.g. exit() called from C. */
static void unmount_all_at_exit(void) {
  abandon_all(TEARDOWN_AT_EXIT);
}

/* Once per process: the addon is meant for the main thread's environment
 * (registering the same cleanup hook twice would abort Node). */
void session_install_exit_hooks(napi_env env) {
  static bool installed;
  if (installed) return;
  installed = true;
  log_install();
  napi_add_env_cleanup_hook(env, unmount_all_at_env_cleanup, NULL);
  atexit(unmount_all_at_exit);
}

/* ---- Serving requests ---------------------------------------------------- */

static bool keep_serving(const forage_session *s) {
  /* After unmount() we go on serving only while an invalidation batch needs
   * this loop to answer the request it is waiting behind. */
  if (s->state == SESSION_CLOSING) return s->pending_invalidations > 0;
  return s->state == SESSION_SERVING;
}

static void serve_requests(forage_session *s) {
  s->dispatching = true;
  for (int i = 0; i < MAX_REQUESTS_PER_WAKEUP && keep_serving(s); i++) {
    int res = fuse_session_receive_buf(s->se, &s->buf);
    if (res == -EINTR) continue; /* an interrupted request: nothing to do */
    if (res == -EAGAIN) break;   /* queue drained */
    if (res <= 0) {
      /* 0: the kernel closed the session (unmounted from outside, or the
       * connection was aborted). Negative: the device failed. Either way
       * the session is over. */
      end(s);
      break;
    }
    fuse_session_process_buf(s->se, &s->buf);
  }
  s->dispatching = false;
  if (s->state < SESSION_CLOSED && fuse_session_exited(s->se)) end(s);
}

static void on_fuse_readable(uv_poll_t *handle, int status, int events) {
  forage_session *s = handle->data;
  (void)events;
  if (s->state >= SESSION_CLOSED) return;
  if (status < 0) end(s);
  else serve_requests(s);
  js_leave(s);
  /* A dead fd stays readable; stop watching it or we would spin. */
  if (s->state == SESSION_ENDED) uv_poll_stop(&s->poll);
  session_maybe_teardown(s);
}

/* ---- Mount --------------------------------------------------------------- */

/* libfuse callocs a 128-byte request for every operation and frees it once
 * answered. glibc's calloc never takes from the thread cache, and chunks of
 * that size are past its default fastbin limit, so each one was carved out
 * of the small bins of Node's large, fragmented heap: in a profile of a cold
 * `cat` of every file at 10,000 operations that was 1.5 to 3% of the
 * daemon's time, six to ten times what the C baseline spends. Fastbins up
 * to glibc's largest limit (160 bytes) make it a pop from a free list. It is process-wide and
 * only changes speed, so a C library that refuses it costs nothing else. */
static void fast_request_allocation(void) {
#ifdef __GLIBC__
  mallopt(M_MXFAST, 160);
#endif
}

/* Mounts and starts serving. On failure returns NULL with a message in
 * error, and nothing stays mounted: each step is checked, and a failed one
 * unwinds those before it in reverse. The caller fills handlers and refs. */
forage_session *session_mount(napi_env env, const char *mountpoint, const char *options,
                              bool debug, char *error, size_t error_size) {
  error[0] = '\0';
  forage_session *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  s->env = env;

  fast_request_allocation();
  log_capture_begin(error, error_size);
  s->se = ops_new_session(s, options, debug);
  if (!s->se) goto fail_session;
  if (fuse_session_mount(s->se, mountpoint) != 0) goto fail_mount;
  log_capture_end();

  int fd = fuse_session_fd(s->se);
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    snprintf(error, error_size, "cannot make the FUSE device non-blocking: %s", strerror(errno));
    goto fail_unmount;
  }
  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || !loop) {
    snprintf(error, error_size, "no event loop to serve the mount from");
    goto fail_unmount;
  }
  int rc = uv_poll_init(loop, &s->poll, fd);
  if (rc != 0) {
    snprintf(error, error_size, "cannot watch the FUSE device: %s", uv_strerror(rc));
    goto fail_unmount;
  }
  s->poll.data = s;
  rc = uv_poll_start(&s->poll, UV_READABLE, on_fuse_readable);
  if (rc != 0) {
    snprintf(error, error_size, "cannot watch the FUSE device: %s", uv_strerror(rc));
    goto fail_poll;
  }
  s->refs = 2; /* the JS external and the live mount */
  link_live(s);
  return s;

fail_poll:
  /* The handle is known to the loop now: the one teardown closes it, and
   * frees the memory once libuv lets go of it (no JS handlers yet). */
  s->refs = 1;
  teardown(s, TEARDOWN_CLEAN);
  return NULL;
fail_unmount:
  fuse_session_unmount(s->se);
fail_mount:
  fuse_session_destroy(s->se);
fail_session:
  log_capture_end();
  if (!error[0]) snprintf(error, error_size, "fuse_session_mount failed");
  free(s);
  return NULL;
}
