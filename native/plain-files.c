/*
 * The plain-file table: by inode number, whether the last mode reported for
 * it was a regular file without write bits. Such files are opened without JS
 * (ops.c), like the files of the node table. One byte per inode number ever
 * reported (docs/native.md, "Caveats").
 */
#include "forage_fuse.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Inode numbers above this are not tracked (their opens simply go to JS). */
#define PLAIN_TRACK_LIMIT (1u << 28)

/* Remembers whether an inode is a plain file, from the attributes sent to
 * the kernel. A failed allocation only means its opens go to JS. */
void plain_note_mode(forage_session *s, uint64_t ino, uint32_t mode) {
  if (!s->fast_open || ino == 0 || ino >= PLAIN_TRACK_LIMIT) return;
  bool plain = S_ISREG(mode) && !(mode & 0222);
  if (ino >= s->plain_size) {
    if (!plain) return;
    size_t size = s->plain_size ? s->plain_size : 4096;
    while (size <= ino) size *= 2;
    uint8_t *bigger = realloc(s->plain, size);
    if (!bigger) return;
    memset(bigger + s->plain_size, 0, size - s->plain_size);
    s->plain = bigger;
    s->plain_size = size;
  }
  s->plain[ino] = plain;
}

bool plain_holds(const forage_session *s, uint64_t ino) {
  return ino < s->plain_size && s->plain[ino];
}
