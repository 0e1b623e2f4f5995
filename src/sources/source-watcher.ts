import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";

/** Editors save by rename as often as by write, so watch the directory and let a burst settle. */
const SETTLE_MS = 150;

/**
 * Calls `onChange` once a burst of changes to any of `files` settles; returns a stop function.
 * A folder among them is a folder source: a change to any of its `*.json` files counts.
 */
export function watchSources(sources: readonly string[], onChange: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  };
  const folders = sources.filter((source) => statSync(source, { throwIfNoEntry: false })?.isDirectory() === true);
  const files = sources.filter((source) => !folders.includes(source));
  const folderWatchers = folders.map((folder) =>
    watch(folder, (_event, name) => {
      if (name?.toString().toLowerCase().endsWith(".json")) schedule();
    }),
  );
  const watchers: FSWatcher[] = [...new Set(files.map(dirname))].map((directory) => {
    const names = new Set(files.filter((file) => dirname(file) === directory).map((file) => basename(file)));
    return watch(directory, (_event, name) => {
      if (name !== null && names.has(name.toString())) schedule();
    });
  });
  return () => {
    clearTimeout(timer);
    for (const watcher of [...watchers, ...folderWatchers]) watcher.close();
  };
}
