// Recall@k and MRR over ranked groups of tool ids.

/**
 * The 1-based rank of the first group holding any relevant tool, or Infinity
 * when none is returned. A query with several relevant tools (MetaTool's
 * multi-tool split) is a hit as soon as one of them is found.
 */
export function firstRelevantRank(groups, relevant) {
  const wanted = new Set(relevant);
  const index = groups.findIndex((group) => group.some((id) => wanted.has(id)));
  return index === -1 ? Infinity : index + 1;
}

/** Recall@1, @4 and @5 and MRR (reciprocal rank of the first relevant tool, 0 when absent) of a list of ranks. */
export function summarize(ranks) {
  const count = ranks.length;
  const within = (k) => ranks.filter((rank) => rank <= k).length / count;
  const mrr = ranks.reduce((sum, rank) => sum + (rank === Infinity ? 0 : 1 / rank), 0) / count;
  return { count, recall1: within(1), recall4: within(4), recall5: within(5), mrr };
}
