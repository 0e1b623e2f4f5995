const RANKED_SEARCH = `- Ranked search by meaning: \`ls ".search/send an email/"\`: entries are ranked best first and read as the
  operation's \`.d.ts\`; \`.search/<query>/results.json\` holds the ranked summaries.
`;

/** The README at the mount root: how a person or an agent with only a shell uses this mount. */
export function mountReadme(facts: {
  operationCount: number;
  revision: string;
  stamp: string;
  subtree: string | null;
  searchable: boolean;
  /** False when there is no ranked .search/ directory (an export); default true. */
  rankedSearch?: boolean;
}): string {
  const scope = facts.subtree === null ? "" : ` under namespace \`${facts.subtree}\``;
  const textSearch = facts.searchable
    ? `- Text search: \`grep -rn maxLength .\`, or write \`{"query": "text"}\` or \`{"query": {"regex": "…"}}\` to
  \`.afi/search\` and read NDJSON matches back (AFI profile 2; see \`.afi/manifest.json\`).`
    : `- Text search: \`grep -rn maxLength .\` (this ${facts.rankedSearch === false ? "is a plain directory" : "mount is read-only"}, so it has no \`.afi/search\` control file).`;
  return `# Forage catalog

This read-only directory describes ${facts.operationCount} operations${scope} (revision \`${facts.revision}\`).
Forage only describes operations: it never runs them and grants no permission to use them.

- Directories are namespaces. Each operation is \`<name>.d.ts\` (TypeScript declaring \`env.<path>(input)\`)
  and \`<name>.json\` (description, capability notes, instructions, inputSchema, outputSchema, sample).
- \`@namespace.d.ts\` in a directory declares every operation under it (absent when too large to describe whole).
${facts.rankedSearch === false ? "" : RANKED_SEARCH}${textSearch}
- Type-check every declaration: \`tsc -p .\`
`;
}

/** A tsconfig that makes `tsc -p <mount>` type-check every declaration in the mount. */
export function mountTsconfig(): string {
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      lib: ["ES2022"],
      types: [],
    },
    include: ["**/*.d.ts"],
    exclude: [".search", ".afi"],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
