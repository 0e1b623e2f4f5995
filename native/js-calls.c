/*
 * The JS handlers of a session, and the calls into them.
 *
 * A request that needs JS is met on the reader thread (ops.c), where no napi
 * call may run. There it becomes a message that owns its arguments
 * (call_begin, call_<type>, call_end), queued under the session lock, and
 * the JS thread is woken (uv_async_send). The JS thread takes the messages
 * in order (calls_next) and runs each (calls_run): it registers the request
 * (requests.c), makes the JS values and calls the handler, as it would have
 * in place. So calls reach JS in the order the kernel sent them.
 *
 * One mechanism opens the JS scopes: js_enter opens a handle scope and a
 * callback scope the first time something needs JS, and js_leave closes
 * them. A wakeup (session.c) leaves once, after its last call, so a batch of
 * calls pays for the scopes once. Closing the callback scope runs the
 * microtasks and nextTicks the handlers queued, so promise continuations are
 * not left waiting.
 *
 * Exceptions thrown by JS never unwind into libfuse and never kill the
 * daemon: they go to onError, or stderr, and a request still unanswered gets
 * EIO.
 */
#include "forage_fuse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The handler names JS passes in its handlers object, by enum forage_op. */
static const char *const op_names[OP_COUNT] = {
  [OP_LOOKUP] = "lookup",     [OP_FORGET] = "forget",   [OP_GETATTR] = "getattr",
  [OP_SETATTR] = "setattr",   [OP_READLINK] = "readlink", [OP_OPEN] = "open",
  [OP_READ] = "read",         [OP_WRITE] = "write",     [OP_FLUSH] = "flush",
  [OP_RELEASE] = "release",   [OP_READDIR] = "readdir", [OP_STATFS] = "statfs",
};

/* A reference to handlers[key] when it is a function, NULL otherwise. */
static napi_ref function_ref(napi_env env, napi_value handlers, const char *key) {
  napi_value fn;
  napi_valuetype type;
  napi_ref ref = NULL;
  if (napi_get_named_property(env, handlers, key, &fn) != napi_ok) return NULL;
  napi_typeof(env, fn, &type);
  if (type == napi_function) napi_create_reference(env, fn, 1, &ref);
  return ref;
}

/* Keeps the handlers, onError, onClose and the async resource the calls run in. Before the
 * reader starts: it reads which handlers exist. False (nothing kept) when napi fails. */
bool js_keep_handlers(forage_session *s, napi_value handlers) {
  napi_env env = s->env;
  for (int i = 0; i < OP_COUNT; i++) s->handlers[i] = function_ref(env, handlers, op_names[i]);
  s->on_error = function_ref(env, handlers, "onError");
  s->on_close = function_ref(env, handlers, "onClose");
  napi_value resource, name;
  if (napi_create_object(env, &resource) != napi_ok ||
      napi_create_string_utf8(env, "forage_fuse.session", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_reference(env, resource, 1, &s->resource) != napi_ok ||
      napi_async_init(env, resource, name, &s->async_context) != napi_ok) {
    js_release_handlers(s);
    return false;
  }
  return true;
}

void js_release_handlers(forage_session *s) {
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

void js_enter(forage_session *s) {
  if (s->in_js) return;
  napi_value resource;
  napi_open_handle_scope(s->env, &s->js_handles);
  napi_get_reference_value(s->env, s->resource, &resource);
  napi_open_callback_scope(s->env, resource, s->async_context, &s->js_callback);
  s->in_js = true;
}

void js_leave(forage_session *s) {
  if (!s->in_js) return;
  s->in_js = false;
  napi_close_callback_scope(s->env, s->js_callback);
  napi_close_handle_scope(s->env, s->js_handles);
}

void js_report_exception(forage_session *s) {
  napi_env env = s->env;
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) != napi_ok || !pending) return;
  napi_value error;
  napi_get_and_clear_last_exception(env, &error);
  napi_value on_error = NULL;
  if (s->on_error) napi_get_reference_value(env, s->on_error, &on_error);
  if (on_error && napi_call_function(env, js_undefined(env), on_error, 1, &error, NULL) == napi_ok)
    return;
  napi_get_and_clear_last_exception(env, &error);
  fprintf(stderr, "forage-fuse: a request handler threw and so did onError\n");
}

/* ---- The reader thread's side ------------------------------------------ */

static void message_free(js_message *m) {
  for (size_t i = 0; i < m->argc; i++) free(m->argv[i].bytes);
  free(m);
}

/* Starts a call that answers nothing (forget); false when there is no
 * handler, JS may no longer run, or there is no memory for it. */
bool call_begin_notice(struct js_call *c, forage_session *s, enum forage_op op) {
  if (!s->handlers[op] || !session_js_allowed(s)) return false;
  c->s = s;
  c->m = calloc(1, sizeof *c->m);
  if (!c->m) return false;
  c->m->op = op;
  return true;
}

/* Starts a call for a request JS must answer; JS gets its id as the first
 * argument. When there is no handler, or no memory, it is answered here and
 * false returned. */
bool call_begin(struct js_call *c, fuse_req_t req, enum forage_op op) {
  forage_session *s = fuse_req_userdata(req);
  if (!s->handlers[op] || !session_js_allowed(s)) {
    fuse_reply_err(req, session_js_allowed(s) ? ENOSYS : EIO);
    return false;
  }
  if (!call_begin_notice(c, s, op)) {
    fuse_reply_err(req, ENOMEM);
    return false;
  }
  c->m->req = req;
  return true;
}

static struct js_arg *next_arg(struct js_call *c) {
  return &c->m->argv[c->m->argc++];
}

void call_number(struct js_call *c, double d) {
  *next_arg(c) = (struct js_arg){ .type = ARG_NUMBER, .number = d };
}

void call_bool(struct js_call *c, bool b) {
  *next_arg(c) = (struct js_arg){ .type = ARG_BOOL, .number = b };
}

/* Copies: libfuse reuses its receive buffer for the next request. */
static void copy_bytes(struct js_call *c, int type, const char *data, size_t size) {
  struct js_arg *a = next_arg(c);
  *a = (struct js_arg){ .type = type, .bytes = malloc(size + 1), .size = size };
  if (!a->bytes) {
    c->m->failed = true;
    return;
  }
  if (size > 0) memcpy(a->bytes, data, size);
  a->bytes[size] = '\0';
}

void call_string(struct js_call *c, const char *str) {
  copy_bytes(c, ARG_STRING, str, strlen(str));
}

void call_bytes(struct js_call *c, const char *data, size_t size) {
  copy_bytes(c, ARG_BYTES, data, size);
}

/* Answers a message's request (a notice has none) with err instead of running it. */
static void message_fail(js_message *m, int err) {
  if (m->req) fuse_reply_err(m->req, err);
  message_free(m);
}

/* Queues the call for the JS thread and wakes it. The reader holds the session lock. */
void call_end(struct js_call *c) {
  js_message *m = c->m;
  if (m->failed) {
    message_fail(m, ENOMEM);
    return;
  }
  *c->s->queue_tail = m;
  c->s->queue_tail = &m->next;
  uv_async_send(&c->s->wake);
}

/* ---- The JS thread's side ---------------------------------------------- */

js_message *calls_next(forage_session *s) {
  session_lock(s);
  js_message *m = s->queue;
  if (m) {
    s->queue = m->next;
    if (!s->queue) s->queue_tail = &s->queue;
  }
  session_unlock(s);
  return m;
}

static napi_value arg_value(napi_env env, const struct js_arg *a) {
  napi_value v = NULL;
  if (a->type == ARG_NUMBER) return js_number(env, a->number);
  if (a->type == ARG_BOOL) return js_boolean(env, a->number != 0);
  if (a->type == ARG_STRING) napi_create_string_utf8(env, a->bytes, a->size, &v);
  else napi_create_buffer_copy(env, a->size, a->bytes, NULL, &v);
  return v;
}

/* Calls the handler. If it throws, the request (when still unanswered) gets
 * EIO: a bug in a handler must neither kill the daemon nor hang a reader. */
void calls_run(forage_session *s, js_message *m) {
  napi_env env = s->env;
  int64_t id = 0;
  if (m->req && !(id = requests_add(m->req, s))) {
    message_fail(m, ENOMEM);
    return;
  }
  js_enter(s);
  napi_handle_scope scope;
  napi_value fn, argv[6];
  size_t argc = 0;
  napi_open_handle_scope(env, &scope);
  napi_get_reference_value(env, s->handlers[m->op], &fn);
  if (id) argv[argc++] = js_number(env, (double)id);
  for (size_t i = 0; i < m->argc; i++) argv[argc++] = arg_value(env, &m->argv[i]);
  if (napi_call_function(env, js_undefined(env), fn, argc, argv, NULL) != napi_ok) {
    js_report_exception(s);
    fuse_req_t req = id ? requests_take(id, NULL) : NULL;
    if (req) fuse_reply_err(req, EIO);
  }
  napi_close_handle_scope(env, scope);
  message_free(m);
}

/* A session going away: no reader may stay blocked on a call JS will never run. */
void calls_fail_queued(forage_session *s, int err) {
  for (js_message *m; (m = calls_next(s));) message_fail(m, err);
}
