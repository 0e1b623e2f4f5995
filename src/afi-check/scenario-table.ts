import { ACCESS_SCENARIOS, ERROR_SCENARIOS } from "./access-error-scenarios.js";
import { DISCOVERY_SCENARIOS } from "./discovery-scenarios.js";
import { PATH_SCENARIOS } from "./path-scenarios.js";
import { READ_SCENARIOS } from "./read-scenarios.js";
import type { Scenario } from "./scenario.js";
import { SEARCH_SCENARIOS } from "./search-scenarios.js";
import { STAT_LIST_SCENARIOS } from "./stat-list-scenarios.js";

/** Every scenario of the kit, group by group; Errors last, since it judges the errors of all the others. */
export const SCENARIOS: readonly Scenario[] = [
  ...DISCOVERY_SCENARIOS,
  ...PATH_SCENARIOS,
  ...STAT_LIST_SCENARIOS,
  ...READ_SCENARIOS,
  ...SEARCH_SCENARIOS,
  ...ACCESS_SCENARIOS,
  ...ERROR_SCENARIOS,
];
