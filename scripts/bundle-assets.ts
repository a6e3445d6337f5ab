// Packs the synced and compiled rulesets into build/assets/rulesets.bundle (embedded by build.ts).
import { buildBundle } from "../src/assets/build-bundle";

const { path, files, bytes } = buildBundle();
console.log(`bundle: ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB -> ${path}`);
