import { pinByPath, type Pin } from "./pins";

/** The pin of an entry file of a key at a version. */
export function artifactPin(key: string, version: string, file: string): Pin {
  const path = `${key}/${version}/${file}`;
  const pin = pinByPath(path);
  if (!pin) throw new Error(`no pinned file ${path}`);
  return pin;
}
