import { readFileSync } from "node:fs";

/** fusermount3 reads this; only root may use allow_other unless it says user_allow_other. */
export const FUSE_CONF = "/etc/fuse.conf";

/** True when `text` (a fuse.conf) has `user_allow_other` on a line of its own, as fusermount3 requires. */
export function permitsUserAllowOther(text: string): boolean {
  return text.split("\n").some((line) => line.trim() === "user_allow_other");
}

/**
 * Why this process may not mount with allow_other, or undefined when it may:
 * root always may; anyone else needs `user_allow_other` in /etc/fuse.conf.
 */
export function allowOtherRefusal(): string | undefined {
  if ((process.getuid?.() ?? 0) === 0) return undefined;
  let text = "";
  try {
    text = readFileSync(FUSE_CONF, "utf8");
  } catch {
    // A missing or unreadable file permits nothing, as for fusermount3.
  }
  if (permitsUserAllowOther(text)) return undefined;
  return `allow_other needs a line "user_allow_other" in ${FUSE_CONF} for users other than root (ask an administrator to add it), or mount without allow_other`;
}
