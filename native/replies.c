/*
 * The reply functions JS calls to answer a request, by its id.
 *
 * Each returns true when the answer reached the kernel and false when the
 * request was already answered, belongs to a session that is gone, or the
 * kernel refused it (for instance the caller was interrupted). JS uses this
 * to count lookups exactly: an entry only counts if the kernel got it.
 *
 * Arguments are read before the request is taken, and when they are wrong
 * the request is answered with EIO before the TypeError is thrown: a bad
 * reply must not leave a reader blocked forever.
 *
 * They run on the JS thread while the reader thread serves the node table;
 * libfuse's replies are safe from any thread. Only the plain-file marks are
 * shared with the reader, so those are set under the session lock.
 */
#include "forage_fuse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NAME_BUFFER (FORAGE_NAME_MAX + 1) /* a name and its NUL */

/* The request id is always argument 0. */
static bool request_id(napi_env env, napi_value v, int64_t *id) {
  return js_int64(env, v, id);
}

static napi_value fail_request(napi_env env, int64_t id) {
  (void)env;
  fuse_req_t req = requests_take(id, NULL);
  if (req) fuse_reply_err(req, EIO);
  return NULL; /* a TypeError is pending */
}

static napi_value sent(napi_env env, int res) {
  return js_boolean(env, res == 0);
}

/* replyErr(id, errno): 0 means success for ops answered with no data. */
napi_value js_reply_err(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  int64_t id, err;
  if (!js_args(env, info, 2, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!js_int64(env, argv[1], &err)) return fail_request(env, id);
  fuse_req_t req = requests_take(id, NULL);
  if (!req) return js_boolean(env, false);
  return sent(env, fuse_reply_err(req, (int)err));
}

/* plain_note_mode on the JS thread: the reader reads the marks. */
static void note_mode(forage_session *s, uint64_t ino, uint32_t mode) {
  session_lock(s);
  plain_note_mode(s, ino, mode);
  session_unlock(s);
}

/* The node attributes every attr-carrying reply takes: ino, mode, size. */
struct node_attr {
  int64_t ino;
  int64_t mode;
  double size;
};

static bool read_node_attr(napi_env env, const napi_value *argv, struct node_attr *a) {
  return js_int64(env, argv[0], &a->ino) && js_int64(env, argv[1], &a->mode) &&
         js_double(env, argv[2], &a->size);
}

/* replyEntry(id, ino, mode, size, entryTimeout, attrTimeout). ino 0 is a
 * negative entry: the kernel caches "no such name" for entryTimeout. */
napi_value js_reply_entry(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  int64_t id;
  struct node_attr a;
  double entry_timeout, attr_timeout;
  if (!js_args(env, info, 6, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!read_node_attr(env, argv + 1, &a) || !js_double(env, argv[4], &entry_timeout) ||
      !js_double(env, argv[5], &attr_timeout))
    return fail_request(env, id);
  forage_session *s;
  fuse_req_t req = requests_take(id, &s);
  if (!req) return js_boolean(env, false);
  struct fuse_entry_param e = {
    .ino = (fuse_ino_t)a.ino,
    .generation = 0, /* inode numbers are never reused within a session */
    .entry_timeout = entry_timeout,
    .attr_timeout = attr_timeout,
  };
  attr_fill_stat(s, &e.attr, e.ino, (uint32_t)a.mode, a.size);
  note_mode(s, e.ino, (uint32_t)a.mode);
  return sent(env, fuse_reply_entry(req, &e));
}

/* replyAttr(id, ino, mode, size, attrTimeout) */
napi_value js_reply_attr(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  int64_t id;
  struct node_attr a;
  double timeout;
  if (!js_args(env, info, 5, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!read_node_attr(env, argv + 1, &a) || !js_double(env, argv[4], &timeout))
    return fail_request(env, id);
  forage_session *s;
  fuse_req_t req = requests_take(id, &s);
  if (!req) return js_boolean(env, false);
  struct stat st;
  attr_fill_stat(s, &st, (uint64_t)a.ino, (uint32_t)a.mode, a.size);
  note_mode(s, (uint64_t)a.ino, (uint32_t)a.mode);
  return sent(env, fuse_reply_attr(req, &st, timeout));
}

/* replyReadlink(id, target) */
napi_value js_reply_readlink(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  int64_t id;
  if (!js_args(env, info, 2, argv) || !request_id(env, argv[0], &id)) return NULL;
  char *target = js_string_dup(env, argv[1]);
  if (!target) return fail_request(env, id);
  fuse_req_t req = requests_take(id, NULL);
  int res = req ? fuse_reply_readlink(req, target) : -1;
  free(target);
  return js_boolean(env, req && res == 0);
}

/* replyOpen(id, fh, flags): flags are enum forage_open_flag bits. */
napi_value js_reply_open(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  int64_t id, fh, flags;
  if (!js_args(env, info, 3, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!js_int64(env, argv[1], &fh) || !js_int64(env, argv[2], &flags))
    return fail_request(env, id);
  fuse_req_t req = requests_take(id, NULL);
  if (!req) return js_boolean(env, false);
  struct fuse_file_info fi;
  memset(&fi, 0, sizeof fi);
  fi.fh = (uint64_t)fh;
  fi.keep_cache = (flags & OPEN_KEEP_CACHE) != 0;
  fi.direct_io = (flags & OPEN_DIRECT_IO) != 0;
  fi.noflush = (flags & OPEN_NOFLUSH) != 0;
  fi.nonseekable = (flags & OPEN_NONSEEKABLE) != 0;
  return sent(env, fuse_reply_open(req, &fi));
}

/* replyBuf(id, bytes: Uint8Array). The bytes are copied to the kernel before
 * this returns, so JS may reuse them at once. */
napi_value js_reply_buf(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  int64_t id;
  void *data = NULL;
  size_t length = 0;
  bool is_typed = false;
  if (!js_args(env, info, 2, argv) || !request_id(env, argv[0], &id)) return NULL;
  napi_is_typedarray(env, argv[1], &is_typed);
  if (is_typed) {
    napi_typedarray_type type;
    napi_get_typedarray_info(env, argv[1], &type, &length, &data, NULL, NULL);
    if (type != napi_uint8_array) is_typed = false;
  }
  if (!is_typed) {
    napi_throw_type_error(env, NULL, "forage_fuse: replyBuf expects a Uint8Array");
    return fail_request(env, id);
  }
  fuse_req_t req = requests_take(id, NULL);
  if (!req) return js_boolean(env, false);
  return sent(env, fuse_reply_buf(req, data, length));
}

/* replyWrite(id, count) */
napi_value js_reply_write(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  int64_t id, count = 0;
  if (!js_args(env, info, 2, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!js_int64(env, argv[1], &count)) return fail_request(env, id);
  if (count < 0) {
    napi_throw_range_error(env, NULL, "forage_fuse: negative write count");
    return fail_request(env, id);
  }
  fuse_req_t req = requests_take(id, NULL);
  if (!req) return js_boolean(env, false);
  return sent(env, fuse_reply_write(req, (size_t)count));
}

/* replyStatfs(id, files): a read-only tree has no blocks and no free space;
 * the file count is the one number worth showing. */
napi_value js_reply_statfs(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  int64_t id, files;
  if (!js_args(env, info, 2, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!js_int64(env, argv[1], &files)) return fail_request(env, id);
  fuse_req_t req = requests_take(id, NULL);
  if (!req) return js_boolean(env, false);
  struct statvfs st = { .f_bsize = 4096, .f_frsize = 4096, .f_namemax = FORAGE_NAME_MAX };
  st.f_files = files > 0 ? (fsfilcnt_t)files : 0;
  return sent(env, fuse_reply_statfs(req, &st));
}

/* ---- readdir ------------------------------------------------------------ */

/* The arrays of one page of directory entries, in list order. */
struct dir_page {
  napi_value names, inos, modes, sizes, attr_timeouts;
  uint32_t count;
  int64_t first_offset;
  bool plus;
  double entry_timeout;
};

static bool read_dir_page(napi_env env, const napi_value *argv, struct dir_page *p) {
  bool is_array = false;
  p->names = argv[3];
  p->inos = argv[4];
  p->modes = argv[5];
  p->sizes = argv[6];
  p->attr_timeouts = argv[8];
  napi_is_array(env, p->names, &is_array);
  if (!is_array) {
    napi_throw_type_error(env, NULL, "forage_fuse: replyReaddir expects arrays");
    return false;
  }
  napi_get_array_length(env, p->names, &p->count);
  return js_int64(env, argv[1], &p->first_offset) && js_bool(env, argv[2], &p->plus) &&
         js_double(env, argv[7], &p->entry_timeout);
}

static bool element_int64(napi_env env, napi_value array, uint32_t i, int64_t *out) {
  napi_value v;
  return napi_get_element(env, array, i, &v) == napi_ok && js_int64(env, v, out);
}

static bool element_double(napi_env env, napi_value array, uint32_t i, double *out) {
  napi_value v;
  return napi_get_element(env, array, i, &v) == napi_ok && js_double(env, v, out);
}

/* Appends entry i to buf. Returns its size, 0 if it does not fit, -1 on a
 * bad argument. An entry's offset is that of the next one, so the kernel
 * resumes exactly after the last entry it kept. */
static long add_entry(napi_env env, fuse_req_t req, forage_session *s, const struct dir_page *p,
                      uint32_t i, char *buf, size_t remaining) {
  char name[NAME_BUFFER];
  size_t name_len;
  int64_t ino, mode;
  double size, attr_timeout = 0;
  napi_value v;
  if (napi_get_element(env, p->names, i, &v) != napi_ok ||
      !js_string_into(env, v, name, sizeof name, &name_len) ||
      !element_int64(env, p->inos, i, &ino) || !element_int64(env, p->modes, i, &mode) ||
      !element_double(env, p->sizes, i, &size) ||
      (p->plus && !element_double(env, p->attr_timeouts, i, &attr_timeout)))
    return -1;
  off_t next = (off_t)(p->first_offset + i + 1);
  /* A readdirplus entry marks plain files, which the reader reads; a plain entry changes nothing. */
  if (p->plus) session_lock(s);
  size_t used = attr_add_direntry(s, req, buf, remaining, name, (uint64_t)ino, (uint32_t)mode,
                                  size, p->plus, p->entry_timeout, attr_timeout, next);
  if (p->plus) session_unlock(s);
  return used > remaining ? 0 : (long)used;
}

/* replyReaddir(id, firstOffset, plus, names, inos, modes, sizes,
 *              entryTimeout, attrTimeouts, size)
 * The arrays describe one page, entry i having offset firstOffset + i.
 * Packs as many entries as fit in size bytes and returns how many it sent
 * (-1 if the request was gone). With plus, each sent entry other than "."
 * and ".." counts as one lookup, and JS must count it. */
napi_value js_reply_readdir(napi_env env, napi_callback_info info) {
  napi_value argv[10];
  int64_t id, size;
  struct dir_page p;
  if (!js_args(env, info, 10, argv) || !request_id(env, argv[0], &id)) return NULL;
  if (!read_dir_page(env, argv, &p) || !js_int64(env, argv[9], &size) || size <= 0)
    return fail_request(env, id);
  forage_session *s;
  fuse_req_t req = requests_take(id, &s);
  if (!req) return js_number(env, -1);
  char *buf = malloc((size_t)size);
  if (!buf) {
    fuse_reply_err(req, ENOMEM);
    return js_number(env, -1);
  }
  size_t used = 0;
  uint32_t i = 0;
  for (; i < p.count; i++) {
    long n = add_entry(env, req, s, &p, i, buf + used, (size_t)size - used);
    if (n < 0) {
      free(buf);
      fuse_reply_err(req, EIO);
      return NULL; /* the TypeError is pending */
    }
    if (n == 0) break;
    used += (size_t)n;
  }
  int res = fuse_reply_buf(req, buf, used);
  free(buf);
  return js_number(env, res == 0 ? (double)i : -1.0);
}
