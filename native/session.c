/*
 * A mounted session: mounting, the reader thread, the JS thread's side of
 * its queue, and teardown.
 *
 * /dev/fuse is served by a reader thread of the session's own, which blocks
 * in read on the session fd and processes each request as it comes, holding
 * the session lock. What the node table and ops.c answer in C is answered
 * there and then; a request that needs JS is queued (js-calls.c) and the JS
 * thread woken through a uv_async handle, whose callback runs the queued
 * calls in order. JS may answer at once or later, from the JS thread.
 *
 * The lifecycle is one enum session_state (forage_fuse.h). Mounting sets up
 * in steps, each checked, and a failed step unwinds the ones before it in
 * reverse. Teardown is one function, teardown(), that undoes the same steps
 * in the same reverse order; it has three triggers: unmount() from JS, the
 * kernel ending the session (an unmount from outside: the reader's read
 * returns 0 and it tells the JS thread), and the end of Node's environment
 * or of the process. A clean teardown waits for any invalidation batch still
 * on the threadpool, because such a batch may be blocked in the kernel until
 * the daemon answers a pending request (see invalidate.c); the reader keeps
 * serving, and the JS thread keeps running queued calls, until the batch is
 * done.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include "forage_fuse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Queued calls run per wakeup before yielding to the rest of the loop; the
 * wakeup sends itself again for the rest. */
#define MAX_CALLS_PER_WAKEUP 64

static forage_session *live_sessions;

static void set_state(forage_session *s, enum session_state state) {
  __atomic_store_n(&s->state, state, __ATOMIC_RELAXED); /* read by the reader and batches */
}

/* The kernel side is gone; the session will be torn down. */
static void end(forage_session *s) {
  if (s->state < SESSION_ENDED) set_state(s, SESSION_ENDED);
}

/* ---- Teardown ------------------------------------------------------------ */

/* How far teardown may go. */
enum teardown_kind {
  TEARDOWN_CLEAN,   /* everything, then onClose once libuv has let go of the wakeup handle */
  TEARDOWN_ABANDON, /* no JS again, and an invalidation batch or the exit may still use
                     * libfuse's session: detach the mount only; memory is left to the exit */
  TEARDOWN_AT_EXIT, /* as ABANDON, from atexit: the loop is no longer to be touched */
};

void session_unref(forage_session *s) {
  if (--s->refs > 0) return;
  pthread_mutex_destroy(&s->lock);
  free(s->plain);
  free(s->listing);
  table_free(s->table);
  table_next_free(s->next_table);
  free(s);
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

/* libuv let go of the wakeup handle: the mount's reference to the memory ends. */
static void on_wake_closed(uv_handle_t *handle) {
  forage_session *s = handle->data;
  if (session_js_allowed(s)) {
    notify_closed(s);
    js_release_handlers(s);
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

/* Stops the reader thread and waits for it. It is either blocked in read, the only point where
 * it may be cancelled, or about to get there once the request it holds is answered or queued:
 * it never waits for the JS thread, so the join is short. libfuse's own threads end alike. */
static void stop_reader(forage_session *s) {
  if (!s->reader_started) return;
  s->reader_started = false;
  pthread_cancel(s->reader); /* a no-op once it ended by itself */
  pthread_join(s->reader, NULL);
}

/* The one way down: the steps of session_mount undone in reverse. The reader is stopped
 * before anything it uses goes: the wakeup handle, the fd libfuse closes on unmount. */
static void teardown(forage_session *s, enum teardown_kind kind) {
  if (s->state >= SESSION_CLOSED) return;
  s->external = s->state == SESSION_ENDED;
  set_state(s, kind == TEARDOWN_CLEAN ? SESSION_CLOSED : SESSION_ABANDONED);
  unlink_live(s);
  stop_reader(s);
  if (kind != TEARDOWN_AT_EXIT) {
    uv_close((uv_handle_t *)&s->wake, on_wake_closed);
    /* No process stays blocked on a request JS was yet to see, or still holds. */
    calls_fail_queued(s, EIO);
    requests_fail_all(s, EIO);
  }
  fuse_session_unmount(s->se);
  if (s->last_device_fd >= 0) close(s->last_device_fd);
  s->last_device_fd = -1;
  if (kind != TEARDOWN_CLEAN) return;
  fuse_session_destroy(s->se);
  s->se = NULL;
  free(s->buf.mem);
  s->buf.mem = NULL;
}

/* Tears down once nothing is running that still needs the session: no
 * queued calls being run, and no invalidation batch on the threadpool (its
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

static void fast_request_allocation(void);

/* Once per process, before any reader thread exists (mallopt is not safe
 * while other threads allocate): libfuse's log route, the allocator setting,
 * the exit hooks. The addon is meant for the main thread's environment
 * (registering the same cleanup hook twice would abort Node). */
void session_init_process(napi_env env) {
  static bool done;
  if (done) return;
  done = true;
  log_install();
  fast_request_allocation();
  napi_add_env_cleanup_hook(env, unmount_all_at_env_cleanup, NULL);
  atexit(unmount_all_at_exit);
}

/* ---- Serving requests ---------------------------------------------------- */

static bool keep_serving(const forage_session *s) {
  /* After unmount() JS goes on answering only while an invalidation batch may wait in the
   * kernel behind one of its requests. */
  if (s->state == SESSION_CLOSING) return s->pending_invalidations > 0;
  return s->state == SESSION_SERVING;
}

/* The reader thread: one request at a time, each processed whole under the session lock, so
 * that it is answered from one table (a switch waits for it, and it for a switch). Cancellation
 * is allowed only while it waits in read, so it is never stopped holding the lock or a request.
 * It ends by itself when the kernel ends the session, and tells the JS thread. */
static void *serve(void *arg) {
  forage_session *s = arg;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
  for (;;) {
    pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
    int res = fuse_session_receive_buf(s->se, &s->buf);
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    if (res == -EINTR) continue; /* an interrupted read: nothing to do */
    /* 0: the kernel closed the session (unmounted from outside, or the connection was
     * aborted). Negative: the device failed. Either way the session is over. */
    if (res <= 0) break;
    session_lock(s);
    fuse_session_process_buf(s->se, &s->buf);
    session_unlock(s);
    if (fuse_session_exited(s->se)) break;
  }
  __atomic_store_n(&s->reader_done, true, __ATOMIC_RELEASE);
  uv_async_send(&s->wake);
  return NULL;
}

/* The JS thread: the reader queued calls, or ended. */
static void on_wake(uv_async_t *handle) {
  forage_session *s = handle->data;
  if (s->state >= SESSION_CLOSED) return;
  s->dispatching = true;
  bool more = false;
  for (int i = 0; keep_serving(s); i++) {
    if (i == MAX_CALLS_PER_WAKEUP) {
      more = true;
      break;
    }
    js_message *m = calls_next(s);
    if (!m) break;
    calls_run(s, m);
  }
  s->dispatching = false;
  js_leave(s); /* runs the microtasks, which may unmount */
  if (s->state >= SESSION_CLOSED) return;
  if (__atomic_load_n(&s->reader_done, __ATOMIC_ACQUIRE)) end(s);
  else if (more) uv_async_send(&s->wake);
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
 * only changes speed, so a C library that refuses it costs nothing else. (Measured when the
 * event loop served the device; the reader thread now allocates from its own arena, and the
 * gain there has not been measured again.) */
static void fast_request_allocation(void) {
#ifdef __GLIBC__
  mallopt(M_MXFAST, 160);
#endif
}

/* Starts the reader with every signal blocked, so that signals meant for the process (Node's
 * SIGINT, SIGTERM...) go to the JS thread, as before there was a reader, and never interrupt its
 * read. (glibc keeps the signal it cancels threads with unblocked.) */
static int start_reader(forage_session *s) {
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  int rc = pthread_create(&s->reader, NULL, serve, s);
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  /* What ps and /proc call it, from the moment mount returns. */
  if (rc == 0) pthread_setname_np(s->reader, "forage-fuse");
  return rc;
}

/* Under auto_unmount, fusermount3 waits on a socket to this process; when it
 * closes, it opens the mountpoint and unmounts only if that fails with
 * ENOTCONN, the sign that the daemon is gone. A process killed with SIGKILL
 * releases its files in reverse order of its descriptors (the kernel runs the
 * deferred releases last queued first), so with the socket above /dev/fuse,
 * as libfuse leaves them, fusermount3 could wake and probe while the
 * connection still stood: its OPENDIR then ended with ECONNABORTED and the
 * dead mount stayed (8 times in 25 kills on Linux 6.18 with libfuse 3.14).
 * A second descriptor of /dev/fuse above every open one makes the device's
 * last release come first: the connection is aborted before the socket
 * closes, and the probe sees ENOTCONN. Returns the descriptor, or -1. */
static int device_fd_above_all(int device_fd) {
  int highest = device_fd;
  DIR *fds = opendir("/proc/self/fd");
  if (fds) {
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL) {
      int fd = atoi(entry->d_name);
      if (fd > highest) highest = fd;
    }
    closedir(fds);
  }
  return fcntl(device_fd, F_DUPFD_CLOEXEC, highest + 1);
}

/* Mounts and starts serving. On failure returns NULL with a message in
 * error, and nothing stays mounted: each step is checked, and a failed one
 * unwinds those before it in reverse. The reader starts last, once everything
 * it reads is set. */
forage_session *session_mount(napi_env env, const char *mountpoint, const char *options,
                              const struct session_config *config, napi_value handlers,
                              char *error, size_t error_size) {
  error[0] = '\0';
  forage_session *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  s->env = env;
  s->uid = config->uid;
  s->gid = config->gid;
  s->mtime = config->mtime;
  s->want_no_opendir = config->no_opendir;
  s->want_no_open = config->no_open;
  s->fast_open = config->fast_open;
  s->queue_tail = &s->queue;

  int rc = pthread_mutex_init(&s->lock, NULL);
  if (rc != 0) {
    snprintf(error, error_size, "cannot make the session lock: %s", strerror(rc));
    goto fail_lock;
  }
  if (!js_keep_handlers(s, handlers)) {
    snprintf(error, error_size, "cannot keep the handlers");
    goto fail_handlers;
  }
  log_capture_begin(error, error_size);
  s->se = ops_new_session(s, options, config->debug);
  if (!s->se) goto fail_session;
  if (fuse_session_mount(s->se, mountpoint) != 0) goto fail_mount;
  log_capture_end();
  s->last_device_fd = strstr(options, "auto_unmount") ? device_fd_above_all(fuse_session_fd(s->se)) : -1;

  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || !loop) {
    snprintf(error, error_size, "no event loop to serve the mount from");
    goto fail_unmount;
  }
  rc = uv_async_init(loop, &s->wake, on_wake);
  if (rc != 0) {
    snprintf(error, error_size, "cannot wake the event loop: %s", uv_strerror(rc));
    goto fail_unmount;
  }
  s->wake.data = s;
  rc = start_reader(s);
  if (rc != 0) {
    snprintf(error, error_size, "cannot start the FUSE reader thread: %s", strerror(rc));
    goto fail_thread;
  }
  s->reader_started = true;
  s->refs = 2; /* the JS external and the live mount */
  link_live(s);
  return s;

fail_thread:
  /* The handle is known to the loop now: the one teardown closes it, and
   * frees the memory once libuv lets go of it. A mount that never served
   * calls no onClose. */
  js_release_handlers(s);
  s->refs = 1;
  teardown(s, TEARDOWN_CLEAN);
  return NULL;
fail_unmount:
  if (s->last_device_fd >= 0) close(s->last_device_fd);
  fuse_session_unmount(s->se);
fail_mount:
  fuse_session_destroy(s->se);
fail_session:
  log_capture_end();
  js_release_handlers(s);
fail_handlers:
  pthread_mutex_destroy(&s->lock);
fail_lock:
  if (!error[0]) snprintf(error, error_size, "fuse_session_mount failed");
  free(s);
  return NULL;
}
