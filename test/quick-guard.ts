/**
 * The rule of the quick tests (`npm run test:quick`, the vitest project `quick` in vitest.config.ts): they
 * start no process. Loaded before each quick file, it makes every way of starting one (`node:child_process`'s
 * spawn, exec, execFile, fork and their sync forms) throw, naming the call, so a quick file that starts a
 * process fails in every run, and belongs in the other project.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new Error(
      `child_process.${name}: a quick test starts no process; move this file out of the quick list (vitest.config.ts)`,
    );
  };
}
// `import { spawn } from 'node:child_process'` reads the ES module's bindings: bring them in line.
syncBuiltinESMExports();
