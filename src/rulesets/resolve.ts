import { pinByPath, versionsOf, type Pin } from "./pins";

/**
 * Chooses the version of a ruleset key that serves a request. Today every request is served by the
 * newest release of each key (`latest`); retained versions and pins plug in here.
 */
export function latestVersion(key: string): string {
  const newest = versionsOf(key)[0];
  if (!newest) throw new Error(`no pinned version of ruleset '${key}'`);
  return newest.version;
}

/** The pin of an entry file of a key at a version. */
export function artifactPin(key: string, version: string, file: string): Pin {
  const path = `${key}/${version}/${file}`;
  const pin = pinByPath(path);
  if (!pin) throw new Error(`no pinned file ${path}`);
  return pin;
}
