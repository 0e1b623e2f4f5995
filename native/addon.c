/*
 * The module: mount, unmount, setMtime, invalidate and the reply functions.
 *
 *   mount(mountpoint, options, config, handlers) -> session
 *     options   libfuse "-o" string, e.g. "fsname=forage,subtype=forage"
 *     config    { uid, gid, mtime (seconds), noOpendir, noOpen, fastOpen, debug }
 *     handlers  { lookup, forget, getattr, ..., onError, onClose }
 *   unmount(session, force)
 *   setMtime(session, seconds)
 *   startNextTable(session, spec), fillNextTable(session, spec, maxNodes),
 *   serveNextTable(session, numbers), dropNextTable(session): the read-only tree to answer
 *     without JS, copied in chunks and then served in one step (table-replies.c)
 *   releaseFreeMemory(): hands the C heap's free pages back to the kernel
 */
#include "forage_fuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static bool named_number(napi_env env, napi_value obj, const char *key, double *out) {
  napi_value v;
  napi_valuetype type;
  if (napi_get_named_property(env, obj, key, &v) != napi_ok) return false;
  napi_typeof(env, v, &type);
  if (type == napi_undefined) return true; /* keep the default */
  return js_double(env, v, out);
}

static bool named_bool(napi_env env, napi_value obj, const char *key, bool *out) {
  napi_value v;
  napi_valuetype type;
  if (napi_get_named_property(env, obj, key, &v) != napi_ok) return false;
  napi_typeof(env, v, &type);
  if (type == napi_undefined) return true;
  return js_bool(env, v, out);
}

static struct timespec timespec_of(double seconds) {
  struct timespec t = { .tv_sec = (time_t)seconds };
  t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
  return t;
}

struct mount_config {
  double uid, gid, mtime;
  bool no_opendir, no_open, fast_open, debug;
};

static bool read_config(napi_env env, napi_value obj, struct mount_config *c) {
  c->uid = getuid();
  c->gid = getgid();
  c->mtime = (double)time(NULL);
  c->no_opendir = true;
  c->no_open = false;
  c->fast_open = true;
  c->debug = false;
  return named_number(env, obj, "uid", &c->uid) && named_number(env, obj, "gid", &c->gid) &&
         named_number(env, obj, "mtime", &c->mtime) &&
         named_bool(env, obj, "noOpendir", &c->no_opendir) &&
         named_bool(env, obj, "noOpen", &c->no_open) &&
         named_bool(env, obj, "fastOpen", &c->fast_open) &&
         named_bool(env, obj, "debug", &c->debug);
}

/* The JS external's finalizer: the session memory goes when both JS and
 * the mount have let go of it. */
static void finalize_session(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  session_unref(data);
}

static napi_value js_mount(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  struct mount_config config;
  if (!js_args(env, info, 4, argv) || !read_config(env, argv[2], &config)) return NULL;
  char *mountpoint = js_string_dup(env, argv[0]);
  char *options = mountpoint ? js_string_dup(env, argv[1]) : NULL;
  if (!options) {
    free(mountpoint);
    return NULL;
  }
  struct session_config session_config = {
    .uid = (uid_t)config.uid,
    .gid = (gid_t)config.gid,
    .mtime = timespec_of(config.mtime),
    .no_opendir = config.no_opendir,
    .no_open = config.no_open,
    .fast_open = config.fast_open,
    .debug = config.debug,
  };
  char error[1024];
  forage_session *s =
      session_mount(env, mountpoint, options, &session_config, argv[3], error, sizeof error);
  free(mountpoint);
  free(options);
  if (!s) {
    size_t len = strlen(error);
    while (len > 0 && (error[len - 1] == '\n' || error[len - 1] == ' ')) error[--len] = '\0';
    napi_throw_error(env, "EFUSEMOUNT", error);
    return NULL;
  }
  napi_value external;
  napi_create_external(env, s, finalize_session, NULL, &external);
  return external;
}

/* unmount(session, force): starts teardown; onClose fires when done. */
static napi_value js_unmount(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  forage_session *s;
  bool force = false;
  if (!js_args(env, info, 2, argv) || !js_session(env, argv[0], &s) || !js_bool(env, argv[1], &force))
    return NULL;
  session_request_close(s, force);
  return js_undefined(env);
}

/* setMtime(session, seconds): the time every node reports from now on. */
static napi_value js_set_mtime(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  forage_session *s;
  double seconds;
  if (!js_args(env, info, 2, argv) || !js_session(env, argv[0], &s) ||
      !js_double(env, argv[1], &seconds))
    return NULL;
  struct timespec mtime = timespec_of(seconds);
  session_lock(s); /* the reader reads it for every attribute it sends */
  s->mtime = mtime;
  session_unlock(s);
  return js_undefined(env);
}

/* releaseFreeMemory(): glibc keeps freed memory for reuse; after a large
 * one-off build (the bytes a node table was copied from) that is tens of MB
 * of RSS the daemon will not need again. */
static napi_value js_release_free_memory(napi_env env, napi_callback_info info) {
  (void)info;
#ifdef __GLIBC__
  return js_boolean(env, malloc_trim(0) == 1);
#else
  return js_boolean(env, false); /* other C libraries: nothing to ask */
#endif
}

static void export_function(napi_env env, napi_value exports, const char *name, napi_callback fn) {
  napi_value value;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &value);
  napi_set_named_property(env, exports, name, value);
}

static void export_number(napi_env env, napi_value obj, const char *name, double n) {
  napi_set_named_property(env, obj, name, js_number(env, n));
}

/* The numbers JS needs to speak to us, so it never has to guess them. */
static napi_value make_constants(napi_env env) {
  napi_value c;
  napi_create_object(env, &c);
  export_number(env, c, "SET_ATTR_MODE", FUSE_SET_ATTR_MODE);
  export_number(env, c, "SET_ATTR_UID", FUSE_SET_ATTR_UID);
  export_number(env, c, "SET_ATTR_GID", FUSE_SET_ATTR_GID);
  export_number(env, c, "SET_ATTR_SIZE", FUSE_SET_ATTR_SIZE);
  export_number(env, c, "SET_ATTR_ATIME", FUSE_SET_ATTR_ATIME);
  export_number(env, c, "SET_ATTR_MTIME", FUSE_SET_ATTR_MTIME);
  export_number(env, c, "SET_ATTR_ATIME_NOW", FUSE_SET_ATTR_ATIME_NOW);
  export_number(env, c, "SET_ATTR_MTIME_NOW", FUSE_SET_ATTR_MTIME_NOW);
  export_number(env, c, "SET_ATTR_CTIME", FUSE_SET_ATTR_CTIME);
  export_number(env, c, "OPEN_KEEP_CACHE", OPEN_KEEP_CACHE);
  export_number(env, c, "OPEN_DIRECT_IO", OPEN_DIRECT_IO);
  export_number(env, c, "OPEN_NOFLUSH", OPEN_NOFLUSH);
  export_number(env, c, "OPEN_NONSEEKABLE", OPEN_NONSEEKABLE);
  export_number(env, c, "NODE_FORWARD", NODE_FORWARD);
  export_number(env, c, "NODE_UNLISTED", NODE_UNLISTED);
  return c;
}

static napi_value init(napi_env env, napi_value exports) {
  session_init_process(env);
  export_function(env, exports, "mount", js_mount);
  export_function(env, exports, "unmount", js_unmount);
  export_function(env, exports, "setMtime", js_set_mtime);
  export_function(env, exports, "invalidate", js_invalidate);
  export_function(env, exports, "startNextTable", js_start_next_table);
  export_function(env, exports, "fillNextTable", js_fill_next_table);
  export_function(env, exports, "serveNextTable", js_serve_next_table);
  export_function(env, exports, "dropNextTable", js_drop_next_table);
  export_function(env, exports, "releaseFreeMemory", js_release_free_memory);
  export_function(env, exports, "replyErr", js_reply_err);
  export_function(env, exports, "replyEntry", js_reply_entry);
  export_function(env, exports, "replyAttr", js_reply_attr);
  export_function(env, exports, "replyReadlink", js_reply_readlink);
  export_function(env, exports, "replyOpen", js_reply_open);
  export_function(env, exports, "replyBuf", js_reply_buf);
  export_function(env, exports, "replyWrite", js_reply_write);
  export_function(env, exports, "replyStatfs", js_reply_statfs);
  export_function(env, exports, "replyReaddir", js_reply_readdir);
  napi_set_named_property(env, exports, "constants", make_constants(env));
  napi_value version;
  napi_create_int32(env, fuse_version(), &version);
  napi_set_named_property(env, exports, "libfuseVersion", version);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
