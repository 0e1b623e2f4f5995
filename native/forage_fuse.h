/*
 * forage_fuse: a small N-API binding to libfuse3's low-level API.
 *
 * The addon knows nothing of catalogs. It mounts a session and serves
 * /dev/fuse from a reader thread of its own, which blocks in read and
 * answers what it can from the node table JS loaded (a whole read-only tree)
 * without the JS thread. Every other request is queued for the JS thread,
 * which hands it to a JS handler together with a request id; JS answers
 * later through the reply* functions. See docs/native.md.
 */
#ifndef FORAGE_FUSE_H
#define FORAGE_FUSE_H

#define FUSE_USE_VERSION 35
#ifndef NAPI_VERSION
#define NAPI_VERSION 8
#endif

/* The longest name, in bytes: FUSE's own limit (the kernel's FUSE_NAME_MAX),
 * reported by statfs and kept by lookup and the node table (docs/afi.md, "Names"). */
#define FORAGE_NAME_MAX 1024

#include <fuse_lowlevel.h>
#include <node_api.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <uv.h>

/* The JS handlers a session calls; the index of each in session->handlers. */
enum forage_op {
  OP_LOOKUP,
  OP_FORGET,
  OP_GETATTR,
  OP_SETATTR,
  OP_READLINK,
  OP_OPEN,
  OP_READ,
  OP_WRITE,
  OP_FLUSH,
  OP_RELEASE,
  OP_READDIR,
  OP_STATFS,
  OP_COUNT
};

/* Flags JS passes to replyOpen (our own small ABI, not the kernel's). */
enum forage_open_flag {
  OPEN_KEEP_CACHE = 1,
  OPEN_DIRECT_IO = 2,
  OPEN_NOFLUSH = 4,
  OPEN_NONSEEKABLE = 8,
};

/* Flags of a node-table node (our own small ABI, shared with JS). */
enum table_node_flag {
  NODE_FORWARD = 1,  /* requests about the node itself go to JS (a control file) */
  NODE_UNLISTED = 2, /* a directory whose unlisted names are looked up by JS */
};

/* One node of a node table (node-table.c). */
typedef struct table_node {
  uint64_t ino;
  uint64_t parent;      /* the parent's inode number (the root's own) */
  uint64_t size;        /* bytes of data; 0 for directories */
  uint64_t data;        /* offset of the file bytes or symlink target in table->data */
  uint32_t name;        /* offset of the NUL-terminated name in table->names */
  uint32_t name_len;
  uint32_t mode;
  uint32_t flags;       /* enum table_node_flag */
  uint32_t first_child; /* index of the first child in table->nodes */
  uint32_t child_count;
} table_node;

/* A read-only tree answered without JS; immutable once built. */
typedef struct node_table {
  table_node *nodes; /* nodes[0] is the root */
  uint32_t count;
  char *names;
  char *data;
  uint32_t *by_ino;  /* index into nodes, or UINT32_MAX: by ino - ino_base when dense, else hash slots */
  uint64_t mask;     /* by_ino slots - 1 */
  uint64_t ino_base; /* the lowest inode number, when dense */
  bool dense;        /* the inode numbers span at most mask + 1: by_ino is indexed directly */
  uint32_t *by_name; /* per directory, its children's indexes in strcmp order */
  double entry_timeout, attr_timeout, negative_timeout;
} node_table;

/* A byte blob that grows as it is filled. */
struct table_blob {
  char *bytes;
  size_t used, size;
};

/* A node table being copied from JS a chunk at a time (node-table.c). Nothing serves it: it
 * becomes a node_table only once filled and numbered. */
typedef struct next_table {
  node_table *table;
  uint32_t copied; /* nodes whose fields, name and bytes are in */
  uint32_t sorted; /* nodes whose run of by_name is sorted (once all are copied) */
  struct table_blob names, data;
} next_table;

/* What mounting takes besides the mountpoint and libfuse's options. */
struct session_config {
  uid_t uid;
  gid_t gid;
  struct timespec mtime;
  bool no_opendir, no_open, fast_open, debug;
};

/* An argument of a queued call: a number, a bool, or owned bytes (a string is NUL-terminated). */
struct js_arg {
  enum { ARG_NUMBER, ARG_BOOL, ARG_STRING, ARG_BYTES } type;
  double number;
  char *bytes;
  size_t size;
};

/* One request for a JS handler (or a notice, which answers nothing), made by the reader thread
 * and run by the JS thread, in the order they were queued (js-calls.c). */
typedef struct js_message {
  struct js_message *next;
  enum forage_op op;
  fuse_req_t req; /* NULL for a notice (forget) */
  bool failed;    /* an argument could not be copied: answered ENOMEM, never run */
  size_t argc;
  struct js_arg argv[5];
} js_message;

/* The one lifecycle of a session. It only moves down this list.
 *
 *   SERVING --unmount()--> CLOSING --no batch pending--> CLOSED
 *   SERVING or CLOSING --the kernel ends it--> ENDED --> CLOSED
 *   any state before CLOSED --Node's environment or the process goes--> ABANDONED
 */
enum session_state {
  SESSION_SERVING,   /* mounted: requests are served */
  SESSION_CLOSING,   /* unmount() asked: served only while an invalidation batch needs it */
  SESSION_ENDED,     /* the kernel ended it (unmounted from outside, or the device failed) */
  SESSION_CLOSED,    /* torn down: unmounted, libfuse's session freed, onClose on its way */
  SESSION_ABANDONED, /* torn down without JS: only the mount was detached, memory is left */
};

typedef struct forage_session {
  napi_env env;
  struct fuse_session *se;
  struct fuse_buf buf; /* the reader's receive buffer, reused for every request */

  /* The reader thread (session.c) and what it shares with the JS thread. `lock` is held by the
   * reader while it processes one request, and by the JS thread while it changes what the
   * reader reads: the served table, the plain-file marks, mtime, the queue. Neither thread
   * calls JS or a notify_inval while holding it, nor waits for anything else. */
  pthread_t reader;
  bool reader_started; /* pthread_create succeeded: teardown stops and joins it */
  bool reader_done;    /* the reader ended because the kernel ended the session (atomic) */
  pthread_mutex_t lock;
  js_message *queue;       /* requests for JS, oldest first (under lock) */
  js_message **queue_tail; /* where the next one goes (under lock) */
  uv_async_t wake;         /* the reader's "queue or reader_done changed" to the JS thread */

  napi_ref handlers[OP_COUNT]; /* NULL where JS gave no handler */
  napi_ref on_error;           /* (error) => void, for exceptions in handlers */
  napi_ref on_close;           /* (external: boolean) => void, once */
  napi_ref resource;           /* async resource for callback scopes */
  napi_async_context async_context;

  /* Attributes common to every node, so replies carry only ino/mode/size. */
  uid_t uid;
  gid_t gid;
  struct timespec mtime;

  bool want_no_opendir; /* JS asked for it */
  bool no_opendir;      /* ...and the kernel offers it */
  bool want_no_open;    /* JS asked for it (no per-open state needed at all) */
  bool no_open;         /* ...and the kernel offers it */
  bool fast_open;       /* answer open/flush/release of plain files here */
  int last_device_fd;   /* under auto_unmount, /dev/fuse again above every other fd (see session.c), else -1 */

  /* By inode number: 1 when the last mode we reported for it was a regular
   * file without write bits (a "plain" file, opened without JS). */
  uint8_t *plain;
  size_t plain_size;

  node_table *table;   /* NULL until JS loads one */
  next_table *next_table; /* the next table, while JS fills it; never served */

  /* The buffer table listings are built in (table-replies.c), kept across
   * readdir requests: a buffer per listing cost a malloc and a free past the
   * fastbin sizes, and each such malloc first consolidates the fastbins. */
  char *listing;
  size_t listing_size;

  /* JS scopes opened lazily for the rest of one wakeup (js-calls.c), JS thread only. */
  bool in_js;
  napi_handle_scope js_handles;
  napi_callback_scope js_callback;

  /* The lifecycle (session.c). Written on the JS thread only; the reader and invalidation
   * batches on the threadpool read it too, through session_state(). */
  enum session_state state;
  bool external;             /* what onClose reports: the kernel ended the session */
  bool dispatching;          /* running queued calls into JS: teardown must wait */
  int pending_invalidations; /* batches on the threadpool: teardown must wait */
  int refs;                  /* the JS external, the live mount, each pending batch */
  struct forage_session *next; /* list of live sessions, for exit hooks */
} forage_session;

/* Declarations by file, in layers: each file calls only files of the layers
 * above its own in this list (docs/native.md, "Layers"; checked by
 * test/native-layers.test.ts). */

static inline enum session_state session_state(const forage_session *s) {
  return __atomic_load_n(&s->state, __ATOMIC_RELAXED);
}

/* False once no JS may be called for this session again. */
static inline bool session_js_allowed(const forage_session *s) {
  return session_state(s) != SESSION_ABANDONED;
}

/* The session's one lock (see forage_session.lock). */
static inline void session_lock(forage_session *s) {
  pthread_mutex_lock(&s->lock);
}

static inline void session_unlock(forage_session *s) {
  pthread_mutex_unlock(&s->lock);
}

/* ---- Layer 0 ------------------------------------------------------------ */

/* js.c: reading and making JS values. Each reader throws a TypeError and
 * returns false when the value has the wrong type. */
bool js_args(napi_env env, napi_callback_info info, size_t n, napi_value *argv);
bool js_int64(napi_env env, napi_value v, int64_t *out);
bool js_double(napi_env env, napi_value v, double *out);
bool js_bool(napi_env env, napi_value v, bool *out);
char *js_string_dup(napi_env env, napi_value v); /* malloc'd; NULL on error */
bool js_string_into(napi_env env, napi_value v, char *buf, size_t size, size_t *len);
bool js_session(napi_env env, napi_value v, forage_session **out);
napi_value js_boolean(napi_env env, bool b);
napi_value js_number(napi_env env, double d);
napi_value js_undefined(napi_env env);

/* requests.c: pending requests, named by ids that are safe to hand to JS. */
int64_t requests_add(fuse_req_t req, forage_session *owner);
fuse_req_t requests_take(int64_t id, forage_session **owner);
void requests_fail_all(forage_session *owner, int err);

/* plain-files.c: which inodes are plain files, opened without JS. */
void plain_note_mode(forage_session *s, uint64_t ino, uint32_t mode);
bool plain_holds(const forage_session *s, uint64_t ino);

/* log-capture.c: libfuse's log, captured while mounting for a useful error. */
void log_install(void);
void log_capture_begin(char *buf, size_t size);
void log_capture_end(void);

/* ---- Layer 1 ------------------------------------------------------------ */

/* attributes.c: the stat and directory entries replies carry. */
void attr_fill_stat(const forage_session *s, struct stat *st, uint64_t ino, uint32_t mode,
                    double size);
size_t attr_add_direntry(forage_session *s, fuse_req_t req, char *buf, size_t remaining,
                         const char *name, uint64_t ino, uint32_t mode, double size, bool plus,
                         double entry_timeout, double attr_timeout, off_t next);

/* node-table.c: the tree JS hands over, copied into the next table in chunks (NULL-safe lookups). Each function
 * that takes env fails with an exception pending. */
next_table *table_start(napi_env env, napi_value spec);
bool table_fill(napi_env env, next_table *st, napi_value spec, uint32_t budget, bool *done);
node_table *table_number(napi_env env, next_table *st, napi_value numbers); /* consumes st on success */
void table_next_free(next_table *st);
void table_free(node_table *t);
const table_node *table_find(const node_table *t, uint64_t ino);
const table_node *table_child(const node_table *t, const table_node *dir, const char *name);
const char *table_data(const node_table *t, const table_node *n);

/* js-calls.c: the handlers, and the calls into them: queued by the reader thread, run on the
 * JS thread. */
bool js_keep_handlers(forage_session *s, napi_value handlers);
void js_release_handlers(forage_session *s);
void js_enter(forage_session *s);
void js_leave(forage_session *s);
void js_report_exception(forage_session *s);

/* One call into a JS handler, built on the reader thread (session lock held) by call_begin*,
 * the call_<type> arguments, then call_end, which queues it for the JS thread. */
struct js_call {
  forage_session *s;
  js_message *m;
};
bool call_begin(struct js_call *c, fuse_req_t req, enum forage_op op);
bool call_begin_notice(struct js_call *c, forage_session *s, enum forage_op op);
void call_number(struct js_call *c, double d);
void call_string(struct js_call *c, const char *str);
void call_bool(struct js_call *c, bool b);
void call_bytes(struct js_call *c, const char *data, size_t size);
void call_end(struct js_call *c);
js_message *calls_next(forage_session *s); /* JS thread: the oldest queued call, or NULL */
void calls_run(forage_session *s, js_message *m); /* JS thread: calls the handler, frees m */
void calls_fail_queued(forage_session *s, int err); /* answers and frees every queued call */

/* ---- Layer 2 ------------------------------------------------------------ */

/* table-replies.c: requests answered from the node table; false = not ours. */
bool table_lookup(forage_session *s, fuse_req_t req, fuse_ino_t parent, const char *name);
bool table_getattr(forage_session *s, fuse_req_t req, fuse_ino_t ino);
bool table_readlink(forage_session *s, fuse_req_t req, fuse_ino_t ino);
bool table_is_plain(const forage_session *s, fuse_ino_t ino);
bool table_read(forage_session *s, fuse_req_t req, fuse_ino_t ino, size_t size, off_t off);
bool table_readdir(forage_session *s, fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
                   bool plus);
bool table_holds(const forage_session *s, fuse_ino_t ino);
napi_value js_start_next_table(napi_env env, napi_callback_info info);
napi_value js_fill_next_table(napi_env env, napi_callback_info info);
napi_value js_serve_next_table(napi_env env, napi_callback_info info);
napi_value js_drop_next_table(napi_env env, napi_callback_info info);

/* replies.c: the reply functions exported to JS. */
napi_value js_reply_err(napi_env env, napi_callback_info info);
napi_value js_reply_entry(napi_env env, napi_callback_info info);
napi_value js_reply_attr(napi_env env, napi_callback_info info);
napi_value js_reply_readlink(napi_env env, napi_callback_info info);
napi_value js_reply_open(napi_env env, napi_callback_info info);
napi_value js_reply_buf(napi_env env, napi_callback_info info);
napi_value js_reply_write(napi_env env, napi_callback_info info);
napi_value js_reply_statfs(napi_env env, napi_callback_info info);
napi_value js_reply_readdir(napi_env env, napi_callback_info info);

/* ---- Layer 3 ------------------------------------------------------------ */

/* ops.c: the low-level operations, and the one libfuse session over them. */
struct fuse_session *ops_new_session(forage_session *s, const char *options, bool debug);

/* ---- Layer 4 ------------------------------------------------------------ */

/* session.c: mount, the reader thread, the JS thread's side of the queue, and teardown. */
forage_session *session_mount(napi_env env, const char *mountpoint, const char *options,
                              const struct session_config *config, napi_value handlers,
                              char *error, size_t error_size);
void session_request_close(forage_session *s, bool force);
void session_maybe_teardown(forage_session *s);
void session_unref(forage_session *s);
void session_init_process(napi_env env);

/* ---- Layer 5 ------------------------------------------------------------ */

/* invalidate.c: kernel cache invalidation on the threadpool. */
napi_value js_invalidate(napi_env env, napi_callback_info info);

/* ---- Layer 6 ------------------------------------------------------------ */

/* addon.c: the module (mount, unmount, setMtime, startNextTable, ...); exports nothing to C. */

#endif
