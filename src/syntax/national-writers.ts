// Every national writer, by the id its catalogue record names (src/profiles/record.ts).

import type { NationalWriterId } from "../profiles/record.ts";
import type { NationalInput, NationalWritten } from "./national.ts";

const WRITERS: Record<NationalWriterId, (input: NationalInput) => NationalWritten> = {} as never;

export const writeNational = (writer: NationalWriterId, input: NationalInput): NationalWritten => WRITERS[writer](input);
