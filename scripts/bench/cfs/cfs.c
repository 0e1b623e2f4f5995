/*
 * cfs: a plain C, in-memory, read-only libfuse3 filesystem.
 *
 * It is the speed baseline for Forage's mount, "the limit for a FUSE
 * daemon": it loads a directory tree (for instance one written by
 * `forage export`) into memory at start, then serves it with the same
 * kernel cache settings as Forage's mount (src/fuse, native/):
 *   - entry and attribute timeouts of one day,
 *   - keep_cache and noflush on open,
 *   - no-opendir where the kernel offers it (else cache_readdir on opendir),
 *   - readdirplus always, symlink caching, no implicit data invalidation.
 *
 *   cfs <source-dir> <mountpoint> [--no-open] [-f] [-s] [-d] [-o option,...]
 *
 * --no-open answers open with ENOSYS where the kernel allows it, so the
 * kernel opens files itself, as `forage mount -o ro` has it do.
 *
 * -s serves from one thread, like Forage's daemon; the default is libfuse's
 * multi-threaded loop. Regular files, directories and symlinks are loaded;
 * anything else is skipped. Writes of any kind get EROFS.
 */
#define FUSE_USE_VERSION 35
#define _GNU_SOURCE

#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT 86400.0

struct node {
  char *name;
  mode_t mode;
  off_t size;
  char *data; /* file bytes, or symlink target */
  fuse_ino_t parent;
  fuse_ino_t *children; /* sorted by name (strcmp), for lookup by bsearch */
  size_t child_count;
};

/* nodes[ino - 1]; the root is inode 1 (FUSE_ROOT_ID). */
static struct node *nodes;
static size_t node_count, node_capacity;
static size_t loaded_bytes;
static struct timespec load_time;
static uid_t owner_uid;
static gid_t owner_gid;
static int no_opendir;
static int want_no_open, no_open;

/* ---- Loading ------------------------------------------------------------ */

static struct node *node_of(fuse_ino_t ino) {
  return ino >= 1 && ino <= node_count ? &nodes[ino - 1] : NULL;
}

static fuse_ino_t add_node(const char *name, mode_t mode, fuse_ino_t parent) {
  if (node_count == node_capacity) {
    node_capacity = node_capacity ? node_capacity * 2 : 1024;
    nodes = realloc(nodes, node_capacity * sizeof *nodes);
    if (!nodes) {
      perror("cfs: realloc");
      exit(1);
    }
  }
  nodes[node_count] = (struct node){ .name = strdup(name), .mode = mode, .parent = parent };
  return ++node_count;
}

static char *read_all(int dirfd, const char *name, off_t size) {
  char *data = malloc(size > 0 ? (size_t)size : 1);
  int fd = openat(dirfd, name, O_RDONLY);
  if (!data || fd < 0) {
    perror("cfs: open");
    exit(1);
  }
  off_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, data + done, (size_t)(size - done));
    if (n <= 0) break;
    done += n;
  }
  close(fd);
  loaded_bytes += (size_t)done;
  return data;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_dots(const struct dirent *d) {
  return strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0;
}

static void load_dir(fuse_ino_t dir_ino, int dirfd, const char *path);

/* Adds one directory entry as a child of dir_ino; returns its inode or 0. */
static fuse_ino_t load_entry(fuse_ino_t dir_ino, int dirfd, const char *path, const char *name) {
  struct stat st;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  fuse_ino_t ino;
  if (S_ISDIR(st.st_mode)) {
    ino = add_node(name, S_IFDIR | 0555, dir_ino);
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) load_dir(ino, fd, path);
  } else if (S_ISREG(st.st_mode)) {
    char *data = read_all(dirfd, name, st.st_size);
    ino = add_node(name, S_IFREG | 0444, dir_ino);
    nodes[ino - 1].data = data;
    nodes[ino - 1].size = st.st_size;
  } else if (S_ISLNK(st.st_mode)) {
    char target[4096];
    ssize_t n = readlinkat(dirfd, name, target, sizeof target - 1);
    if (n < 0) return 0;
    target[n] = '\0';
    ino = add_node(name, S_IFLNK | 0777, dir_ino);
    nodes[ino - 1].data = strdup(target);
    nodes[ino - 1].size = n;
  } else {
    return 0;
  }
  return ino;
}

/* Loads a directory's entries (sorted by name) and recurses; closes dirfd. */
static void load_dir(fuse_ino_t dir_ino, int dirfd, const char *path) {
  struct dirent **entries;
  /* scandir needs a path: use /proc/self/fd so symlinked or moved dirs stay right. */
  char fd_path[64];
  snprintf(fd_path, sizeof fd_path, "/proc/self/fd/%d", dirfd);
  int count = scandir(fd_path, &entries, skip_dots, by_name);
  if (count < 0) {
    fprintf(stderr, "cfs: cannot list %s: %s\n", path, strerror(errno));
    close(dirfd);
    return;
  }
  fuse_ino_t *children = calloc((size_t)count + 1, sizeof *children);
  size_t child_count = 0;
  for (int i = 0; i < count; i++) {
    fuse_ino_t child = load_entry(dir_ino, dirfd, path, entries[i]->d_name);
    if (child) children[child_count++] = child;
    free(entries[i]);
  }
  free(entries);
  close(dirfd);
  nodes[dir_ino - 1].children = children;
  nodes[dir_ino - 1].child_count = child_count;
}

/* ---- Attributes --------------------------------------------------------- */

static void fill_stat(fuse_ino_t ino, struct stat *st) {
  const struct node *n = node_of(ino);
  memset(st, 0, sizeof *st);
  st->st_ino = ino;
  st->st_mode = n->mode;
  st->st_nlink = 1;
  st->st_uid = owner_uid;
  st->st_gid = owner_gid;
  st->st_size = S_ISDIR(n->mode) ? 0 : n->size;
  st->st_blksize = 4096;
  st->st_blocks = (st->st_size + 511) / 512;
  st->st_atim = st->st_mtim = st->st_ctim = load_time;
}

static void fill_entry(fuse_ino_t ino, struct fuse_entry_param *e) {
  memset(e, 0, sizeof *e);
  e->ino = ino;
  e->entry_timeout = TIMEOUT;
  e->attr_timeout = TIMEOUT;
  fill_stat(ino, &e->attr);
}

/* ---- Operations --------------------------------------------------------- */

static void cfs_init(void *userdata, struct fuse_conn_info *conn) {
  (void)userdata;
  if (conn->capable & FUSE_CAP_READDIRPLUS) conn->want |= FUSE_CAP_READDIRPLUS;
  conn->want &= ~(unsigned)(FUSE_CAP_READDIRPLUS_AUTO | FUSE_CAP_AUTO_INVAL_DATA | FUSE_CAP_WRITEBACK_CACHE);
  if (conn->capable & FUSE_CAP_CACHE_SYMLINKS) conn->want |= FUSE_CAP_CACHE_SYMLINKS;
  no_opendir = (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT) != 0;
  if (no_opendir) conn->want |= FUSE_CAP_NO_OPENDIR_SUPPORT;
  no_open = want_no_open && (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT) != 0;
  if (no_open) conn->want |= FUSE_CAP_NO_OPEN_SUPPORT;
}

static int compare_child(const void *key, const void *element) {
  return strcmp(key, node_of(*(const fuse_ino_t *)element)->name);
}

static void cfs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name) {
  const struct node *dir = node_of(parent);
  if (!dir || !S_ISDIR(dir->mode)) {
    fuse_reply_err(req, ENOTDIR);
    return;
  }
  const fuse_ino_t *found = bsearch(name, dir->children, dir->child_count, sizeof *found, compare_child);
  if (!found) {
    struct fuse_entry_param negative = { .ino = 0, .entry_timeout = TIMEOUT };
    fuse_reply_entry(req, &negative);
    return;
  }
  struct fuse_entry_param e;
  fill_entry(*found, &e);
  fuse_reply_entry(req, &e);
}

static void cfs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup) {
  (void)ino, (void)nlookup; /* nodes live as long as the process */
  fuse_reply_none(req);
}

static void cfs_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets) {
  (void)count, (void)forgets;
  fuse_reply_none(req);
}

static void cfs_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  (void)fi;
  if (!node_of(ino)) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  struct stat st;
  fill_stat(ino, &st);
  fuse_reply_attr(req, &st, TIMEOUT);
}

static void cfs_readlink(fuse_req_t req, fuse_ino_t ino) {
  const struct node *n = node_of(ino);
  if (!n || !S_ISLNK(n->mode)) fuse_reply_err(req, EINVAL);
  else fuse_reply_readlink(req, n->data);
}

static void cfs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  if (no_open) {
    fuse_reply_err(req, ENOSYS); /* the kernel stops sending open/release */
    return;
  }
  const struct node *n = node_of(ino);
  if (!n) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  if ((fi->flags & O_ACCMODE) != O_RDONLY || (fi->flags & O_TRUNC)) {
    fuse_reply_err(req, EROFS);
    return;
  }
  fi->keep_cache = 1;
  fi->noflush = 1;
  fuse_reply_open(req, fi);
}

static void cfs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)fi;
  const struct node *n = node_of(ino);
  if (!n || off >= n->size) {
    fuse_reply_buf(req, NULL, 0);
    return;
  }
  size_t available = (size_t)(n->size - off);
  fuse_reply_buf(req, n->data + off, size < available ? size : available);
}

static void cfs_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  (void)ino;
  if (no_opendir) {
    fuse_reply_err(req, ENOSYS); /* the kernel stops asking and caches directories */
    return;
  }
  fi->cache_readdir = 1;
  fi->keep_cache = 1;
  fuse_reply_open(req, fi);
}

static void cfs_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi) {
  (void)ino, (void)fi;
  fuse_reply_err(req, 0);
}

/* Entry i of a directory: 0 is ".", 1 is "..", then the children. */
static size_t add_dir_entry(fuse_req_t req, const struct node *dir, fuse_ino_t dir_ino, size_t i,
                            int plus, char *buf, size_t remaining) {
  fuse_ino_t ino = i == 0 ? dir_ino : i == 1 ? dir->parent : dir->children[i - 2];
  const char *name = i == 0 ? "." : i == 1 ? ".." : node_of(ino)->name;
  struct fuse_entry_param e;
  fill_entry(ino, &e);
  if (!plus) return fuse_add_direntry(req, buf, remaining, name, &e.attr, (off_t)i + 1);
  return fuse_add_direntry_plus(req, buf, remaining, name, &e, (off_t)i + 1);
}

static void readdir_common(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, int plus) {
  const struct node *dir = node_of(ino);
  if (!dir || !S_ISDIR(dir->mode)) {
    fuse_reply_err(req, ENOTDIR);
    return;
  }
  char *buf = malloc(size);
  if (!buf) {
    fuse_reply_err(req, ENOMEM);
    return;
  }
  size_t used = 0;
  for (size_t i = (size_t)off; i < dir->child_count + 2; i++) {
    size_t n = add_dir_entry(req, dir, ino, i, plus, buf + used, size - used);
    if (n > size - used) break;
    used += n;
  }
  fuse_reply_buf(req, buf, used);
  free(buf);
}

static void cfs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi) {
  (void)fi;
  readdir_common(req, ino, size, off, 0);
}

static void cfs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                            struct fuse_file_info *fi) {
  (void)fi;
  readdir_common(req, ino, size, off, 1);
}

static void cfs_statfs(fuse_req_t req, fuse_ino_t ino) {
  (void)ino;
  struct statvfs st = { .f_bsize = 4096, .f_frsize = 4096, .f_namemax = 255, .f_files = node_count };
  fuse_reply_statfs(req, &st);
}

static void cfs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set, struct fuse_file_info *fi) {
  (void)ino, (void)attr, (void)to_set, (void)fi;
  fuse_reply_err(req, EROFS);
}

static void cfs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode) {
  (void)parent, (void)name, (void)mode;
  fuse_reply_err(req, EROFS);
}

static void cfs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev) {
  (void)parent, (void)name, (void)mode, (void)rdev;
  fuse_reply_err(req, EROFS);
}

static void cfs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name) {
  (void)parent, (void)name;
  fuse_reply_err(req, EROFS);
}

static void cfs_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
                       struct fuse_file_info *fi) {
  (void)parent, (void)name, (void)mode, (void)fi;
  fuse_reply_err(req, EROFS);
}

static const struct fuse_lowlevel_ops cfs_ops = {
  .init = cfs_init,
  .lookup = cfs_lookup,
  .forget = cfs_forget,
  .forget_multi = cfs_forget_multi,
  .getattr = cfs_getattr,
  .setattr = cfs_setattr,
  .readlink = cfs_readlink,
  .mknod = cfs_mknod,
  .mkdir = cfs_mkdir,
  .unlink = cfs_unlink,
  .rmdir = cfs_unlink,
  .create = cfs_create,
  .open = cfs_open,
  .read = cfs_read,
  .opendir = cfs_opendir,
  .readdir = cfs_readdir,
  .readdirplus = cfs_readdirplus,
  .releasedir = cfs_releasedir,
  .statfs = cfs_statfs,
};

/* ---- Main --------------------------------------------------------------- */

static void load_tree(const char *source) {
  int fd = open(source, O_RDONLY | O_DIRECTORY);
  if (fd < 0) {
    fprintf(stderr, "cfs: cannot open %s: %s\n", source, strerror(errno));
    exit(1);
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  clock_gettime(CLOCK_REALTIME, &load_time);
  owner_uid = getuid();
  owner_gid = getgid();
  fuse_ino_t root = add_node("", S_IFDIR | 0555, 1);
  load_dir(root, fd, source);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ms = (double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6;
  fprintf(stderr, "cfs: loaded %zu nodes, %zu bytes from %s in %.1f ms\n", node_count, loaded_bytes, source, ms);
}

static int serve(struct fuse_args *args) {
  struct fuse_cmdline_opts opts;
  if (fuse_parse_cmdline(args, &opts) != 0) return 1;
  if (opts.show_help || !opts.mountpoint) {
    printf("usage: cfs <source-dir> <mountpoint> [-f] [-s] [-d] [-o option,...]\n");
    fuse_cmdline_help();
    free(opts.mountpoint);
    return opts.show_help ? 0 : 1;
  }
  int ret = 1;
  struct fuse_session *se = fuse_session_new(args, &cfs_ops, sizeof cfs_ops, NULL);
  if (!se) goto out;
  if (fuse_set_signal_handlers(se) != 0) goto destroy;
  if (fuse_session_mount(se, opts.mountpoint) != 0) goto remove_handlers;
  fuse_daemonize(opts.foreground);
  if (opts.singlethread) {
    ret = fuse_session_loop(se);
  } else {
    struct fuse_loop_config config = { .clone_fd = opts.clone_fd, .max_idle_threads = opts.max_idle_threads };
    ret = fuse_session_loop_mt(se, &config);
  }
  fuse_session_unmount(se);
remove_handlers:
  fuse_remove_signal_handlers(se);
destroy:
  fuse_session_destroy(se);
out:
  free(opts.mountpoint);
  return ret ? 1 : 0;
}

int main(int argc, char *argv[]) {
  if (argc < 3 || argv[1][0] == '-') {
    fprintf(stderr, "usage: cfs <source-dir> <mountpoint> [--no-open] [-f] [-s] [-d] [-o option,...]\n");
    return 1;
  }
  load_tree(argv[1]);
  /* libfuse parses the program name and everything after the source directory. */
  struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--no-open") == 0) want_no_open = 1;
    else if (i != 1 && fuse_opt_add_arg(&args, argv[i]) != 0) return 1;
  }
  if (fuse_opt_add_arg(&args, "-ofsname=cfs,subtype=cfs") != 0) return 1;
  int ret = serve(&args);
  fuse_opt_free_args(&args);
  return ret;
}
