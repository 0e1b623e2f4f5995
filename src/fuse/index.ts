/**
 * The FUSE transport: serve a VirtualTree as a read-only filesystem.
 * Importing this never loads the native addon; mounting does.
 */
export { mountTree, mountOptionString, type MountClosed, type MountHandle, type MountOptions } from "./mount.js";
export { clearStaleMount, mountedType, prepareMountpoint, type MountpointOptions } from "./mountpoint.js";
export { errnoFor } from "./errno.js";
export {
  FUSE_INSTALL_HINT,
  FuseUnavailableError,
  fuseUnavailableReason,
  loadNativeBinding,
  nativeAddonPath,
  type NativeBinding,
  type NativeHandlers,
  type NativeMountConfig,
  type NativeSession,
} from "./native-binding.js";
export { TreeFilesystem, type Invalidation, type TreeFilesystemOptions } from "./tree-filesystem.js";
