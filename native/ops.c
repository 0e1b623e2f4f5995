/*
 * The low-level operations, their static table, and the one libfuse session
 * made over it (ops_new_session, which session.c mounts).
 *
 * A request about a node of the loaded node table is answered from it
 * (table-replies.c). Every other operation that needs the tree is handed to a
 * JS handler as (requestId, ...args) through js-calls.c; JS answers through
 * the reply* functions (replies.c), now or later. The few answers that need
 * no tree (opendir, releasedir, namespace changes) are given here, so they
 * never cost a trip into JS.
 *
 * These callbacks run inside fuse_session_process_buf, on the session's
 * reader thread (session.c), with the session lock held; none calls napi.
 * A call for JS is queued there (js-calls.c) and run on the JS thread.
 */
#include "forage_fuse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

/* ---- Operations answered by JS ---------------------------------------- */

/* Whether `s` is well-formed UTF-8: no overlong forms, surrogates or code
 * points past U+10FFFF. JS strings would decode anything else to U+FFFD, and
 * so merge names that differ in their bytes. */
static bool valid_utf8(const unsigned char *s) {
  while (*s) {
    unsigned char c = *s;
    size_t extra;
    uint32_t cp;
    if (c < 0x80) { s++; continue; }
    else if (c >= 0xC2 && c <= 0xDF) { extra = 1; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { extra = 2; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { extra = 3; cp = c & 0x07; }
    else return false;
    for (size_t i = 1; i <= extra; i++) {
      if ((s[i] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    s += extra + 1;
  }
  return true;
}

/* Every name is checked here, before the table or JS sees it (docs/afi.md,
 * "Names"): over FORAGE_NAME_MAX bytes, the limit statfs reports, is
 * ENAMETOOLONG (Linux refuses those itself; this keeps the law on any kernel);
 * bytes that are not UTF-8 name nothing in the tree, so ENOENT. */
static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
  if (strlen(name) > FORAGE_NAME_MAX) {
    fuse_reply_err(req, ENAMETOOLONG);
    return;
  }
  if (!valid_utf8((const unsigned char *)name)) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  if (table_lookup(fuse_req_userdata(req), req, parent, name)) return;
  struct js_call c;
  if (!call_begin(&c, req, OP_LOOKUP)) return;
  call_number(&c, (double)parent);
  call_string(&c, name);
  call_end(&c);
}

static void forget_one(forage_session *s, fuse_ino_t ino, uint64_t nlookup) {
  /* Table nodes live as long as their table: there is nothing to count. */
  if (table_holds(s, ino)) return;
  struct js_call c;
  if (!call_begin_notice(&c, s, OP_FORGET)) return;
  call_number(&c, (double)ino);
  call_number(&c, (double)nlookup);
  call_end(&c);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup) {
  forget_one(fuse_req_userdata(req), ino, nlookup);
  fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets) {
  forage_session *s = fuse_req_userdata(req);
  for (size_t i = 0; i < count; i++) forget_one(s, forgets[i].ino, forgets[i].nlookup);
  fuse_reply_none(req);
}

static double file_handle(const struct fuse_file_info *fi) {
  return fi ? (double)fi->fh : 0;
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  if (table_getattr(fuse_req_userdata(req), req, ino)) return;
  struct js_call c;
  if (!call_begin(&c, req, OP_GETATTR)) return;
  call_number(&c, (double)ino);
  call_number(&c, file_handle(fi));
  call_end(&c);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
                       struct fuse_file_info *fi) {
  struct js_call c;
  if (!call_begin(&c, req, OP_SETATTR)) return;
  call_number(&c, (double)ino);
  call_number(&c, to_set);
  call_number(&c, (double)attr->st_size);
  call_number(&c, file_handle(fi));
  call_end(&c);
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino) {
  if (table_readlink(fuse_req_userdata(req), req, ino)) return;
  struct js_call c;
  if (!call_begin(&c, req, OP_READLINK)) return;
  call_number(&c, (double)ino);
  call_end(&c);
}

static bool session_no_open(fuse_req_t req) {
  const forage_session *s = fuse_req_userdata(req);
  return s->no_open;
}

/* A plain file (read-only, no per-open state) opens without JS: the kernel
 * keeps its pages across opens and sends no flush; fh 0 marks such opens. */
static void open_plain(fuse_req_t req, struct fuse_file_info *fi) {
  if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC)) {
    fuse_reply_err(req, EROFS);
    return;
  }
  fi->fh = 0;
  fi->keep_cache = 1;
  fi->noflush = 1;
  fuse_reply_open(req, fi);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  forage_session *s = fuse_req_userdata(req);
  if (s->no_open) {
    fuse_reply_err(req, ENOSYS); /* the kernel stops sending open/release */
    return;
  }
  if (table_is_plain(s, ino) || (s->fast_open && plain_holds(s, ino))) {
    open_plain(req, fi);
    return;
  }
  struct js_call c;
  if (!call_begin(&c, req, OP_OPEN)) return;
  call_number(&c, (double)ino);
  call_number(&c, fi->flags);
  /* The opener's pid lets JS keep control-file requests apart per caller. */
  call_number(&c, (double)fuse_req_ctx(req)->pid);
  call_end(&c);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                    struct fuse_file_info *fi) {
  /* fh 0: opened by the addon or the kernel, so no JS state is attached. */
  if (file_handle(fi) == 0 && table_read(fuse_req_userdata(req), req, ino, size, off)) return;
  struct js_call c;
  if (!call_begin(&c, req, OP_READ)) return;
  call_number(&c, (double)ino);
  call_number(&c, (double)size);
  call_number(&c, (double)off);
  call_number(&c, file_handle(fi));
  call_end(&c);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
                     struct fuse_file_info *fi) {
  struct js_call c;
  if (!call_begin(&c, req, OP_WRITE)) return;
  call_number(&c, (double)ino);
  call_bytes(&c, buf, size);
  call_number(&c, (double)off);
  call_number(&c, file_handle(fi));
  call_end(&c);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  if (session_no_open(req)) {
    /* Nothing has per-open state: ENOSYS stops flushes on every close. */
    fuse_reply_err(req, ENOSYS);
    return;
  }
  if (fi->fh == 0) { /* opened without JS: nothing to flush */
    fuse_reply_err(req, 0);
    return;
  }
  struct js_call c;
  if (!call_begin(&c, req, OP_FLUSH)) return;
  call_number(&c, (double)ino);
  call_number(&c, file_handle(fi));
  call_end(&c);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  if (fi->fh == 0) { /* opened without JS: nothing to release */
    fuse_reply_err(req, 0);
    return;
  }
  struct js_call c;
  if (!call_begin(&c, req, OP_RELEASE)) return;
  call_number(&c, (double)ino);
  call_number(&c, file_handle(fi));
  call_end(&c);
}

static void readdir_common(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, bool plus) {
  if (table_readdir(fuse_req_userdata(req), req, ino, size, off, plus)) return;
  struct js_call c;
  if (!call_begin(&c, req, OP_READDIR)) return;
  call_number(&c, (double)ino);
  call_number(&c, (double)size);
  call_number(&c, (double)off);
  call_bool(&c, plus);
  call_end(&c);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                       struct fuse_file_info *fi) {
  (void)fi;
  readdir_common(req, ino, size, off, false);
}

static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                           struct fuse_file_info *fi) {
  (void)fi;
  readdir_common(req, ino, size, off, true);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino) {
  forage_session *s = fuse_req_userdata(req);
  if (!s->handlers[OP_STATFS]) {
    /* A sensible answer without JS: no blocks, no free space, long names. */
    struct statvfs st = { .f_bsize = 4096, .f_frsize = 4096, .f_namemax = FORAGE_NAME_MAX };
    fuse_reply_statfs(req, &st);
    return;
  }
  struct js_call c;
  if (!call_begin(&c, req, OP_STATFS)) return;
  call_number(&c, (double)ino);
  call_end(&c);
}

/* ---- Operations answered here ------------------------------------------ */

/* Directories carry no per-open state, so opendir never needs JS. Where the
 * kernel offers it, ENOSYS makes it stop sending opendir/releasedir at all
 * and cache every directory's entries (FOPEN_KEEP_CACHE | FOPEN_CACHE_DIR is
 * its default then). Otherwise ask for the same caching explicitly. */
static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  forage_session *s = fuse_req_userdata(req);
  (void)ino;
  if (s->no_opendir) {
    fuse_reply_err(req, ENOSYS);
    return;
  }
  fi->fh = 0;
  fi->cache_readdir = 1;
  fi->keep_cache = 1; /* for directories too: keep the readdir cache across opens */
  fuse_reply_open(req, fi);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  (void)ino;
  (void)fi;
  fuse_reply_err(req, 0);
}

/* The tree is read-only: every namespace change is EROFS. Without these the
 * kernel would report ENOSYS ("Function not implemented"), which misleads. */
static void reply_read_only(fuse_req_t req) {
  fuse_reply_err(req, EROFS);
}

static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
                     dev_t rdev) {
  (void)parent, (void)name, (void)mode, (void)rdev;
  reply_read_only(req);
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode) {
  (void)parent, (void)name, (void)mode;
  reply_read_only(req);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name) {
  (void)parent, (void)name;
  reply_read_only(req);
}

static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name) {
  (void)link, (void)parent, (void)name;
  reply_read_only(req);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
                      const char *newname, unsigned int flags) {
  (void)parent, (void)name, (void)newparent, (void)newname, (void)flags;
  reply_read_only(req);
}

static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname) {
  (void)ino, (void)newparent, (void)newname;
  reply_read_only(req);
}

static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
                      struct fuse_file_info *fi) {
  (void)parent, (void)name, (void)mode, (void)fi;
  reply_read_only(req);
}

static void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name, const char *value,
                        size_t size, int flags) {
  (void)ino, (void)name, (void)value, (void)size, (void)flags;
  reply_read_only(req);
}

static void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name) {
  (void)ino, (void)name;
  reply_read_only(req);
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset, off_t length,
                         struct fuse_file_info *fi) {
  (void)ino, (void)mode, (void)offset, (void)length, (void)fi;
  reply_read_only(req);
}

static void set_want(struct fuse_conn_info *conn, unsigned cap, bool on) {
  if (on && (conn->capable & cap)) conn->want |= cap;
  if (!on) conn->want &= ~cap;
}

/* Negotiates kernel features. A revision is immutable and reloads invalidate
 * explicitly, so the kernel may cache everything for as long as it likes. */
static void op_init(void *userdata, struct fuse_conn_info *conn) {
  forage_session *s = userdata;
  /* readdirplus always (not "auto"): attributes cost nothing extra here and
   * save a lookup per entry for find, ls -l and cat of every file. */
  set_want(conn, FUSE_CAP_READDIRPLUS, true);
  set_want(conn, FUSE_CAP_READDIRPLUS_AUTO, false);
  /* No implicit page-cache invalidation on attribute changes: we call
   * notify_inval_inode ourselves when a new revision is swapped in. */
  set_want(conn, FUSE_CAP_AUTO_INVAL_DATA, false);
  set_want(conn, FUSE_CAP_EXPLICIT_INVAL_DATA, true);
  set_want(conn, FUSE_CAP_CACHE_SYMLINKS, true);
  set_want(conn, FUSE_CAP_WRITEBACK_CACHE, false);
  /* Replies come from JS memory; splice only pays off when moving data
   * between file descriptors, and would add a pipe per request. */
  set_want(conn, FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE, false);
  s->no_opendir = s->want_no_opendir && (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT);
  set_want(conn, FUSE_CAP_NO_OPENDIR_SUPPORT, s->no_opendir);
  s->no_open = s->want_no_open && (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT);
  set_want(conn, FUSE_CAP_NO_OPEN_SUPPORT, s->no_open);
}

static const struct fuse_lowlevel_ops ops = {
  .init = op_init,
  .lookup = op_lookup,
  .forget = op_forget,
  .forget_multi = op_forget_multi,
  .getattr = op_getattr,
  .setattr = op_setattr,
  .readlink = op_readlink,
  .mknod = op_mknod,
  .mkdir = op_mkdir,
  .unlink = op_unlink,
  .rmdir = op_unlink,
  .symlink = op_symlink,
  .rename = op_rename,
  .link = op_link,
  .open = op_open,
  .read = op_read,
  .write = op_write,
  .flush = op_flush,
  .release = op_release,
  .opendir = op_opendir,
  .readdir = op_readdir,
  .readdirplus = op_readdirplus,
  .releasedir = op_releasedir,
  .statfs = op_statfs,
  .setxattr = op_setxattr,
  .removexattr = op_removexattr,
  .create = op_create,
  .fallocate = op_fallocate,
};

/* The libfuse session of one mount, over the table above; NULL on failure
 * (libfuse logs why). */
struct fuse_session *ops_new_session(forage_session *s, const char *options, bool debug) {
  char *argv[] = { "forage", "-o", (char *)options, debug ? "-d" : NULL, NULL };
  struct fuse_args args = FUSE_ARGS_INIT(debug ? 4 : 3, argv);
  struct fuse_session *se = fuse_session_new(&args, &ops, sizeof ops, s);
  fuse_opt_free_args(&args);
  return se;
}
