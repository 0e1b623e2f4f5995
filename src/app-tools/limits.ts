/** Most rows one listing may carry; a listing reply is third-party data. */
export const MAX_APP_TOOL_ROWS = 500;

/** Longest row or family name, in UTF-16 units. */
export const MAX_APP_TOOL_NAME = 200;
