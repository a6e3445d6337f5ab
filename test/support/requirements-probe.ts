// Run by requirements.test.ts in a child `bun test`: one requirement missing, one present.

import { describe, expect, test } from "bun:test";
import { cannotRun } from "./requirements.ts";

describe.skipIf(cannotRun("the probe's oracle", "no oracle here"))("with the oracle", () => {
  test("judges", () => expect(true).toBe(true));
});

test.skipIf(cannotRun("the probe's corpus", null))("needs only what is present", () => expect(true).toBe(true));
