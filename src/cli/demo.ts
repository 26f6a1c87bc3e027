/** `npm run demo` (after the build: `node dist/cli/demo.js`). See `demo-script.ts`. */
import { runDemo } from './demo-script.js';

process.exitCode = await runDemo({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
