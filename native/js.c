/*
 * Helpers for reading and making JS values. Each reader throws a TypeError
 * and returns false (or NULL) when the value has the wrong type, so callers
 * can simply return.
 */
#include "forage_fuse.h"

#include <stdlib.h>

bool js_args(napi_env env, napi_callback_info info, size_t n, napi_value *argv) {
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return false;
  if (argc < n) {
    napi_throw_type_error(env, NULL, "forage_fuse: too few arguments");
    return false;
  }
  return true;
}

bool js_int64(napi_env env, napi_value v, int64_t *out) {
  if (napi_get_value_int64(env, v, out) == napi_ok) return true;
  napi_throw_type_error(env, NULL, "forage_fuse: expected a number");
  return false;
}

bool js_double(napi_env env, napi_value v, double *out) {
  if (napi_get_value_double(env, v, out) == napi_ok) return true;
  napi_throw_type_error(env, NULL, "forage_fuse: expected a number");
  return false;
}

bool js_bool(napi_env env, napi_value v, bool *out) {
  if (napi_get_value_bool(env, v, out) == napi_ok) return true;
  napi_throw_type_error(env, NULL, "forage_fuse: expected a boolean");
  return false;
}

char *js_string_dup(napi_env env, napi_value v) {
  size_t len;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "forage_fuse: expected a string");
    return NULL;
  }
  char *s = malloc(len + 1);
  if (!s) {
    napi_throw_error(env, NULL, "forage_fuse: out of memory");
    return NULL;
  }
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  return s;
}

/* Copies a string into buf; fails (with a TypeError) if it would not fit. */
bool js_string_into(napi_env env, napi_value v, char *buf, size_t size, size_t *len) {
  size_t needed;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &needed) != napi_ok) {
    napi_throw_type_error(env, NULL, "forage_fuse: expected a string");
    return false;
  }
  if (needed + 1 > size) {
    napi_throw_range_error(env, NULL, "forage_fuse: string too long");
    return false;
  }
  napi_get_value_string_utf8(env, v, buf, size, len);
  return true;
}

bool js_session(napi_env env, napi_value v, forage_session **out) {
  void *data = NULL;
  if (napi_get_value_external(env, v, &data) != napi_ok || !data) {
    napi_throw_type_error(env, NULL, "forage_fuse: expected a session");
    return false;
  }
  *out = data;
  return true;
}

napi_value js_boolean(napi_env env, bool b) {
  napi_value v;
  napi_get_boolean(env, b, &v);
  return v;
}

napi_value js_number(napi_env env, double d) {
  napi_value v;
  napi_create_double(env, d, &v);
  return v;
}

napi_value js_undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}
