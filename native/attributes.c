/*
 * The attributes every reply carries: a node is its inode number, mode and
 * size; uid, gid and times are the session's, the same for every node
 * (docs/native.md, "Kernel caching").
 */
#include "forage_fuse.h"

#include <string.h>

void attr_fill_stat(const forage_session *s, struct stat *st, uint64_t ino, uint32_t mode,
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
size_t attr_add_direntry(forage_session *s, fuse_req_t req, char *buf, size_t remaining,
                         const char *name, uint64_t ino, uint32_t mode, double size, bool plus,
                         double entry_timeout, double attr_timeout, off_t next) {
  if (!plus) {
    struct stat st;
    attr_fill_stat(s, &st, ino, mode, size);
    return fuse_add_direntry(req, buf, remaining, name, &st, next);
  }
  struct fuse_entry_param e = {
    .ino = (fuse_ino_t)ino,
    .entry_timeout = entry_timeout,
    .attr_timeout = attr_timeout,
  };
  attr_fill_stat(s, &e.attr, e.ino, mode, size);
  size_t used = fuse_add_direntry_plus(req, buf, remaining, name, &e, next);
  if (used <= remaining) plain_note_mode(s, e.ino, mode);
  return used;
}
