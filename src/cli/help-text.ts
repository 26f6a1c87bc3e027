/**
 * What `agentwire --help` says after the command list: the exit codes, the environment variables that
 * choose the model of `run`, and examples. Help output (commander's) without the `(default: [])` of
 * repeatable options, which tells a person nothing.
 */
import { type Command, Help, type Option } from 'commander';

/** The text after the command list of `agentwire --help` (commander ends it with a line break). */
export const HELP_AFTER = `
Exit codes:
  0    ok
  1    the tool reported an error (isError), or run gave up after --max-turns
  2    the command line is wrong (usage), or no model is configured for run
  3    a server could not be reached, or a request to it failed or timed out
  130  interrupted (Ctrl-C, SIGTERM, SIGHUP)

Model of run (environment; keys are never taken on the command line):
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
      use Anthropic
  OPENAI_API_KEY, OPENAI_BASE_URL
      use OpenAI or a compatible server (a base URL alone will do)
  AGENTWIRE_MODEL
      anthropic:<model-id>, openai:<model-id>, or a bare <model-id>

Colour: on a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 turns it on
when piped.

Examples:
  agentwire tools --stdio "npx -y @modelcontextprotocol/server-everything"
  agentwire call --stdio "npx -y @modelcontextprotocol/server-everything" \\
    get-sum a=2 b=40
  echo '{"message":"hi"}' |
    agentwire call --url http://localhost:3001/mcp echo -
  agentwire resources read --config ~/mcp.json --server files file:///etc/hosts
  agentwire run --config ~/mcp.json "What changed in the repo today?"`;

const plain = new Help();

/** Commander's option description, without a default that is an empty list (repeatable options). */
export function optionDescription(option: Option): string {
  const empty = Array.isArray(option.defaultValue) && option.defaultValue.length === 0;
  if (!empty) return plain.optionDescription(option);
  // The option as it is, but with no default to show (its other fields and methods unchanged).
  return plain.optionDescription(Object.assign(Object.create(option) as Option, { defaultValue: undefined }));
}

/**
 * The narrowest description column commander still wraps, in characters. Its default (40) leaves a command
 * with a long flag (`run`'s `--max-image-bytes-per-request <bytes>`) or a long usage (`complete`'s) unwrapped,
 * its lines running past the help width (80 columns off a terminal); 30 still reads as a column.
 */
const MIN_WIDTH_TO_WRAP = 30;

/**
 * Applies {@link optionDescription} and the wrapping rule to the program (its commands, added after, copy
 * them) and adds {@link HELP_AFTER} to the program's own help.
 */
export function configureHelp(program: Command): Command {
  return program
    .configureHelp({ optionDescription, minWidthToWrap: MIN_WIDTH_TO_WRAP })
    .addHelpText('after', HELP_AFTER);
}
