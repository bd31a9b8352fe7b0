// The whole build: bundle the extension, then copy the schema. A missing schema fails the
// build (exit 1) but only after the bundle is written, so the rest can still be worked on.
import { bundle } from "./bundle.mjs";
import { copySchema } from "./copy-schema.mjs";

await bundle();
if (!copySchema()) {
  process.exitCode = 1;
}
