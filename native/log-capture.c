/*
 * libfuse's log. While a mount is being set up it is captured into the
 * caller's buffer, so that a failed mount throws an error saying why (for
 * instance fusermount3's message); otherwise it goes to stderr.
 */
#include "forage_fuse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Per thread: only the mounting thread's messages are captured. A reader thread of another
 * session logs meanwhile (every request, with -d), and must neither write into the mounting
 * call's buffer nor, after it returned, into its dead stack frame. */
static _Thread_local char *capture;
static _Thread_local size_t capture_size;

static void forage_log(enum fuse_log_level level, const char *fmt, va_list ap) {
  (void)level;
  if (capture && capture_size > 0) {
    size_t used = strlen(capture);
    if (used + 1 < capture_size) vsnprintf(capture + used, capture_size - used, fmt, ap);
    return;
  }
  fputs("forage-fuse: ", stderr);
  vfprintf(stderr, fmt, ap);
}

/* Routes libfuse's log through forage_log; once per process. */
void log_install(void) {
  fuse_set_log_func(forage_log);
}

/* Appends libfuse's messages from this thread to buf (NUL-terminated, which
 * it must be on entry) until log_capture_end. */
void log_capture_begin(char *buf, size_t size) {
  capture = buf;
  capture_size = size;
}

void log_capture_end(void) {
  capture = NULL;
  capture_size = 0;
}
