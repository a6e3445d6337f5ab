/**
 * SaxonJS 2.7 assigns two globals it never declares. Inside a `bun build --compile` executable the
 * module runs in strict mode and the assignments throw (`abstractNode is not defined`, then
 * `HostPlatform`). Declaring them first, in a module imported before saxon-js, lets it load.
 */
const g = globalThis as Record<string, unknown>;
if (!("abstractNode" in g)) g.abstractNode = undefined;
if (!("HostPlatform" in g)) g.HostPlatform = undefined;
