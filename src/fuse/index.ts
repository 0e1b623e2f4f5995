/**
 * The FUSE transport: serve a VirtualTree as a read-only filesystem.
 * Importing this never loads the native addon; mounting does.
 */

export { allowOtherRefusal, permitsUserAllowOther } from "./allow-other.js";
export { errnoFor } from "./errno.js";
export { type MountClosed, type MountHandle, type MountOptions, mountOptionString, mountTree } from "./mount.js";
export { trace, tracing, watchStalls } from "./mount-trace.js";
export { clearStaleMount, type MountpointOptions, mountedType, prepareMountpoint } from "./mountpoint.js";
export {
  type LockHolder,
  lockHolder,
  lockKeyPath,
  lockMountpoint,
  type MountpointLock,
  waitForLockRelease,
} from "./mountpoint-lock.js";
export {
  FUSE_INSTALL_HINT,
  FuseUnavailableError,
  fuseUnavailableReason,
  loadNativeBinding,
  type NativeBinding,
  type NativeHandlers,
  type NativeMountConfig,
  type NativeSession,
  nativeAddonPath,
} from "./native-binding.js";
export type { Invalidation } from "./revision-swap.js";
export { TreeFilesystem, type TreeFilesystemOptions } from "./tree-filesystem.js";
