/**
 * `defaultTools()`: the six built-in tools (bash, read_file, write_file, edit_file, list_files, search),
 * confined to a workspace root, with output caps and a timeout for bash.
 */
import type { Tool } from '../core/tool.js';
import { bashTool } from './bash.js';
import { type BuiltinToolOptions, DEFAULT_MAX_OUTPUT_BYTES } from './define.js';
import { editFileTool, readFileTool, writeFileTool } from './files.js';
import { listFilesTool } from './list-files.js';
import { searchTool } from './search.js';
import { Workspace } from './workspace.js';
import { DEFAULT_MAX_WRITE_BYTES } from './write-text.js';

/** Options of {@link defaultTools}. */
export interface DefaultToolsOptions extends BuiltinToolOptions {
  /** `bash` timeout (default and maximum), in ms. Default 30,000. */
  bashTimeoutMs?: number;
  /**
   * Variables added to `bash`'s environment, which otherwise holds only `HOME`, `LOGNAME`, `PATH`, `SHELL`,
   * `TERM`, `USER`, `LANG`, `LC_ALL` and `TMPDIR` from the host (never its API keys). An `undefined` value
   * removes a variable. Default: none.
   */
  bashEnv?: Readonly<Record<string, string | undefined>>;
  /** Time one `search` may take, in ms; a pattern that backtracks past it is stopped. Default 10,000. */
  searchTimeoutMs?: number;
  /** Leave `bash` out (file tools only). Default false. */
  withoutBash?: boolean;
}

/**
 * The six built-in tools, confined to `options.root`: paths outside it, including through symlinks (also
 * ones another process swaps in while a call runs), are refused with a `BuiltinToolError` of kind
 * `outside_workspace` (which the agent reports to the model). `bash` is confined only by its working
 * directory. On Linux the file tools open files relative to checked directory descriptors
 * (`/proc/self/fd`); elsewhere they re-check each opened file's real path and inode, which a process that
 * swaps a path back and forth between the open and that check can still defeat.
 */
export function defaultTools(options: DefaultToolsOptions): Tool[] {
  const shared = {
    workspace: new Workspace(options.root),
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    maxWriteBytes: options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES,
  };
  const tools = [
    readFileTool(shared),
    writeFileTool(shared),
    editFileTool(shared),
    listFilesTool(shared),
    searchTool({
      ...shared,
      ...(options.searchTimeoutMs === undefined ? {} : { timeoutMs: options.searchTimeoutMs }),
    }),
  ];
  if (options.withoutBash) return tools;
  return [
    bashTool({
      ...shared,
      ...(options.bashTimeoutMs === undefined ? {} : { timeoutMs: options.bashTimeoutMs }),
      ...(options.bashEnv === undefined ? {} : { env: options.bashEnv }),
    }),
    ...tools,
  ];
}
