/*
 * Calls into JS from libfuse and libuv callbacks, which run outside any JS
 * scope.
 *
 * One mechanism opens the scopes: js_enter opens a handle scope and a
 * callback scope the first time something needs JS, and js_leave closes
 * them. A wakeup (session.c) leaves once, after its last request, so requests
 * answered in C never pay for the scopes and a batch of requests pays once.
 * Closing the callback scope runs the microtasks and nextTicks the handlers
 * queued, so promise continuations are not left waiting.
 *
 * Exceptions thrown by JS never unwind into libfuse and never kill the
 * daemon: they go to onError, or stderr, and a request still unanswered gets
 * EIO.
 */
#include "forage_fuse.h"

#include <errno.h>
#include <stdio.h>

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

/* Starts a call that answers nothing (forget); false when there is no
 * handler or JS may no longer run. */
bool call_begin_notice(struct js_call *c, forage_session *s, enum forage_op op) {
  if (!s->handlers[op] || !session_js_allowed(s)) return false;
  js_enter(s);
  c->s = s;
  c->argc = 0;
  c->id = 0;
  napi_open_handle_scope(s->env, &c->scope);
  napi_get_reference_value(s->env, s->handlers[op], &c->fn);
  return true;
}

/* Starts a call for a request JS must answer, its id as the first argument.
 * When there is no handler, or the request cannot be registered, it is
 * answered here and false returned. */
bool call_begin(struct js_call *c, fuse_req_t req, enum forage_op op) {
  forage_session *s = fuse_req_userdata(req);
  if (!call_begin_notice(c, s, op)) {
    fuse_reply_err(req, session_js_allowed(s) ? ENOSYS : EIO);
    return false;
  }
  c->id = requests_add(req, s);
  if (!c->id) {
    napi_close_handle_scope(s->env, c->scope);
    fuse_reply_err(req, ENOMEM);
    return false;
  }
  call_number(c, (double)c->id);
  return true;
}

void call_number(struct js_call *c, double d) {
  c->argv[c->argc++] = js_number(c->s->env, d);
}

void call_string(struct js_call *c, const char *str) {
  napi_create_string_utf8(c->s->env, str, NAPI_AUTO_LENGTH, &c->argv[c->argc++]);
}

void call_bool(struct js_call *c, bool b) {
  c->argv[c->argc++] = js_boolean(c->s->env, b);
}

void call_bytes(struct js_call *c, const char *data, size_t size) {
  /* A copy: libfuse reuses its receive buffer for the next request. */
  napi_create_buffer_copy(c->s->env, size, data, NULL, &c->argv[c->argc++]);
}

/* Calls the handler. If it throws, the request (when still unanswered) gets
 * EIO: a bug in a handler must neither kill the daemon nor hang a reader. */
void call_end(struct js_call *c) {
  napi_env env = c->s->env;
  napi_status status = napi_call_function(env, js_undefined(env), c->fn, c->argc, c->argv, NULL);
  if (status != napi_ok) {
    js_report_exception(c->s);
    if (c->id) {
      fuse_req_t req = requests_take(c->id, NULL);
      if (req) fuse_reply_err(req, EIO);
    }
  }
  napi_close_handle_scope(env, c->scope);
}
