/*
 * Pending requests.
 *
 * JS answers requests asynchronously, so it needs a handle for each one. A raw
 * fuse_req_t would be unsafe: libfuse frees it on the first reply, and a
 * second reply (a JS bug, or a late answer after unmount) would then be a
 * use-after-free. Instead JS gets an id naming a slot in this table; a reply
 * takes the slot out, so an id answers at most once and stale ids are
 * recognised. An id is (generation << SLOT_BITS) | slot, below 2^53 so that
 * it survives the trip through a JS number, and never 0.
 */
#include "forage_fuse.h"

#include <stdlib.h>

#define SLOT_BITS 24
#define SLOT_LIMIT (1u << SLOT_BITS)
#define GENERATION_LIMIT (1u << 28)

struct slot {
  fuse_req_t req;         /* NULL when free */
  forage_session *owner;
  uint32_t generation;
  uint32_t next_free;     /* index + 1 of the next free slot, 0 for none */
};

static struct slot *slots;
static uint32_t slot_count;
static uint32_t first_free; /* index + 1, 0 for none */
static uint32_t next_generation = 1;

static bool grow(void) {
  uint32_t count = slot_count ? slot_count * 2 : 64;
  if (count > SLOT_LIMIT) return false;
  struct slot *bigger = realloc(slots, count * sizeof *bigger);
  if (!bigger) return false;
  for (uint32_t i = slot_count; i < count; i++) {
    bigger[i] = (struct slot){ .next_free = i + 2 <= count ? i + 2 : 0 };
  }
  bigger[count - 1].next_free = first_free;
  first_free = slot_count + 1;
  slots = bigger;
  slot_count = count;
  return true;
}

/* Registers a request and returns its id, or 0 when out of memory. */
int64_t requests_add(fuse_req_t req, forage_session *owner) {
  if (!first_free && !grow()) return 0;
  uint32_t index = first_free - 1;
  struct slot *slot = &slots[index];
  first_free = slot->next_free;
  slot->req = req;
  slot->owner = owner;
  slot->generation = next_generation;
  next_generation = next_generation + 1 < GENERATION_LIMIT ? next_generation + 1 : 1;
  return ((int64_t)slot->generation << SLOT_BITS) | index;
}

static struct slot *find(int64_t id) {
  if (id <= 0) return NULL;
  uint32_t index = (uint32_t)(id & (SLOT_LIMIT - 1));
  uint32_t generation = (uint32_t)(id >> SLOT_BITS);
  if (index >= slot_count) return NULL;
  struct slot *slot = &slots[index];
  if (!slot->req || slot->generation != generation) return NULL;
  return slot;
}

static void release_slot(struct slot *slot) {
  slot->req = NULL;
  slot->owner = NULL;
  slot->next_free = first_free;
  first_free = (uint32_t)(slot - slots) + 1;
}

/* Removes a request so it can be answered; NULL if already answered. */
fuse_req_t requests_take(int64_t id, forage_session **owner) {
  struct slot *slot = find(id);
  if (!slot) return NULL;
  fuse_req_t req = slot->req;
  if (owner) *owner = slot->owner;
  release_slot(slot);
  return req;
}

/* Answers every request of a session that is going away, so that no
 * process stays blocked on it and no fuse_req_t outlives its session. */
void requests_fail_all(forage_session *owner, int err) {
  for (uint32_t i = 0; i < slot_count; i++) {
    if (slots[i].req && slots[i].owner == owner) {
      fuse_req_t req = slots[i].req;
      release_slot(&slots[i]);
      fuse_reply_err(req, err);
    }
  }
}
