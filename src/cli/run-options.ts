/**
 * The options of `agentwire run` other than its servers: the model, the built-in tools, the turn bound, the
 * tool result budget and the model timeouts.
 * Each is checked before anything starts, so a typo or a missing API key costs no server start.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '../core/tool.js';
import { MODEL_SPEC_GRAMMAR, parseModelSpec } from '../providers/env.js';
import { type ImageOptions, type Model, modelFromEnv } from '../providers/index.js';
import { preloadSdk } from '../providers/sdk.js';
import { defaultTools } from '../tools/index.js';
import { UsageError } from './usage-error.js';

/**
 * The model for the run: `--model` when given (`anthropic:<id>`, `openai:<id>` or a bare `<id>`, read as
 * `AGENTWIRE_MODEL` is, by `parseModelSpec`), else what the environment selects (`AGENTWIRE_MODEL`, `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`; see `modelFromEnv`).
 * Keys and base URLs always come from the environment, never from the command line, where they would show
 * in `ps` and shell history. The provider's SDK is loaded here too: a missing one is as much a configuration
 * problem as a missing key, and costs no server start either. `images`: the image flags (`--no-images`, …).
 * @throws UsageError when `spec` is not of that grammar.
 * @throws ModelError kind `not_configured` when the provider has no key (message names the variables only)
 *   or its SDK package is not installed (message names the package).
 */
export async function runModel(
  spec: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  images: ImageOptions = {},
): Promise<Model> {
  if (spec !== undefined && (spec.trim() === '' || parseModelSpec(spec) === undefined)) {
    throw new UsageError(`--model expects ${MODEL_SPEC_GRAMMAR}`);
  }
  const model = modelFromEnv(spec === undefined ? env : { ...env, AGENTWIRE_MODEL: spec }, images);
  await preloadSdk(model.provider);
  return model;
}

/**
 * The built-in tools for `--tools default` (bash, read_file, write_file, edit_file, list_files, search),
 * confined to `root` (default: the current directory); none without `--tools`.
 * @throws UsageError when `--root` is given without `--tools default`, or is not a directory.
 */
export function builtinTools(set: 'default' | undefined, root: string | undefined): Tool[] {
  if (set === undefined) {
    if (root !== undefined) throw new UsageError('--root applies with --tools default only');
    return [];
  }
  const dir = path.resolve(root ?? process.cwd());
  if (!isDirectory(dir)) throw new UsageError(`--root: "${dir}" is not a directory`);
  return defaultTools({ root: dir });
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

export { resultBytes, timeoutMs, turnCount } from './run-flags.js';
