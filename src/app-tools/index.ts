export { appToolFamilySchemas } from "./app-tool-family-schemas.js";
export { MAX_APP_TOOL_NAME, MAX_APP_TOOL_ROWS } from "./limits.js";
export type {
  AppToolEffect,
  AppToolFamily,
  AppToolFamilyApi,
  AppToolListingReply,
  AppToolListingRow,
  AppToolRow,
  AppToolUnsupportedRow,
} from "./types.js";
